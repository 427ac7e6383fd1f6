/// Every subcommand of `napkin-inspect`, with its help.
enum Commands {
    static let version = "0.1.0"

    static let all: [CommandSpec] = [live, tree, timeline, check, mermaid, stats]

    static func named(_ name: String) -> CommandSpec? { all.first { $0.name == name } }

    static let overview = """
    napkin-inspect: see the lifecycle of a napkin app's tree from its trace.

    Usage: napkin-inspect <command> [options]

    Commands:
      live       Show the live tree of a running app (or of a trace being written).
      tree       Print the tree at the end of a trace, or at any moment of it.
      timeline   Chart each router's lifecycle over time.
      check      Find lifecycle bugs (leaks, orphaned tasks); exit 1 when there are any.
      mermaid    Print the tree, timelines or attach/detach sequence as a Mermaid diagram.
      stats      Count events, rates, dropped events and whether the trace ended cleanly.

    Options:
      -h, --help     Show help (also: napkin-inspect <command> --help).
      --version      Print the version.

    Record a trace by running any app that uses Napkin with NAPKIN_TRACE set:
      NAPKIN_TRACE=run.ndjson .build/debug/rib-house
      napkin-inspect check run.ndjson

    Exit status: 0 success / no findings, 1 findings, 2 usage error or unusable input.
    """

    static let live = CommandSpec(
        name: "live", summary: "Show the live tree of a running napkin app, redrawn in place like top.",
        usage: ["live [FILE|-] [options]", "live [options] -- COMMAND [ARGS...]"],
        positionals: 0...1,
        options: [
            CommandSpec.Option(name: "no-follow", short: nil, valueName: nil, help: "Read FILE to its end and stop, instead of waiting for more."),
            CommonOptions.grace, CommonOptions.color, CommonOptions.noColor,
        ],
        acceptsCommand: true,
        details: """
        Reads a trace from FILE (following it as it grows, like tail -F), from standard input (- or no FILE),
        or runs COMMAND with tracing switched on (NAPKIN_TRACE=fd:3) and reads its trace through a pipe.
        On a terminal the tree is redrawn at most 20 times a second; press q or Ctrl-C to quit.
        Elsewhere (a pipe, a file, CI) it prints the final tree and findings when the input ends.
        With COMMAND, the exit status is the command's; otherwise 0 (2 for unusable input).
        """,
        examples: [
            "napkin-inspect live -- .build/debug/rib-house --loop 3",
            "NAPKIN_TRACE=stdout ./MyServer | napkin-inspect live",
            "napkin-inspect live /tmp/app.ndjson",
        ])

    static let tree = CommandSpec(
        name: "tree", summary: "Print the tree of a trace at its end, or at any moment (time travel).",
        usage: ["tree FILE [--at SEQ|TIME] [options]"],
        positionals: 1...1,
        options: [
            CommandSpec.Option(name: "at", short: nil, valueName: "SEQ|TIME",
                               help: "Show the tree just after event SEQ (e.g. 120) or at a time since the start (e.g. 1.5s, 800ms)."),
            CommandSpec.Option(name: "format", short: nil, valueName: "FORMAT", help: "text (default) or mermaid.", choices: ["text", "mermaid"]),
            CommonOptions.grace, CommonOptions.color, CommonOptions.noColor,
        ],
        details: "Each router is shown under its parent with its state (active, inactive, detached), age,\nrunning tasks, and a mark for every finding about it established by then.",
        examples: ["napkin-inspect tree Examples/traces/clean.ndjson", "napkin-inspect tree run.ndjson --at 2.5s"])

