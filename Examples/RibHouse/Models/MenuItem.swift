/// One dish on the barbecue menu.
struct MenuItem: Sendable, Equatable {
    let name: String
    let note: String

    /// The house menu.
    static let house: [MenuItem] = [
        MenuItem(name: "brisket", note: "post oak, 14 hours"),
        MenuItem(name: "pork ribs", note: "St. Louis cut"),
        MenuItem(name: "pulled pork", note: "shoulder, hickory"),
        MenuItem(name: "burnt ends", note: "point, double-smoked"),
        MenuItem(name: "hot links", note: "house sausage"),
    ]
}
