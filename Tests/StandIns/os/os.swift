// A stand-in for Apple's `os` module, for tests only and never shipped: it
// lets Linux compile this package's `#if canImport(os)` branch
// (NapkinTrace's Platform/OSSignposts.swift, `Scripts/apple-typecheck.sh`).
// It declares only the API the package uses, with the signatures shown on
// Apple's documentation pages (developer.apple.com/documentation/os/…):
// ossignposter/init(loghandle:), ossignposter/begininterval(_:id:_:),
// ossignposter/endinterval(_:_:_:), ossignposter/emitevent(_:id:_:),
// ossignpostid/init(_:), ossignpostid (`exclusive`), ossignpostintervalstate,
// signpostmetadata (`typealias SignpostMetadata = OSLogMessage`),
// oslogmessage, osloginterpolation and its
// appendinterpolation(_:align:privacy:) (a String) and
// appendinterpolation(_:format:align:privacy:) (an Int), oslogprivacy/public,
// oslog, oslog/init(subsystem:category:) (an `OSLog.Category`),
// oslog/category/pointsofinterest, oslog/category (`dynamicTracing`). Nothing
// here behaves: every body is a placeholder, because nothing built against
// it ever runs.
//
// Where Swift cannot spell Apple's declaration the closest spelling is used:
// `OSLog` is an Objective-C class (`OS_os_log`) with a convenience init; here
// a final class with a plain init; the `static let` constants (the
// categories, `OSSignpostID.exclusive`) are read-only computed properties,
// which Swift 6 accepts without claiming a `Sendable` conformance Apple's
// pages do not show. Apple's OSLogMessage is built by a compiler
// optimisation that needs literal format arguments; this one accepts any.

/// Stand-in for `OSLog` (`class OSLog`).
public final class OSLog {
    /// Stand-in for `OSLog.Category` (`struct Category`).
    public struct Category {
        /// A string that identifies the category.
        public let rawValue: String
        /// The category for signposts shown by the Points of Interest instrument.
        public static var pointsOfInterest: Category { Category(rawValue: "PointsOfInterest") }
        /// The category for dynamic tracing.
        public static var dynamicTracing: Category { Category(rawValue: "DynamicTracing") }
    }

    /// `convenience init(subsystem: String, category: OSLog.Category)`.
    public init(subsystem: String, category: OSLog.Category) {}
}

/// Stand-in for `OSLogPrivacy` (`@frozen struct OSLogPrivacy`).
@frozen public struct OSLogPrivacy {
    /// `static var auto: OSLogPrivacy { get }`.
    public static var auto: OSLogPrivacy { OSLogPrivacy() }
    /// `static var public: OSLogPrivacy { get }`.
    public static var `public`: OSLogPrivacy { OSLogPrivacy() }
}

/// Stand-in for `OSLogStringAlignment`.
public struct OSLogStringAlignment {
    /// No alignment.
    public static var none: OSLogStringAlignment { OSLogStringAlignment() }
}

/// Stand-in for `OSLogIntegerFormatting`.
public struct OSLogIntegerFormatting {
    /// Decimal.
    public static var decimal: OSLogIntegerFormatting { OSLogIntegerFormatting() }
}

/// Stand-in for `OSLogInterpolation` (`@frozen struct OSLogInterpolation`).
@frozen public struct OSLogInterpolation: StringInterpolationProtocol {
    public init(literalCapacity: Int, interpolationCount: Int) {}
    public mutating func appendLiteral(_ literal: String) {}

    /// `mutating func appendInterpolation(_ argumentString: @autoclosure @escaping () -> String, align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto)`.
    public mutating func appendInterpolation(_ argumentString: @autoclosure @escaping () -> String,
                                             align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto) {}

    /// `mutating func appendInterpolation(_ number: @autoclosure @escaping () -> Int, format: OSLogIntegerFormatting = .decimal, align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto)`.
    public mutating func appendInterpolation(_ number: @autoclosure @escaping () -> Int, format: OSLogIntegerFormatting = .decimal,
                                             align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto) {}
}

/// Stand-in for `OSLogMessage` (`@frozen struct OSLogMessage`), made from a string interpolation.
@frozen public struct OSLogMessage: ExpressibleByStringInterpolation {
    public init(stringLiteral value: String) {}
    public init(stringInterpolation: OSLogInterpolation) {}
}

/// `typealias SignpostMetadata = OSLogMessage`.
public typealias SignpostMetadata = OSLogMessage

/// Stand-in for `OSSignpostID` (`struct OSSignpostID`).
public struct OSSignpostID {
    /// `init(_ value: UInt64)`.
    public init(_ value: UInt64) {}
    /// The identifier for intervals that never overlap (a placeholder value).
    public static var exclusive: OSSignpostID { OSSignpostID(0) }
}

/// Stand-in for `OSSignpostIntervalState` (`class OSSignpostIntervalState`).
public final class OSSignpostIntervalState {
    init() {}
}

/// Stand-in for `OSSignposter` (`struct OSSignposter`).
public struct OSSignposter {
    /// `init(logHandle: OSLog)`.
    public init(logHandle: OSLog) {}

    /// `func beginInterval(_ name: StaticString, id: OSSignpostID = .exclusive, _ message: SignpostMetadata) -> OSSignpostIntervalState`.
    public func beginInterval(_ name: StaticString, id: OSSignpostID = .exclusive, _ message: SignpostMetadata) -> OSSignpostIntervalState {
        OSSignpostIntervalState()
    }

    /// `func endInterval(_ name: StaticString, _ state: OSSignpostIntervalState, _ message: SignpostMetadata)`.
    public func endInterval(_ name: StaticString, _ state: OSSignpostIntervalState, _ message: SignpostMetadata) {}

    /// `func emitEvent(_ name: StaticString, id: OSSignpostID = .exclusive, _ message: SignpostMetadata)`.
    public func emitEvent(_ name: StaticString, id: OSSignpostID = .exclusive, _ message: SignpostMetadata) {}
}
