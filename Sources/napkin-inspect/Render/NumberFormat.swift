/// Formats counts and sizes for people.
enum NumberFormat {
    /// `1,234,567`: digits in groups of three.
    static func grouped(_ value: Int) -> String {
        let digits = String(value)
        var out = ""
        for (i, c) in digits.reversed().enumerated() {
            if i > 0 && i % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return String(out.reversed())
    }

    /// `512 B`, `9.5 KiB`, `77.6 MiB`.
    static func bytes(_ count: Int) -> String {
        if count < 1024 { return "\(count) B" }
        if count < 1 << 20 { return String(format1: Double(count) / 1024) + " KiB" }
        return String(format1: Double(count) / 1048576) + " MiB"
    }
}

extension String {
    /// One decimal place, without Foundation.
    init(format1 value: Double) {
        let tenths = Int((value * 10).rounded())
        self = "\(tenths / 10).\(tenths % 10)"
    }

    /// Three decimal places, without Foundation.
    init(format3 value: Double) {
        let thousandths = Int((value * 1000).rounded())
        let fraction = thousandths % 1000
        let padded = fraction < 10 ? "00\(fraction)" : fraction < 100 ? "0\(fraction)" : "\(fraction)"
        self = "\(thousandths / 1000).\(padded)"
    }
}
