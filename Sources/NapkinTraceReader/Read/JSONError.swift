/// Why a line is not valid JSON (or not the JSON expected), in one line.
struct JSONError: Error {
    /// The message, with the column when there is one.
    var message: String
    /// An error saying `message`.
    init(_ message: String) { self.message = message }
}
