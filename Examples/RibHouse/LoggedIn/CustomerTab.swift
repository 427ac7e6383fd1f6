/// What the signed-in guest has ordered. One per login: the LoggedIn component
/// shares it (`shared {}`) with the Order napkins of that session, and it goes
/// away with the session.
actor CustomerTab {
    private var lines: [(item: MenuItem, quantity: Int)] = []
    /// With `--bug tab-keeps-order`: the Order screen each line was added
    /// from, to reopen it from the tab; strong, and never cleared.
    private var origins: [any OrderRouting] = []

    /// Remembers the screen `item` was ordered from (the bug).
    func remember(_ screen: any OrderRouting) {
        origins.append(screen)
    }

    func add(_ item: MenuItem, quantity: Int) {
        if let index = lines.firstIndex(where: { $0.item == item }) {
            lines[index].quantity += quantity
        } else {
            lines.append((item, quantity))
        }
    }

    /// E.g. "2 × brisket, 1 × hot links", or "nothing yet".
    var summary: String {
        lines.isEmpty ? "nothing yet" : lines.map { "\($0.quantity) × \($0.item.name)" }.joined(separator: ", ")
    }
}
