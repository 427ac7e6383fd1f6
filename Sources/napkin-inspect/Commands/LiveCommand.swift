import NapkinTrace

enum LiveCommand {
    static func run(_ context: CommandContext) throws -> Int32 {
        Output.error("live: not implemented yet")
        return ExitStatus.unusable
    }
}
