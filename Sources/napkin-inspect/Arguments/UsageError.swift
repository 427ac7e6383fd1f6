/// A mistake on the command line: exit status 2, one line on standard error
/// that names the problem and the fix.
struct UsageError: Error, Sendable {
    /// The line to print (without the program name).
    var message: String

    /// A usage error saying `message`.
    init(_ message: String) {
        self.message = message
    }

    /// A value outside a closed set of spellings.
    static func notOneOf(_ choices: [String], option: String, got text: String) -> UsageError {
        UsageError("'--\(option)' must be one of \(choices.joined(separator: ", ")); got '\(text)'")
    }
}
