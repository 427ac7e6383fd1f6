/// A signed-in guest.
struct User: Sendable, Equatable {
    let name: String
}
