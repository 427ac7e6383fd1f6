/// Formats trace times for people.
enum TimeFormat {
    /// `850ms`, `3.2s`, `2m05s`, `1h02m`: a length of time.
    static func duration(_ ns: UInt64) -> String {
        let ms = ns / 1_000_000
        if ms < 1_000 {
            if ns < 1_000_000 { return ns < 1_000 ? "\(ns)ns" : "\(ns / 1_000)µs" }
            return "\(ms)ms"
        }
        let seconds = Double(ns) / 1e9
        if seconds < 60 { return String(format1: seconds) + "s" }
        let total = Int(seconds)
        if total < 3600 { return "\(total / 60)m" + pad2(total % 60) + "s" }
        return "\(total / 3600)h" + pad2((total % 3600) / 60) + "m"
    }

    /// `850.000ms`, `1.234s`: a point of the trace, to the microsecond.
    static func point(_ ns: UInt64) -> String {
        let ms = Double(ns) / 1e6
        if ms < 1000 { return String(format3: ms) + "ms" }
        return String(format3: ms / 1000) + "s"
    }

    private static func pad2(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
}