    static let timeline = CommandSpec(
        name: "timeline", summary: "Chart each router's lifecycle over time: attached, active, deallocated, tasks.",
        usage: ["timeline FILE [--node NAME] [options]"],
        positionals: 1...1,
        options: [
            CommandSpec.Option(name: "node", short: nil, valueName: "NAME",
                               help: "Only routers whose type contains NAME, or the node with id NAME (e.g. PitBoard, 14)."),
            CommandSpec.Option(name: "width", short: nil, valueName: "COLUMNS", help: "Width of the chart (default: the terminal's, or 100)."),
            CommandSpec.Option(name: "format", short: nil, valueName: "FORMAT", help: "text (default) or mermaid (a Gantt chart).", choices: ["text", "mermaid"]),
            CommonOptions.color, CommonOptions.noColor,
        ],
        examples: ["napkin-inspect timeline Examples/traces/clean.ndjson", "napkin-inspect timeline run.ndjson --node PitBoard"])

    static let check = CommandSpec(
        name: "check", summary: "Find lifecycle bugs in a trace; exit 1 when there are any (a CI gate).",
        usage: ["check FILE|DIR... [options]", "check [options] -- COMMAND [ARGS...]"],
        positionals: 0...64,
        options: [
            CommandSpec.Option(name: "format", short: nil, valueName: "FORMAT",
                               help: "text (default), json, junit (JUnit XML) or github (Actions annotations).",
                               choices: ["text", "json", "junit", "github"]),
            CommonOptions.grace, CommonOptions.expectTeardown,
            CommandSpec.Option(name: "allow", short: nil, valueName: "FILE", help: "Allow-list of known findings to ignore (see docs/findings.md)."),
            CommandSpec.Option(name: "fail-on", short: nil, valueName: "LEVEL",
                               help: "Exit 1 on any finding (warning, the default) or only on errors (error).",
                               choices: ["warning", "error"]),
            CommandSpec.Option(name: "trace-dir", short: nil, valueName: "DIR",
                               help: "With COMMAND: write its traces into DIR (kept) instead of a temporary directory."),
            CommonOptions.color, CommonOptions.noColor,
        ],
        acceptsCommand: true,
        details: """
        Analyses each trace (a DIR means every .ndjson file in it) and prints the findings.
        With COMMAND (e.g. -- swift test), runs it with NAPKIN_TRACE pointing at a directory, so that
        every process it starts writes its own trace, then checks them all.
        Exit status: 0 no findings, 1 findings, 2 usage error or unusable input;
        with COMMAND, a command that fails passes its own exit status on.
        """,
        examples: [
            "napkin-inspect check Examples/traces/bug-retain-cycle.ndjson",
            "napkin-inspect check --expect-teardown -- swift test",
            "napkin-inspect check run.ndjson --format junit > napkin-report.xml",
        ])

    static let mermaid = CommandSpec(
        name: "mermaid", summary: "Print a Mermaid diagram of a trace: the tree, lifecycles, or attach/detach sequence.",
        usage: ["mermaid FILE [--view tree|timeline|sequence] [options]"],
        positionals: 1...1,
        options: [
            CommandSpec.Option(name: "view", short: nil, valueName: "VIEW",
                               help: "tree (a flowchart, findings styled; default), timeline (a Gantt chart) or sequence.",
                               choices: ["tree", "timeline", "sequence"]),
            CommandSpec.Option(name: "at", short: nil, valueName: "SEQ|TIME", help: "For the tree view: the moment to show."),
            CommandSpec.Option(name: "markdown", short: nil, valueName: nil, help: "Wrap the diagram in a ```mermaid block for a Markdown file."),
            CommonOptions.grace,
        ],
        examples: [
            "napkin-inspect mermaid Examples/traces/bug-service-keeps-child.ndjson --markdown >> report.md",
            "napkin-inspect mermaid run.ndjson --view sequence",
        ])

    static let stats = CommandSpec(
        name: "stats", summary: "Count a trace's events: kinds, rates, nodes, tasks, dropped events, completeness.",
        usage: ["stats FILE [options]"],
        positionals: 1...1,
        options: [
            CommandSpec.Option(name: "format", short: nil, valueName: "FORMAT", help: "text (default) or json.", choices: ["text", "json"]),
            CommonOptions.color, CommonOptions.noColor,
        ],
        examples: ["napkin-inspect stats Examples/traces/clean.ndjson"])
}
