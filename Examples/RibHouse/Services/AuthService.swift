/// Signs guests in and out. App-wide: one instance, held by the LaunchNapkin's component.
actor AuthService {
    enum Failure: Error, CustomStringConvertible {
        case emptyName

        var description: String { "a name is needed to sign in" }
    }

    /// The guest signed in now, if any.
    private(set) var currentUser: User?

    /// Signs in `name` and returns the user.
    func logIn(name: String) throws(Failure) -> User {
        let trimmed = name.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        guard !trimmed.isEmpty else { throw .emptyName }
        let user = User(name: trimmed)
        currentUser = user
        return user
    }

    /// Signs the current guest out.
    func logOut() {
        currentUser = nil
    }
}
