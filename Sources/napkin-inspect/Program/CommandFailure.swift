/// A command that cannot do its job (unusable input, a file it cannot read or
/// write): exit status 2, one line on standard error.
struct CommandFailure: Error, Sendable {
    /// The line to print (without the program name).
    var message: String

    /// A failure saying `message`.
    init(_ message: String) { self.message = message }
}
