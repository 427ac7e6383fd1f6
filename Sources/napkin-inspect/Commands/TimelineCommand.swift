import NapkinTrace

enum TimelineCommand {
    static func run(_ context: CommandContext) throws -> Int32 {
        Output.error("timeline: not implemented yet")
        return ExitStatus.unusable
    }
}
