// The error the test support throws when something a test needs cannot be
// set up (a file, a pipe, a child process, a port).

/// Something a test needed could not be done; the description says what.
public struct TestFailure: Error, CustomStringConvertible {
    /// What went wrong.
    public var description: String

    /// A failure saying `description`.
    public init(_ description: String) { self.description = description }
}
