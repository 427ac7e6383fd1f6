import Napkin

/// The user's actions on the pit board (none: it only displays).
protocol PitBoardPresentableListener: AnyObject, Sendable {}

/// The smoker's temperature, updated live.
@MainActor
final class PitBoardView: PitBoardViewControllable, HeadlessViewControllable, PitBoardPresentable, Screen {
    weak var listener: (any PitBoardPresentableListener)?
    private let console: Console
    /// How many readings this board has shown.
    private(set) var readingsShown = 0

    init(console: Console) {
        self.console = console
    }

    func show(_ reading: PitReading, alert: Bool) {
        readingsShown += 1
        console.screen("PitBoard", "pit \(reading.fahrenheit)°F (sample \(reading.sample))\(alert ? ", from the pit alert" : "")")
    }
}
