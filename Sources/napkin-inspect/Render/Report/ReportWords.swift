import NapkinTrace

/// The words the report's tree says of a node at the slider's moment: its
/// state, where its view is, the noun after its count of running tasks. The
/// script works out which applies at a moment (that depends on the slider);
/// the words are ``NodeStatus``'s, the ones `napkin-inspect tree` prints,
/// written once into `report-meta` (``ReportSchema/Words``).
enum ReportWords {
    /// The states the tree tells apart, by key (also the row's CSS class):
    /// ``NodeStatus/State``'s, then the report's own `created` (a router never
    /// attached yet) and `interactor` (a lone interactor's row).
    static let states: [(key: String, word: String)] =
        NodeStatus.State.allCases.map { ($0.rawValue, $0.rawValue) } + [("created", "created"), ("interactor", "interactor")]

    /// Where a view is, by key (the CSS class is `view-KEY`).
    static let views: [(key: String, word: String)] = [
        ("shown", NodeStatus.words(for: .shown)),
        ("covered", NodeStatus.words(for: .covered)),
        ("gone", NodeStatus.words(for: .removed)),
    ]

    /// Writes the `words` object.
    static func write(into out: inout ReportJSON) {
        typealias Field = ReportSchema.Words
        out.openObject()
        out.key(Field.states)
        out.openObject()
        for (key, word) in states { out.member(key, word) }
        out.closeObject()
        out.key(Field.views)
        out.openObject()
        for (key, word) in views { out.member(key, word) }
        out.closeObject()
        out.member(Field.task, NodeStatus.taskNoun(count: 1))
        out.member(Field.tasks, NodeStatus.taskNoun(count: 2))
        out.closeObject()
    }
}
