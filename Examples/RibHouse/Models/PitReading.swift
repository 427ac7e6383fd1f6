/// One temperature sample from the smoker.
struct PitReading: Sendable, Equatable {
    /// Which sample this is, counting from 1 since the app started.
    let sample: Int
    let fahrenheit: Int
}
