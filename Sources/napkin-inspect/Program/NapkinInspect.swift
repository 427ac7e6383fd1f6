/// The program: reads the first word (a command, `help`, `--version`), then
/// parses the rest for that command and runs it.
enum NapkinInspect {
    /// The tool's version.
    static let version = "0.1.0"

    /// Runs the command line `arguments` (without the program name); returns the exit status.
    static func main(_ arguments: [String]) -> Int32 {
        guard let first = arguments.first else {
            Output.write(Overview.text + "\n")
            return ExitStatus.unusable
        }
        switch first {
        case "-h", "--help", "help":
            guard arguments.count > 1 else {
                Output.write(Overview.text + "\n")
                return ExitStatus.success
            }
            guard let command = CommandRegistry.named(arguments[1]) else {
                Output.error("no help for '\(arguments[1])': not a command; the commands are \(CommandRegistry.names) (see 'napkin-inspect --help')")
                return ExitStatus.unusable
            }
            Output.write(command.configuration.helpText)
            return ExitStatus.success
        case "--version", "version":
            Output.line("napkin-inspect \(version) (trace format v1)")
            return ExitStatus.success
        default:
            guard let command = CommandRegistry.named(first) else {
                Output.error("unknown command '\(first)'; the commands are \(CommandRegistry.names) (see 'napkin-inspect --help')")
                return ExitStatus.unusable
            }
            return run(command, Array(arguments.dropFirst()))
        }
    }

    /// Parses `arguments` for `command` and runs it; a usage error or a failure
    /// is one line on standard error and exit status 2.
    static func run(_ command: any Command.Type, _ arguments: [String]) -> Int32 {
        do {
            let parsed = try ArgumentParser.parse(arguments, for: command.configuration)
            if parsed.wantsHelp {
                Output.write(command.configuration.helpText)
                return ExitStatus.success
            }
            return try command.init(parsing: parsed).run()
        } catch let error as UsageError {
            Output.error(error.message)
        } catch let error as CommandFailure {
            Output.error(error.message)
        } catch {
            Output.error("\(error)")
        }
        return ExitStatus.unusable
    }
}
