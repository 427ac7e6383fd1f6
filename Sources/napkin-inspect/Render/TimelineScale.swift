extension TimelineRenderer {
    /// Maps trace time to chart columns.
    struct Scale {
        /// The trace time at the first column.
        var start: UInt64
        /// The trace time at the last column.
        var stop: UInt64
        /// The chart's width.
        var columns: Int

        /// The column `time` falls in (clamped to the chart).
        func column(_ time: UInt64) -> Int {
            guard time > start else { return 0 }
            let fraction = Double(time - start) / Double(max(1, stop - start))
            return min(columns - 1, max(0, Int(fraction * Double(columns))))
        }

        /// Round tick times at least `minimumSpacing` columns apart, with their labels.
        func ticks(minimumSpacing: Int) -> [(time: UInt64, text: String)] {
            let span = Double(max(1, stop - start))
            let wanted = span * Double(minimumSpacing) / Double(max(1, columns))
            // 1-2-5 steps up to 10 s, then steps people count in: 20 s, 30 s, 1 m, 2 m, 5 m, ...
            var steps: [UInt64] = []
            var power: UInt64 = 1
            while power < 10_000_000_000 {
                steps += [power, 2 * power, 5 * power]
                power *= 10
            }
            steps += [10, 20, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 18_000, 36_000, 86_400].map { $0 * 1_000_000_000 }
            let step = steps.first { Double($0) >= wanted } ?? (wanted >= 1.8e19 ? UInt64.max : UInt64(wanted.rounded(.up)))
            var result: [(UInt64, String)] = []
            // The first multiple of `step` at or after `start`; every step saturating (times reach 2^64 - 1).
            var time = start / step * step
            if time < start {
                let (next, overflow) = time.addingReportingOverflow(step)
                if overflow { return [] }
                time = next
            }
            while time <= stop && result.count <= columns {
                result.append((time, Scale.format(time, step: step, seconds: stop >= 1_000_000_000)))
                let (next, overflow) = time.addingReportingOverflow(step)
                if overflow { break }
                time = next
            }
            return result
        }

        /// `0`, `250ms`, `1.5s`, `2m30s`: as precise as the step needs.
        static func format(_ time: UInt64, step: UInt64, seconds inSeconds: Bool) -> String {
            if time == 0 { return "0" }
            if step >= 60_000_000_000 && time >= 60_000_000_000 { return TimeFormat.duration(time) }
            if step >= 1_000_000 && !inSeconds { return "\(time / 1_000_000)ms" }
            if step >= 1_000_000 {
                let seconds = time / 1_000_000_000
                var fraction = time % 1_000_000_000
                var digits = 0
                var unit: UInt64 = 1_000_000_000
                while unit > step && digits < 3 { unit /= 10; digits += 1 }
                if digits == 0 { return "\(seconds)s" }
                fraction /= unit
                var text = String(fraction)
                while text.count < digits { text = "0" + text }
                return "\(seconds).\(text)s"
            }
            if step >= 1_000 { return "\(time / 1_000)µs" }
            return "\(time)ns"
        }
    }
}
