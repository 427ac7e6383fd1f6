import Foundation
import NapkinTrace
import Testing
@testable import napkin_inspect

/// Checks a `check --format sarif` log field by field: the properties SARIF
/// 2.1.0 requires, and what GitHub code scanning requires of an upload (its
/// "SARIF support for code scanning" page and its limits): `$schema` and
/// `version` 2.1.0, one run whose `tool.driver` has a name and rules, each
/// rule with an id, a short and a full description (at most 1,024
/// characters), help text and a level; at most 25,000 results, each with a
/// rule id among the rules, a level, a message, one to ten locations (an
/// upload with a result without one is rejected whole), each with an
/// artifact URI (relative to the repository, forward slashes, encoded) and a
/// start line. A related location may instead name a function alone
/// (SARIF 2.1.0 §3.28: no `physicalLocation`, a non-empty `logicalLocations`,
/// each with a `name`, a `fullyQualifiedName` ending in it and `kind`
/// `function`); no region anywhere starts at line 0.
enum SARIFValidation {
    /// The parsed log, its one run, and its results.
    struct Log {
        var object: [String: Any]
        var run: [String: Any]
        var rules: [[String: Any]]
        var results: [[String: Any]]
        var invocation: [String: Any]
    }

    /// The levels SARIF defines.
    static let levels: Set<String> = ["none", "note", "warning", "error"]

    /// Parses and checks `result`'s standard output; the invocation's exit code must be the status.
    static func check(_ result: CLIResult) throws -> Log {
        let log = try check(result.stdout)
        #expect(log.invocation["exitCode"] as? Int == Int(result.status), "\(result)")
        return log
    }

    /// Parses and checks `text`.
    static func check(_ text: String) throws -> Log {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "not a JSON object")
        #expect(object["$schema"] as? String == "https://json.schemastore.org/sarif-2.1.0.json")
        #expect(object["version"] as? String == "2.1.0")
        let runs = try #require(object["runs"] as? [[String: Any]])
        #expect(runs.count == 1)
        let run = try #require(runs.first)
        let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        #expect(driver["name"] as? String == "napkin-inspect")
        #expect(driver["version"] as? String == NapkinInspect.version)
        let rules = try #require(driver["rules"] as? [[String: Any]])
        let ids = rules.map { $0["id"] as? String ?? "" }
        #expect(ids == Finding.Rule.allCases.map(\.rawValue) + ["trace-integrity"], "one rule per finding rule, in registry order, then trace-integrity")
        for rule in rules { try checkRule(rule) }

        let baseIDs = try #require(run["originalUriBaseIds"] as? [String: [String: Any]])
        let root = try #require(baseIDs["%SRCROOT%"]?["uri"] as? String)
        #expect(root.hasPrefix("file:///") && root.hasSuffix("/"), "\(root)")

