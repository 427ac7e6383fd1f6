#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Parses the command line, runs the subcommand and exits with its status.
func runMain(_ arguments: [String]) -> Int32 {
    guard let first = arguments.first else {
        Output.write(Commands.overview + "\n")
        return ExitStatus.unusable
    }
    switch first {
    case "-h", "--help", "help":
        if arguments.count > 1, let spec = Commands.named(arguments[1]) {
            Output.write(spec.helpText)
        } else if arguments.count > 1 {
            let names = Commands.all.map(\.name).joined(separator: ", ")
            Output.error("no help for '\(arguments[1])': not a command; the commands are \(names) (see 'napkin-inspect --help')")
            return ExitStatus.unusable
        } else {
            Output.write(Commands.overview + "\n")
        }
        return ExitStatus.success
    case "--version", "version":
        Output.line("napkin-inspect \(Commands.version) (trace format v1)")
        return ExitStatus.success
    default:
        break
    }
    guard let spec = Commands.named(first) else {
        let names = Commands.all.map(\.name).joined(separator: ", ")
        Output.error("unknown command '\(first)'; the commands are \(names) (see 'napkin-inspect --help')")
        return ExitStatus.unusable
    }
    do {
        let parsed = try ArgumentParser.parse(Array(arguments.dropFirst()), spec: spec)
        if parsed.has("help") {
            Output.write(spec.helpText)
            return ExitStatus.success
        }
        let context = CommandContext(spec: spec, arguments: parsed)
        switch spec.name {
        case "live": return try LiveCommand.run(context)
        case "tree": return try TreeCommand.run(context)
        case "timeline": return try TimelineCommand.run(context)
        case "check": return try CheckCommand.run(context)
        case "mermaid": return try MermaidCommand.run(context)
        case "stats": return try StatsCommand.run(context)
        default: return ExitStatus.unusable
        }
    } catch let error as UsageError {
        Output.error(error.message)
        return ExitStatus.unusable
    } catch let error as CommandFailure {
        Output.error(error.message)
        return ExitStatus.unusable
    } catch {
        Output.error("\(error)")
        return ExitStatus.unusable
    }
}

exit(runMain(Array(CommandLine.arguments.dropFirst())))
