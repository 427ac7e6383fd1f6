import Foundation
import NapkinTrace
import Testing
import TestSupport
@testable import napkin_inspect

/// The report's script and style sheet: files of their own, compiled into
/// the binary byte for byte (`.embedInCode`), and inlined whole in every page.
@Suite("report assets")
struct ReportAssetsTests {
    /// The bytes of `Render/Report/Assets/NAME` in the source tree.
    static func file(_ name: String) throws -> Data {
        try Data(contentsOf: PackagePaths.root.appendingPathComponent("Sources/napkin-inspect/Render/Report/Assets/\(name)"))
    }

    /// Each asset: its file name, the bytes compiled in, and the text the page uses.
    static let assets: [(name: String, embedded: [UInt8], text: String)] = [
        ("report.css", PackageResources.report_css, ReportAssets.styleSheet),
        ("errors.js", PackageResources.errors_js, ReportAssets.errorScript),
        ("base.js", PackageResources.base_js, ReportAssets.scriptParts[0].text),
        ("tree.js", PackageResources.tree_js, ReportAssets.scriptParts[1].text),
        ("panels.js", PackageResources.panels_js, ReportAssets.scriptParts[2].text),
        ("details.js", PackageResources.details_js, ReportAssets.scriptParts[3].text),
        ("timeline.js", PackageResources.timeline_js, ReportAssets.scriptParts[4].text),
        ("report.js", PackageResources.report_js, ReportAssets.scriptParts[5].text),
        ("live.js", PackageResources.live_js, ReportAssets.livePart),
    ]
    /// The report's parts, in the order the page joins them.
    static let parts = ["base.js", "tree.js", "panels.js", "details.js", "timeline.js", "report.js"]

    @Test("the embedded script, style sheet and error catcher are their files' content, byte for byte")
    func embeddedBytesAreTheFiles() throws {
        #expect(ReportAssets.scriptParts.map(\.file) == Self.parts)
        let inAssets = try FileManager.default.contentsOfDirectory(
            atPath: PackagePaths.root.appendingPathComponent("Sources/napkin-inspect/Render/Report/Assets").path)
        #expect(Set(inAssets) == Set(Self.assets.map(\.name)), "a file of Assets/ the page does not use, or the other way round")
        for asset in Self.assets {
            let bytes = try Self.file(asset.name)
            #expect(bytes.count > 500, "\(asset.name)")
            #expect(Array(bytes) == asset.embedded, "\(asset.name): the binary holds other bytes than the file (rebuild?)")
            #expect(Array(asset.text.utf8) == Array(bytes), "\(asset.name): not valid UTF-8, or changed on the way")
        }
    }

    @Test("a page inlines each asset whole: the script's parts in order, in one element")
    func pageInlinesTheFiles() throws {
        let html = ReportPage.html([], sources: SourceRoot(directory: "/nonexistent"))
        func text(_ name: String) throws -> String { String(decoding: try Self.file(name), as: UTF8.self) }
        let parts = try Self.parts.map(text).joined()
        #expect(html.contains("<script>\n\"use strict\";\n(function () {\n" + parts + "})();\n</script>\n</body>\n</html>\n"))
        #expect(html.contains("<style>\n" + (try text("report.css")) + "</style>\n"))
        #expect(html.contains("<script>\n" + (try text("errors.js")) + "</script>\n</head>\n"))
        #expect(!html.contains(try text("live.js")), "the report runs no live part")

        // The live page: the same parts, then live.js, in the same function; the same style and error catcher.
        let livePage = LivePage.html(title: "a title")
        #expect(livePage.contains("<script>\n\"use strict\";\n(function () {\n" + parts + (try text("live.js")) + "})();\n</script>\n</body>\n</html>\n"))
        #expect(livePage.contains("<style>\n" + (try text("report.css")) + "</style>\n"))
        #expect(livePage.contains("<script>\n" + (try text("errors.js")) + "</script>\n</head>\n"))
    }

    @Test("no asset holds what would end or confuse its element (</script, </style, <!--) or fetch anything")
    func assetsStayInTheirElements() throws {
        for asset in Self.assets {
            let text = asset.text.lowercased()
            for pattern in ["</script", "</style", "<!--", "<script", " src=", " href=", "url(", "@import"] {
                #expect(!text.contains(pattern), "\(asset.name) holds \(pattern)")
            }
        }
    }
}
