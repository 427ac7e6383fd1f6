import NapkinTrace

enum MermaidRenderer {
    static func flowchart(_ state: TraceState, findings: [Finding]) -> String { "flowchart TD\n" }
}
