/// The one way a retainer search's result enters a trace: a `retained`
/// record about the router or interactor searched for (see ``Retainers``
/// and `docs/trace-format.md`, "`retained`").
extension Tracer {
    /// Writes a `retained` record: what a retainer search found holding
    /// router or interactor `id`, alive past its grace period. The search
    /// runs first, where the object lives; a reader joins the record to
    /// every finding about `id` (`TraceAnalyzer`), whether it comes before
    /// or after the finding.
    package func recordRetainers(_ retainers: Retainers, of id: NodeID) {
        emit(.retained(id: id, retainers: retainers))
    }
}
