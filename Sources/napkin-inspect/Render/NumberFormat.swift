/// Formats counts and sizes for people. Every function takes any value a
/// trace may hold (up to 2^64 - 1, or a non-finite rate) without trapping.
enum NumberFormat {
    /// `1 error`, `3 errors`, `1,024 events`; `plural` for a noun that does
    /// not take an `s` (`entries`).
    static func count(_ count: Int, _ noun: String, plural: String? = nil) -> String {
        "\(grouped(count)) \(count == 1 ? noun : plural ?? noun + "s")"
    }

    /// `1,234,567`: digits in groups of three (a minus sign stays in front).
    static func grouped(_ value: some BinaryInteger) -> String {
        let digits = String(value.magnitude)
        var out = ""
        out.reserveCapacity(digits.count + digits.count / 3 + 1)
        for (i, c) in digits.reversed().enumerated() {
            if i > 0 && i % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return (value < 0 ? "-" : "") + String(out.reversed())
    }

    /// `512 B`, `9.5 KiB`, `77.6 MiB`.
    static func bytes(_ count: Int) -> String {
        if count < 1024 { return "\(count) B" }
        if count < 1 << 20 { return String(format1: Double(count) / 1024) + " KiB" }
        return String(format1: Double(count) / 1048576) + " MiB"
    }

    /// `value` truncated toward zero and clamped to `Int`'s range (0 for NaN).
    static func clampedInt(_ value: Double) -> Int {
        guard value.isFinite else { return value.isNaN ? 0 : (value > 0 ? .max : .min) }
        if value >= 9.2e18 { return .max }
        if value <= -9.2e18 { return .min }
        return Int(value)
    }
}

extension String {
    /// One decimal place, without Foundation.
    init(format1 value: Double) {
        self = Self.fixed(value, places: 1)
    }

    /// Three decimal places, without Foundation.
    init(format3 value: Double) {
        self = Self.fixed(value, places: 3)
    }

    /// `value` with `places` decimals; values too large for that precision
    /// (beyond about 9e15) are written as whole numbers, NaN as `0`.
    private static func fixed(_ value: Double, places: Int) -> String {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let scaled = value * scale
        guard scaled.isFinite, abs(scaled) < 9e18 else { return "\(NumberFormat.clampedInt(value))" }
        let units = Int(scaled.rounded())
        let whole = units.magnitude / UInt(scale)
        var fraction = String(units.magnitude % UInt(scale))
        while fraction.count < places { fraction = "0" + fraction }
        return (units < 0 ? "-" : "") + "\(whole).\(fraction)"
    }
}
