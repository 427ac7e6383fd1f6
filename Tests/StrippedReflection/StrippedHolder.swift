// A module built without reflection metadata (`-disable-reflection-metadata`,
// Package.swift), as a release build that strips it for size would be: the
// retainer search cannot see its types' fields or its closures' captures,
// and the tests show what a finding then says (RetainerSearchTests).

/// Holds an object in a stored property and in a stored closure, neither
/// of which the runtime can describe.
public final class StrippedHolder {
    private var held: AnyObject?
    private var callback: () -> Void = {}

    public init() {}

    /// Holds `object` both ways.
    public func hold(_ object: AnyObject) {
        held = object
        callback = { _ = object }
    }

    /// Lets go of it.
    public func release() {
        held = nil
        callback = {}
    }
}