        let invocations = try #require(run["invocations"] as? [[String: Any]])
        #expect(invocations.count == 1)
        let invocation = try #require(invocations.first)
        #expect(invocation["executionSuccessful"] is Bool)
        for note in invocation["toolExecutionNotifications"] as? [[String: Any]] ?? [] {
            #expect(levels.contains(note["level"] as? String ?? ""))
            #expect(!messageText(note["message"]).isEmpty)
        }

        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.count <= 25_000, "GitHub rejects a run of more than 25,000 results")
        for result in results { try checkResult(result, rules: rules, baseIDs: Set(baseIDs.keys)) }
        return Log(object: object, run: run, rules: rules, results: results, invocation: invocation)
    }

    /// One `reportingDescriptor`.
    static func checkRule(_ rule: [String: Any]) throws {
        let id = try #require(rule["id"] as? String)
        let name = try #require(rule["name"] as? String)
        #expect(!name.isEmpty && name.count <= 255 && !name.contains(" "), "\(id): name \(name)")
        for key in ["shortDescription", "fullDescription"] {
            let text = try #require((rule[key] as? [String: Any])?["text"] as? String, "\(id): no \(key).text")
            #expect(!text.isEmpty && text.count <= 1_024, "\(id): \(key)")
        }
        let help = try #require(rule["help"] as? [String: Any])
        #expect(!(help["text"] as? String ?? "").isEmpty, "\(id): help.text is required")
        #expect(!(help["markdown"] as? String ?? "").isEmpty, "\(id): help.markdown")
        let level = try #require((rule["defaultConfiguration"] as? [String: Any])?["level"] as? String)
        let expected = Finding.Rule(rawValue: id)?.severity.rawValue ?? "error"
        #expect(level == expected, "\(id)")
        let properties = try #require(rule["properties"] as? [String: Any])
        #expect((properties["tags"] as? [String])?.count ?? 99 <= 20, "\(id): at most 20 tags")
        #expect(properties["problem.severity"] as? String == expected)
    }

    /// One `result`.
    static func checkResult(_ result: [String: Any], rules: [[String: Any]], baseIDs: Set<String>) throws {
        let ruleID = try #require(result["ruleId"] as? String)
        let index = try #require(result["ruleIndex"] as? Int)
        #expect(rules.indices.contains(index) && rules[index]["id"] as? String == ruleID, "\(ruleID): ruleIndex \(index)")
        let level = try #require(result["level"] as? String)
        #expect(levels.contains(level))
        #expect(level == (Finding.Rule(rawValue: ruleID)?.severity.rawValue ?? "error"), "\(ruleID): level \(level)")
        let message = try #require((result["message"] as? [String: Any])?["text"] as? String)
        #expect(!message.isEmpty && !message.contains("\n"))
        let locations = try #require(result["locations"] as? [[String: Any]], "\(ruleID): no locations")
        #expect((1...10).contains(locations.count), "\(ruleID): \(locations.count) locations")
        for location in locations { try checkLocation(location, baseIDs: baseIDs) }
        let related = result["relatedLocations"] as? [[String: Any]] ?? []
        for location in related {
            try checkLocation(location, baseIDs: baseIDs, logicalAllowed: true)
            #expect(location["id"] is Int)
            let role = (location["message"] as? [String: Any])?["text"] as? String ?? ""
            #expect(Finding.CodeReference.Role(rawValue: role) != nil, "a related location names its role: \(role)")
        }
        #expect(Set(related.compactMap { $0["id"] as? Int }).count == related.count, "related location ids are unique")
        if ruleID != "trace-integrity" {
            let fingerprint = try #require((result["partialFingerprints"] as? [String: String])?["napkinFindingHash/v1"])
            #expect(fingerprint.count == 16 && fingerprint.allSatisfy(\.isHexDigit) && fingerprint == fingerprint.lowercased())
        }
    }

    /// One `location`: a physical location with an encoded URI and a start
    /// line; with `logicalAllowed` (a related location), or a function alone.
    static func checkLocation(_ location: [String: Any], baseIDs: Set<String>, logicalAllowed: Bool = false) throws {
        if let logical = location["logicalLocations"] {
            let functions = try #require(logical as? [[String: Any]], "logicalLocations is an array of objects")
            #expect(!functions.isEmpty)
            for function in functions {
                let name = try #require(function["name"] as? String)
                let qualified = try #require(function["fullyQualifiedName"] as? String)
                #expect(!name.isEmpty && qualified.hasSuffix(name), "\(function)")
                #expect(function["kind"] as? String == "function")
            }
            if location["physicalLocation"] == nil {
                #expect(logicalAllowed, "a result's primary location needs a file and line: \(location)")
                return
            }
        }
        let physical = try #require(location["physicalLocation"] as? [String: Any])
        let artifact = try #require(physical["artifactLocation"] as? [String: Any])
        let uri = try #require(artifact["uri"] as? String)
        #expect(!uri.isEmpty)
        #expect(!uri.contains("\\") && !uri.contains(" ") && !uri.contains("#") && !uri.contains("?"), "an encoded URI: \(uri)")
        #expect(uri.unicodeScalars.allSatisfy { $0.isASCII && $0.value > 0x20 && $0.value < 0x7F }, "\(uri)")
        if let base = artifact["uriBaseId"] as? String {
            #expect(baseIDs.contains(base))
            #expect(!uri.hasPrefix("/") && !uri.contains("://"), "relative to its base: \(uri)")
        } else {
            #expect(uri.hasPrefix("file:///"), "without a base, an absolute file URI: \(uri)")
        }
        let line = try #require((physical["region"] as? [String: Any])?["startLine"] as? Int)
        #expect(line >= 1)
    }

    /// `result`'s first location: its URI and start line.
    static func place(_ result: [String: Any]) -> (uri: String, line: Int)? {
        place(of: (result["locations"] as? [[String: Any]])?.first)
    }

    /// A location's URI and start line.
    static func place(of location: [String: Any]?) -> (uri: String, line: Int)? {
        guard let physical = location?["physicalLocation"] as? [String: Any],
              let uri = (physical["artifactLocation"] as? [String: Any])?["uri"] as? String,
              let line = (physical["region"] as? [String: Any])?["startLine"] as? Int else { return nil }
        return (uri, line)
    }

    /// The `text` of a message object, or "".
    static func messageText(_ message: Any?) -> String {
        guard let object = message as? [String: Any], let text = object["text"] as? String else { return "" }
        return text
    }

    /// `result`'s fingerprint.
    static func fingerprint(_ result: [String: Any]) -> String? {
        (result["partialFingerprints"] as? [String: String])?["napkinFindingHash/v1"]
    }
}
