import NapkinTrace

enum MermaidCommand {
    static func run(_ context: CommandContext) throws -> Int32 {
        Output.error("mermaid: not implemented yet")
        return ExitStatus.unusable
    }
}
