extension CommandConfiguration {
    /// The full `--help` text: summary, usage, details, options (with `-h,
    /// --help` last) and examples.
    var helpText: String {
        var out = "\(summary)\n\nUsage:\n"
        for line in usage { out += "  napkin-inspect \(line)\n" }
        if !details.isEmpty { out += "\n\(details)\n" }
        out += "\nOptions:\n"
        var rows = options.map { option -> (label: String, help: String) in
            ((option.short.map { "    -\($0), --" } ?? "    --") + option.name + (option.valueName.map { " \($0)" } ?? ""), option.help)
        }
        rows.append(("-h, --help", "Show this help."))
        let width = min(34, (rows.map(\.label.count).max() ?? 0) + 2)
        for row in rows {
            let padded = row.label.count < width ? row.label.padded(to: width) : row.label + "  "
            out += "  \(padded)\(row.help)\n"
        }
        if !examples.isEmpty {
            out += "\nExamples:\n"
            for example in examples { out += "  \(example)\n" }
        }
        return out
    }
}
