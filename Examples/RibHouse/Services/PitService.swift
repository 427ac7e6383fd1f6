/// The smoker's thermometer. App-wide: one instance, held by the LaunchNapkin's
/// component; the PitBoard napkin polls it.
actor PitService {
    private var samples = 0

    /// Reads the pit: a steady 225 °F with the wobble of a real fire.
    func read() -> PitReading {
        samples += 1
        let wobble = [0, 2, 4, 3, 1, -1, -3, -2][samples % 8]
        return PitReading(sample: samples, fahrenheit: 225 + wobble)
    }
}
