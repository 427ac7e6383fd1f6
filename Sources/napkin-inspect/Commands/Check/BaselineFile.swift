import Foundation

/// The baseline file (`check --baseline FILE`, `--write-baseline FILE`): a
/// JSON object, pretty-printed with sorted keys so that a change to it reads
/// well in a diff (docs/check-output.md):
///
///     {
///       "findings" : [
///         {
///           "count" : 2,
///           "fingerprint" : "3c5e8ab0d1f27e94",
///           "locations" : [ "RibHouse/LaunchNapkinRouter.swift:70 (detached)", ... ],
///           "rule" : "not-deallocated",
///           "type" : "LoggedInRouter"
///         }
///       ],
///       "kind" : "baseline",
///       "schema" : 1,
///       "tool" : "napkin-inspect"
///     }
///
/// Entries are sorted by fingerprint, one per fingerprint. Reading is strict
/// (a file that is not a baseline of this schema is an error, exit status
/// 2), writing is atomic (a temporary file in the same directory, renamed
/// over the old one) and never replaces a file that is not a baseline.
enum BaselineFile {
    /// The version of the layout this napkin-inspect reads and writes.
    static let schema = 1
    /// The value of `kind`, which tells a baseline from other napkin-inspect JSON.
    static let kind = "baseline"
    /// The largest baseline read, in bytes.
    static let maxBytes = 64 << 20

    /// The file's top level.
    private struct Contents: Codable {
        var tool = "napkin-inspect"
        var kind = BaselineFile.kind
        var schema = BaselineFile.schema
        var findings: [Baseline.Entry]
    }

    /// What says whether a file is a baseline, read leniently (a field of the wrong type is as if absent).
    private struct Header: Decodable {
        var tool: String?
        var kind: String?
        var schema: Int?

        private enum CodingKeys: String, CodingKey { case tool, kind, schema }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            tool = try? container.decodeIfPresent(String.self, forKey: .tool)
            kind = try? container.decodeIfPresent(String.self, forKey: .kind)
            schema = try? container.decodeIfPresent(Int.self, forKey: .schema)
        }

        /// Whether the file says it is a napkin-inspect baseline (of any schema).
        var isBaseline: Bool { tool == "napkin-inspect" && kind == BaselineFile.kind }
    }

    // MARK: - Reading

    /// The baseline in the file at `path` (`--baseline`); anything else is a
    /// one-line failure that names the file and the fix.
    static func read(_ path: String) throws(CommandFailure) -> Baseline {
        let fix = "write one with --write-baseline \(path)"
        let data = try contents(of: path, fix: fix)
        let header: Header
        do {
            header = try JSONDecoder().decode(Header.self, from: data)
        } catch DecodingError.dataCorrupted {
            throw CommandFailure("\(path): not a napkin baseline (not JSON); \(fix)")
        } catch {
            throw CommandFailure("\(path): not a napkin baseline (not a JSON object); \(fix)")
        }
        guard header.isBaseline else {
            throw CommandFailure("\(path): not a napkin baseline (it lacks \"tool\": \"napkin-inspect\" and \"kind\": \"baseline\"); \(fix)")
        }
        guard header.schema == schema else {
            let found = header.schema.map { "schema \($0)" } ?? "a baseline without a schema number"
            throw CommandFailure("\(path): \(found) is not supported (this napkin-inspect reads schema \(schema)); "
                                 + "write it again with --write-baseline \(path)")
        }
        let entries: [Baseline.Entry]
        do {
            entries = try JSONDecoder().decode(Contents.self, from: data).findings
        } catch let error as DecodingError {
            throw CommandFailure("\(path): a damaged baseline: \(describe(error)); write it again with --write-baseline \(path)")
        } catch {
            throw CommandFailure("\(path): a damaged baseline; write it again with --write-baseline \(path)")
        }
        for (index, entry) in entries.enumerated() {
            if let problem = problem(with: entry) {
                throw CommandFailure("\(path): a damaged baseline: findings[\(index)].\(problem); write it again with --write-baseline \(path)")
            }
        }
        return Baseline(entries: entries)
    }

    /// What is wrong with an entry the JSON decoded, if anything.
    private static func problem(with entry: Baseline.Entry) -> String? {
        let hex = entry.fingerprint.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
        if entry.fingerprint.utf8.count != 16 || !hex {
            return "fingerprint: '\(entry.fingerprint.prefix(40))' is not 16 lowercase hex digits"
        }
        if entry.count < 1 { return "count: \(entry.count) is not a number of findings (1 or more)" }
        return nil
    }

    /// `findings[3]: no "fingerprint"`: where the JSON did not have the baseline's shape.
    private static func describe(_ error: DecodingError) -> String {
        func place(_ path: [any CodingKey]) -> String {
            var text = ""
            for key in path {
                if let index = key.intValue { text += "[\(index)]" } else { text += (text.isEmpty ? "" : ".") + key.stringValue }
            }
            return text.isEmpty ? "the top level" : text
        }
        switch error {
        case .keyNotFound(let key, let context): return "\(place(context.codingPath)): no \"\(key.stringValue)\""
        case .typeMismatch(_, let context): return "\(place(context.codingPath)): a value of the wrong type"
        case .valueNotFound(_, let context): return "\(place(context.codingPath)): null"
        case .dataCorrupted(let context): return "\(place(context.codingPath)): an unreadable value"
        @unknown default: return "not the shape of a baseline"
        }
    }

    /// The bytes of the regular file at `path`, at most ``maxBytes`` of them.
    private static func contents(of path: String, fix: String) throws(CommandFailure) -> Data {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw CommandFailure("cannot read the baseline \(path): \(String(cString: strerror(errno))) (check the path, or \(fix))")
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            let what = info.st_mode & S_IFMT == S_IFDIR ? "a directory" : "not a regular file"
            throw CommandFailure("cannot read the baseline \(path): \(what) (give the baseline's file)")
        }
        guard info.st_size <= maxBytes else {
            throw CommandFailure("\(path): not a napkin baseline (larger than \(NumberFormat.bytes(maxBytes))); \(fix)")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandFailure("cannot read the baseline \(path) (check its permissions)")
        }
        return data
    }

    // MARK: - Writing

    /// Fails unless `--write-baseline PATH` may write there: a new file in an
    /// existing directory, or a file that is a napkin baseline already
    /// (nothing else is ever overwritten). Called before any work is done.
    static func ensureWritable(_ path: String) throws(CommandFailure) {
        try ReplaceableFile.ensureWritable(path, noun: "baseline") { _ in
            let isBaseline = (try? contents(of: path, fix: "")).flatMap { try? JSONDecoder().decode(Header.self, from: $0) }?.isBaseline
            return isBaseline == true
        }
    }

    /// Writes `baseline` to `path`, atomically.
    static func write(_ baseline: Baseline, to path: String) throws(CommandFailure) {
        try ReplaceableFile.writeAtomically(JSONOutput.text(Contents(findings: baseline.entries)), to: path, noun: "baseline")
    }
}
