import NapkinTrace

/// Which routers a timeline or Gantt chart shows (`--node NAME`), and which
/// the live inspector's filter keeps (`/NAME`): a type name containing NAME,
/// ignoring case, or the router or interactor with id NAME.
struct NodeFilter: Sendable, Equatable {
    /// The text given to `--node`.
    var name: String

    /// Whether the filter keeps `life`.
    func matches(_ life: TraceHistory.NodeLife) -> Bool {
        matches(type: life.type, id: life.id, interactor: life.interactor)
    }

    /// Whether the filter keeps the router (or lone interactor) `id` of type
    /// `type`, whose interactor is `interactor`.
    func matches(type: String, id: NodeID, interactor: NodeID?) -> Bool {
        if let wanted = NodeID(name) { return id == wanted || interactor == wanted }
        return type.lowercased().contains(name.lowercased())
    }

    /// The filter for `--node NAME`, checked against the trace: a name nothing
    /// matches is an error that lists some of the router types there are.
    init(name: String, checkedAgainst history: TraceHistory) throws(CommandFailure) {
        self.init(name: name)
        if history.nodes.contains(where: matches) { return }
        var types: [String] = []
        for life in history.nodes where life.kind == .router && !types.contains(life.type) { types.append(life.type) }
        let known: String
        if types.isEmpty {
            known = "the trace has no routers"
        } else {
            let shown = types.prefix(6).joined(separator: ", ")
            known = "router types in this trace: \(shown)\(types.count > 6 ? ", ... (\(types.count) in all)" : "")"
        }
        throw CommandFailure("--node '\(name)' matches no router or interactor (by type name or id); \(known)")
    }

    /// A filter for `--node NAME`, unchecked.
    init(name: String) {
        self.name = name
    }
}
