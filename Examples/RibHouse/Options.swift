/// The command line, parsed by hand (the package has no dependencies).
struct Options: Sendable, Equatable {
    /// Time multiplier: 10 runs ten times faster.
    var speed: Double = 1
    /// How many times the scripted session runs; 0 means forever.
    var loops: Int = 1
    /// The one bug to inject, if any.
    var bug: Bug?
    /// Do not print screen lines.
    var quiet = false
    /// Run the in-app detector (`NapkinDetector`, log mode): findings are
    /// printed on standard error while the app runs.
    var detect = false
}

/// What the command line asks for.
enum Command: Equatable {
    case run(Options)
    case help
    case listBugs
}

/// A command line we cannot run, with a one-line message naming the fix.
struct UsageError: Error, Equatable {
    let message: String
}

extension Options {
    /// Parses the arguments (without the program name).
    ///
    /// Accepts `--name value` and `--name=value`. `--help` and `--list-bugs`
    /// win over everything else that parses.
    static func parse(_ arguments: [String]) throws(UsageError) -> Command {
        var options = Options()
        var wantsHelp = false
        var wantsBugList = false
        var rest = arguments[...]

        while let argument = rest.popFirst() {
            guard argument.hasPrefix("-"), argument != "-" else {
                throw UsageError(message: "rib-house: unexpected argument '\(argument)'; options start with --, see 'rib-house --help'")
            }
            let (name, attached) = split(argument)

            /// The option's value: attached with `=` or the next argument.
            func value(example: String) throws(UsageError) -> String {
                if let attached { return attached }
                guard let next = rest.popFirst(), !next.hasPrefix("--") else {
                    throw UsageError(message: "rib-house: \(name) needs a value, e.g. \(name) \(example)")
                }
                return next
            }
            func noValue() throws(UsageError) {
                if attached != nil {
                    throw UsageError(message: "rib-house: \(name) takes no value; write just \(name)")
                }
            }

            switch name {
            case "--speed":
                let text = try value(example: "10")
                guard let speed = Double(text), speed.isFinite, speed > 0 else {
                    throw UsageError(message: "rib-house: --speed '\(text)' is not a positive number; e.g. --speed 10 runs ten times faster")
                }
                options.speed = speed
            case "--loop":
                let text = try value(example: "3")
                guard let loops = Int(text), loops >= 0 else {
                    throw UsageError(message: "rib-house: --loop '\(text)' is not a whole number ≥ 0; e.g. --loop 3, or --loop 0 to run forever")
                }
                options.loops = loops
            case "--bug":
                let text = try value(example: Bug.allCases[0].rawValue)
                guard let bug = Bug(rawValue: text) else {
                    throw UsageError(message: "rib-house: unknown bug '\(text)'; run 'rib-house --list-bugs' to see the bugs")
                }
                options.bug = bug
            case "--detect":
                try noValue()
                options.detect = true
            case "--quiet", "-q":
                try noValue()
                options.quiet = true
            case "--list-bugs":
                try noValue()
                wantsBugList = true
            case "--help", "-h":
                try noValue()
                wantsHelp = true
            default:
                throw UsageError(message: "rib-house: unknown option '\(name)'; run 'rib-house --help' for the options")
            }
        }
        if wantsHelp { return .help }
        if wantsBugList { return .listBugs }
        return .run(options)
    }

    /// `--name=value` → (`--name`, `value`); anything else → (argument, nil).
    private static func split(_ argument: String) -> (String, String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    /// The `--help` text.
    static let usage = """
        rib-house: Napkin's Rib House, a small napkin app that plays a scripted
        visit (log in, browse the menu, order, watch the pit, log out, twice)
        and records every lifecycle transition when NAPKIN_TRACE is set.

        USAGE: rib-house [--speed X] [--loop N] [--bug NAME] [--detect] [--quiet]
               rib-house --list-bugs
               rib-house --help

        OPTIONS:
          --speed X      time multiplier (default 1: a run takes about 3.6 s;
                         10 = ten times faster, 0.5 = half speed)
          --loop N       play the session N times (default 1; 0 = forever,
                         for napkin-inspect live)
          --bug NAME     inject one lifecycle bug; see --list-bugs
          --list-bugs    list the bugs and the finding each one produces
          --detect       find lifecycle bugs inside the app while it runs and
                         print each on standard error (NapkinDetector, log
                         mode; the same as NAPKIN_DETECT=log)
          -q, --quiet    do not print the [screen] lines
          -h, --help     show this help

        TRACE: NAPKIN_TRACE=stdout | stderr | fd:N | PATH | DIR/ | tcp:HOST:PORT | unix:PATH
          With NAPKIN_TRACE=stdout the [screen] lines go to standard error.
        DETECT: NAPKIN_DETECT=log | assert | off (--detect is log)
        OTLP: OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318 sends the visit to an
          OpenTelemetry collector (spans, findings as log records, metrics).

        EXAMPLES:
          rib-house
          NAPKIN_TRACE=/tmp/rh.ndjson rib-house --speed 10 --quiet
          rib-house --detect --bug retain-cycle
          NAPKIN_TRACE=/tmp/leak.ndjson rib-house --speed 10 --bug retain-cycle
          NAPKIN_TRACE=tcp:127.0.0.1:7700 rib-house --loop 3   (napkin-inspect live --listen 7700)
          napkin-inspect check --grace 100ms -- rib-house --speed 10 --bug ignore-cancel
          napkin-inspect live -- rib-house --loop 0 --quiet
        """
}
