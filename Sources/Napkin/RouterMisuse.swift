import Foundation
import NapkinTrace
import Synchronization

/// How the framework tells you about a misuse of the router tree: attaching a
/// router that is already a child, detaching one that is not, attaching one
/// that another router still lists, or attaching one under itself or its own
/// descendant (a cycle). `docs/lifecycle.md` (section 3.7) lists what each
/// call then does.
///
/// In debug builds a misuse stops the program with an assertion failure (as
/// Uber's RIBs does), unless ``Reporting/warning`` is chosen: then it writes
/// one line to standard error and the program goes on. Release builds always
/// warn, never stop. With tracing on, the trace records the misuse as well.
///
/// Choose the reporting, most specific first:
/// - for the current task and the tasks it creates (a test that misuses the
///   tree on purpose, safe next to tests that run in parallel):
///   ``withReporting(_:isolation:_:)``;
/// - for the whole process: ``reporting``, e.g. `RouterMisuse.reporting = .warning`;
/// - from the environment, read once at the first misuse:
///   `NAPKIN_MISUSE=warn` (any other value, or none, means ``Reporting/assertion``).
///
/// None of this is read unless a misuse happens: attaching and detaching
/// correctly costs nothing more.
public enum RouterMisuse {
    /// What a misuse does in a debug build (release builds always warn).
    public enum Reporting: UInt8, Sendable, Hashable {
        /// An `assertionFailure`: a debug build stops at the misused call.
        case assertion = 0
        /// One line on standard error, starting `napkin: misuse:`; the program goes on.
        case warning = 1
    }

    /// The process-wide reporting; starts as `NAPKIN_MISUSE` says
    /// (`warn`: ``Reporting/warning``; otherwise ``Reporting/assertion``).
    /// A task's ``withReporting(_:isolation:_:)`` takes precedence.
    public static var reporting: Reporting {
        get { Reporting(rawValue: processWide.load(ordering: .relaxed)) ?? .assertion }
        set { processWide.store(newValue.rawValue, ordering: .relaxed) }
    }

    /// Runs `operation` with `reporting` for misuses made by the current task
    /// and the tasks it creates (not detached ones), then restores the
    /// previous choice. Made for tests that misuse the tree on purpose:
    ///
    /// ```swift
    /// await RouterMisuse.withReporting(.warning) {
    ///     await parent.attachChild(child)
    ///     await parent.attachChild(child) // warns, changes nothing
    /// }
    /// ```
    public static func withReporting<Result>(
        _ reporting: Reporting,
        isolation: isolated (any Actor)? = #isolation,
        _ operation: () async throws -> Result
    ) async rethrows -> Result {
        try await $scoped.withValue(reporting, operation: operation)
    }

    /// The reporting a ``withReporting(_:isolation:_:)`` chose for this task, if any.
    @TaskLocal private static var scoped: Reporting?

    /// Where warnings go instead of standard error, for this task and the
    /// tasks it creates: lets a test read the warning text (the line without
    /// its newline). `nil`: standard error.
    @TaskLocal package static var warningSink: (@Sendable (String) -> Void)?

    /// The process-wide choice, as a ``Reporting`` raw value; initialised
    /// from `NAPKIN_MISUSE` the first time a misuse (or ``reporting``) reads it.
    private static let processWide = Atomic<UInt8>(
        ProcessInfo.processInfo.environment["NAPKIN_MISUSE"] == "warn" ? Reporting.warning.rawValue : Reporting.assertion.rawValue
    )

    /// The reporting in force for the current task.
    static var current: Reporting { scoped ?? reporting }

    /// Reports one misuse: `message` is the whole line (call, routers, fix).
    /// Debug build with ``Reporting/assertion``: stops the program. Otherwise:
    /// the warning.
    static func report(_ message: String) {
        if current == .assertion {
            assertionFailure("napkin: misuse: \(message) (set RouterMisuse.reporting = .warning or NAPKIN_MISUSE=warn to warn instead)")
        }
        let line = "napkin: misuse: \(message)"
        if let sink = warningSink {
            sink(line)
        } else {
            FileHandle.standardError.write(Data((line + "\n").utf8))
        }
    }

    /// The name of a router's type in a message: `ListRouter`.
    static func name(_ router: Routing) -> String {
        String(describing: type(of: router))
    }

    /// ` at Module/File.swift:42`, or nothing when the call's place is unknown.
    static func suffix(_ location: CodeLocation?) -> String {
        location.map { " at \($0)" } ?? ""
    }
}

/// A router that remembers which router lists it as a child, so that an
/// attach under a second parent can be reported (see ``RouterMisuse``).
/// ``Router`` conforms; other ``Routing`` types (test mocks) are not tracked.
@MainActor
protocol ParentTracked: AnyObject {
    /// The router that attached this one last and still lists it: its identity
    /// and type, never a reference (nothing is retained); `nil` when detached.
    var attachedParent: AttachedParent? { get set }
}

/// Which router lists a child: kept by the child, without retaining the parent.
struct AttachedParent {
    /// The parent's identity.
    let id: ObjectIdentifier
    /// The parent's type, for the misuse message.
    let type: any Routing.Type
}

extension RouterTree {
    /// Whether `target` is `root` or one of its descendants. Walks `root`'s
    /// subtree without allocating; the tree is a forest (cycles are refused),
    /// so the walk ends.
    static func subtree(of root: Routing, contains target: Routing) -> Bool {
        if root === target { return true }
        for child in root.children where subtree(of: child, contains: target) { return true }
        return false
    }
}
