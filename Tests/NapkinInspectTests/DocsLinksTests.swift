import Foundation
import Testing
import TestSupport

/// Every relative link of README.md and of the pages of docs/ leads
/// somewhere: the file or folder exists in the repository, and a `#anchor`
/// names a heading of the Markdown page it points at (as GitHub spells
/// heading anchors). Links to other sites are not followed.
@Suite("documentation links")
struct DocsLinksTests {
    struct Link: CustomStringConvertible, Sendable {
        var file: String
        var line: Int
        var target: String
        var description: String { "\(file):\(line): (\(target))" }
    }

    // MARK: - Reading links and headings

    /// The anchor GitHub gives a heading: lower case, links reduced to their
    /// text, every character but letters, digits, `_`, `-` and spaces left
    /// out, each space a `-`.
    static func anchor(of heading: String) -> String {
        var text = heading
        while let range = text.range(of: #"\[([^\]]*)\]\([^)]*\)"#, options: .regularExpression) {
            let link = text[range]
            text.replaceSubrange(range, with: link.dropFirst().prefix { $0 != "]" })
        }
        var anchor = ""
        for character in text.lowercased() {
            if character == " " { anchor.append("-") }
            else if character.isLetter || character.isNumber || character == "_" || character == "-" { anchor.append(character) }
        }
        return anchor
    }

    /// The anchors of a page's headings (outside code blocks); a repeated one
    /// gets `-1`, `-2`... as on GitHub.
    static func anchors(in markdown: String) -> Set<String> {
        var seen: [String: Int] = [:]
        var anchors: Set<String> = []
        for line in MarkdownDocuments.lines(markdown) where line.kind == .prose {
            let hashes = line.text.prefix { $0 == "#" }.count
            guard (1...6).contains(hashes), line.text.dropFirst(hashes).first == " " else { continue }
            var title = line.text.dropFirst(hashes).trimmingCharacters(in: .whitespaces)
            while title.hasSuffix("#") { title.removeLast() }
            let base = anchor(of: title.trimmingCharacters(in: .whitespaces))
            let count = seen[base, default: 0]
            seen[base] = count + 1
            anchors.insert(count == 0 ? base : "\(base)-\(count)")
        }
        return anchors
    }

