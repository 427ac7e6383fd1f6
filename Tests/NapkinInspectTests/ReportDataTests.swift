import Foundation
import NapkinTrace
import Testing
@testable import napkin_inspect

/// The report's embedded data: the hand-written JSON and the sample of
/// nodes a huge trace keeps.
@Suite("report data")
struct ReportDataTests {
    @Test("ReportJSON: nested values, separators and escapes give JSON that parses to the same values")
    func jsonRoundTrip() throws {
        let hostile = "a\"b\\c\n\t\r\u{0}\u{7F}\u{9B}\u{202E}\u{2028}</script><!--&>é😀"
        var out = ReportJSON()
        out.openObject()
        out.member("s", hostile)
        out.key("a")
        out.openArray()
        out.number(1)
        out.number(orMinusOne: nil)
        out.openArray()
        out.closeArray()
        out.openObject()
        out.closeObject()
        out.string(orNull: nil)
        out.bool(true)
        out.openArray()
        out.number(2)
        out.number(-3)
        out.closeArray()
        out.closeArray()
        out.member("n", UInt64.max)
        out.closeObject()
        let text = out.text
        for raw in ["<", ">", "&", "\u{202E}", "\u{2028}", "\u{0}", "\u{7F}", "\u{9B}"] {
            #expect(!text.contains(raw), "\(raw.debugDescription) written raw")
        }
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["s"] as? String == hostile)
        let array = try #require(object["a"] as? [Any])
        #expect(array.count == 7)
        #expect(array[0] as? Int == 1 && array[1] as? Int == -1)
        #expect(array[4] is NSNull && array[5] as? Bool == true)
        #expect(array[6] as? [Int] == [2, -3])
        #expect(text.hasSuffix(#""n":18446744073709551615}"#))
    }

    /// A history of `count` routers, each created, attached, detached and
    /// released, except those in `alive`, which stay attached.
    static func history(count: Int, alive: Set<Int>) -> TraceHistory {
        var history = TraceHistory()
        var seq: UInt64 = 0
        func apply(_ kind: TraceEvent.Kind) {
            seq += 1
            history.apply(TraceEvent(seq: seq, time: seq * 1_000, kind: kind))
        }
        apply(.routerCreated(id: 1, type: "Root", interactor: 2, interactorType: "RootInteractor"))
        for n in 1..<count {
            let id = NodeID(10 + 2 * n)
            apply(.routerCreated(id: id, type: "Row", interactor: id + 1, interactorType: "RowInteractor"))
            apply(.attach(parent: 1, child: id))
            if !alive.contains(n) {
                apply(.detach(parent: 1, child: id))
                apply(.deallocated(id: id))
            }
        }
        return history
    }

    @Test("past the limit, the nodes findings name and those alive at the end are kept, then evenly spaced others")
    func sampleKeepsWhatMatters() throws {
        let history = Self.history(count: 1_000, alive: [500, 999])
        #expect(ReportData.keptNodes(history, findings: []).count == 1_000, "under the limit: everything")
        let named = history.nodes[123]
        let finding = Finding(rule: try #require(Finding.Rule(rawValue: "not-deallocated")), subject: .router, type: named.type,
                              id: named.id, seqs: [], time: 0, message: "m")
        let kept = ReportData.keptNodes(history, findings: [finding], limit: 50)
        #expect(kept.count == 50)
        #expect(kept == kept.sorted() && Set(kept).count == 50, "in order, no repeats")
        #expect(kept.contains(0), "the root: alive at the end")
        #expect(kept.contains(500) && kept.contains(999), "alive at the end")
        #expect(kept.contains(123), "named by a finding")
        #expect(kept.contains { $0 > 900 } && kept.contains { $0 < 100 }, "spread over the whole trace")
    }
}
