extension TraceState {
    /// A problem with the app's use of the lifecycle, found while folding.
    public struct Misuse: Sendable, Hashable {
        /// Which kind of misuse.
        public enum Kind: Sendable, Hashable {
            /// A router attached while already attached.
            case doubleAttach
            /// A router attached under itself or one of its own descendants (the link is ignored).
            case attachUnderDescendant
            /// A detach of a router that is not a child of that parent.
            case detachNonChild
            /// An event about a node after its deinit.
            case eventAfterDeinit
            /// An event about a node the trace never created (a corrupt or partial trace).
            case unknownNode
        }
        /// Which kind of misuse.
        public var kind: Kind
        /// The node concerned.
        public var node: NodeID
        /// The other node involved (the parent), if any.
        public var other: NodeID?
    }
}