    /// The targets of the inline links and images of a page (`[text](target)`,
    /// `![alt](target)`), outside code blocks and code spans.
    static func links(in markdown: String, file: String) -> [Link] {
        var links: [Link] = []
        for line in MarkdownDocuments.lines(markdown) where line.kind == .prose {
            let characters = Array(line.text)
            var index = 0
            while index < characters.count {
                if characters[index] == "`" {
                    // A code span: skip to the closing run of as many backticks (none: the run is text).
                    let run = characters[index...].prefix { $0 == "`" }.count
                    var end = index + run
                    var closed = false
                    while end < characters.count {
                        let next = characters[end...].prefix { $0 == "`" }.count
                        if next == run { closed = true; break }
                        end += max(next, 1)
                    }
                    index = closed ? end + run : index + run
                    continue
                }
                if characters[index] == "]", index + 1 < characters.count, characters[index + 1] == "(" {
                    var end = index + 2
                    var depth = 0
                    while end < characters.count, depth > 0 || characters[end] != ")" {
                        if characters[end] == "(" { depth += 1 }
                        if characters[end] == ")" { depth -= 1 }
                        end += 1
                    }
                    var target = String(characters[(index + 2)..<min(end, characters.count)]).trimmingCharacters(in: .whitespaces)
                    if let title = target.range(of: #"\s+"[^"]*"$"#, options: .regularExpression) { target.removeSubrange(title) }
                    if target.hasPrefix("<"), target.hasSuffix(">") { target = String(target.dropFirst().dropLast()) }
                    links.append(Link(file: file, line: line.number, target: target))
                    index = end + 1
                    continue
                }
                index += 1
            }
        }
        return links
    }

    // MARK: - Resolving them

    /// Why `link` leads nowhere, or nil when it resolves (or leaves the repository for a site).
    static func problem(with link: Link, root: URL) -> String? {
        let target = link.target
        if target.isEmpty { return "an empty link" }
        if target.range(of: #"^[A-Za-z][A-Za-z0-9+.-]*:"#, options: .regularExpression) != nil { return nil }
        let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let path = String(parts[0]).removingPercentEncoding ?? String(parts[0])
        let fragment = parts.count > 1 ? (String(parts[1]).removingPercentEncoding ?? String(parts[1])) : nil
        let page = root.appendingPathComponent(link.file).standardizedFileURL
        let destination = path.isEmpty ? page : page.deletingLastPathComponent().appendingPathComponent(path).standardizedFileURL
        let rootPath = root.standardizedFileURL.path
        guard destination.path == rootPath || destination.path.hasPrefix(rootPath + "/") else { return "leads out of the repository" }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: destination.path, isDirectory: &isDirectory) else {
            return "no such file: \(destination.path.dropFirst(rootPath.count + 1))"
        }
        guard let fragment else { return nil }
        guard !isDirectory.boolValue, destination.pathExtension == "md",
              let markdown = try? String(contentsOf: destination, encoding: .utf8) else {
            return "an anchor in a file that is not a Markdown page"
        }
        return anchors(in: markdown).contains(fragment) ? nil : "no heading #\(fragment) in \(destination.lastPathComponent)"
    }

    // MARK: - Tests

    @Test("GitHub's heading anchors", arguments: [
        ("6.1 Where a napkin's view is", "61-where-a-napkins-view-is"),
        ("`undetached-child`", "undetached-child"),
        ("`hook_end`: a lifecycle hook returned", "hook_end-a-lifecycle-hook-returned"),
        ("Parts: a trace over a socket", "parts-a-trace-over-a-socket"),
        ("`--format markdown`", "--format-markdown"),
        ("7. Tracing: which trace an object reports to", "7-tracing-which-trace-an-object-reports-to"),
        ("See [the format](trace-format.md) — here", "see-the-format--here"),
    ])
    func headingAnchors(_ heading: String, _ expected: String) {
        #expect(Self.anchor(of: heading) == expected)
    }

    @Test("a broken file, a missing heading, a link out of the repository and an anchor in a file that is no page are found; code is not read")
    func findsBrokenLinks() throws {
        let scratch = try ScratchDirectory("links")
        try FileManager.default.createDirectory(at: scratch.url.appendingPathComponent("docs"), withIntermediateDirectories: true)
        try scratch.write("README.md", "# Top\n\n## Usage\n\n## Usage\n\nsee [data](data.txt)\n")
        try scratch.write("data.txt", "")
        try scratch.write("docs/page.md", """
        # Page

        ```sh
        # not a heading; [not a link](nowhere.md)
        ```

        [ok](../README.md#usage-1) [ok](#page) [ok](../docs) ![ok](../data.txt) [site](https://example.com/x#y)
        [`code` text](../README.md#usage) and `[code](nowhere.md)`
        [gone](missing.md) [no heading](../README.md#install) [out](../../elsewhere.md)
        [fragment](../data.txt#L1) [self](#not-a-heading)
        """)
        let page = try String(contentsOf: scratch.url.appendingPathComponent("docs/page.md"), encoding: .utf8)
        let links = Self.links(in: page, file: "docs/page.md")
        #expect(links.map(\.target) == ["../README.md#usage-1", "#page", "../docs", "../data.txt", "https://example.com/x#y",
                                        "../README.md#usage", "missing.md", "../README.md#install", "../../elsewhere.md",
                                        "../data.txt#L1", "#not-a-heading"])
        let problems = links.map { Self.problem(with: $0, root: scratch.url) }
        #expect(problems.prefix(6).allSatisfy { $0 == nil }, "\(problems)")
        #expect(problems.dropFirst(6).map { $0 ?? "" } == [
            "no such file: docs/missing.md", "no heading #install in README.md", "leads out of the repository",
            "an anchor in a file that is not a Markdown page", "no heading #not-a-heading in page.md",
        ])
        #expect(Self.anchors(in: page) == ["page"])
    }

    @Test("every relative link and anchor of README.md and docs/*.md resolves")
    func everyLinkResolves() throws {
        var broken: [String] = []
        var count = 0
        for file in try MarkdownDocuments.paths() {
            for link in Self.links(in: try String.repoFile(file), file: file) {
                count += 1
                if let problem = Self.problem(with: link, root: PackagePaths.root) { broken.append("\(link): \(problem)") }
            }
        }
        #expect(count > 50, "only \(count) links found: is the reader still reading them?")
        #expect(broken.isEmpty, "broken links:\n\(broken.joined(separator: "\n"))")
    }
}
