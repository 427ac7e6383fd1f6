import Foundation

/// Where a report goes (`report -o FILE`, `check --report FILE`): standard
/// output for `-`, else a file written atomically, replacing only an
/// earlier napkin-inspect report (``ReportPage/generatorMark``).
enum ReportFile {
    /// Fails unless `path` may receive a report; called before any work.
    static func ensureWritable(_ path: String) throws(CommandFailure) {
        guard path != "-" else { return }
        try ReplaceableFile.ensureWritable(path, noun: "report") { head in
            head.isEmpty || String(decoding: head, as: UTF8.self).contains(ReportPage.generatorMark)
        }
    }

    /// Writes `html` to `path` (`-`: standard output).
    static func write(_ html: String, to path: String) throws(CommandFailure) {
        if path == "-" {
            Output.write(html)
        } else {
            try ReplaceableFile.writeAtomically(html, to: path, noun: "report")
        }
    }
}
