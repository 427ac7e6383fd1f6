import NapkinTrace
import NapkinTraceReader

/// What every format of `diff` shows: the two traces, their comparison and
/// the exit status, with the wording the text and Markdown formats share.
struct DiffReport {
    /// The good run.
    var before: DiffSide
    /// The run judged.
    var after: DiffSide
    /// What changed.
    var comparison: TraceComparison
    /// The status `diff` exits with.
    var exitStatus: Int32

    /// How many entries of a list the text and Markdown formats show before
    /// they only count the rest (JSON lists them all).
    static let maxListed = 50

    /// `2 new findings, 1 fixed; 1 router appeared, 0 disappeared; 3 changes beyond the thresholds`,
    /// or the sentence for no changes at all.
    var summary: String {
        let c = comparison
        guard c.hasChanges else {
            return "No changes: the same findings (\(NumberFormat.grouped(c.findingCounts.after))) and routers; "
                + "no lifetime or task count changed by \(thresholdsText)."
        }
        let endChanges = c.atEnd.filter { $0.presence != .both }.count
        return "\(NumberFormat.count(c.newFindings.count, "new finding")), \(NumberFormat.grouped(c.fixedFindings.count)) fixed; "
            + "\(NumberFormat.count(c.appeared.count, "router")) appeared, \(NumberFormat.grouped(c.disappeared.count)) disappeared; "
            + "\(NumberFormat.count(c.changes.count, "lifetime or task count", plural: "lifetimes or task counts")) changed; "
            + "\(NumberFormat.count(endChanges, "difference", plural: "differences")) at the end."
    }

    /// `50% and 250ms, or 50% and 1 task`: the thresholds in use.
    var thresholdsText: String {
        let t = comparison.thresholds
        let share = Self.percent(t.relative * 100)
        return "\(share) and \(TimeFormat.duration(t.time)), or \(share) and \(NumberFormat.count(Int(clamping: t.tasks), "task"))"
    }

    /// `12%`, `2.5%`: a percentage for people (a decimal only below 10%).
    static func percent(_ value: Double) -> String {
        let rounded = abs(value) >= 10 ? value.rounded() : (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? "\(NumberFormat.clampedInt(rounded))%" : String(format1: rounded) + "%"
    }

    /// `850ms`, `3.2s` or `4`: a measure's value.
    static func value(_ value: UInt64, of measure: RouterMeasure) -> String {
        measure.isTime ? TimeFormat.duration(value) : NumberFormat.grouped(value)
    }

    /// `+64%`, `-50%`, or `from 0` when BEFORE's value was 0.
    static func relativeChange(_ change: TraceComparison.MeasureChange) -> String {
        guard change.before > 0 else { return "from 0" }
        let share = (Double(change.after) - Double(change.before)) / Double(change.before) * 100
        return (share >= 0 ? "+" : "") + percent(share)
    }

    /// `OrderRouter under LaunchRouter/LoggedInRouter: 2 → 3`, each type
    /// passed through `escape` (printable, or escaped for Markdown).
    static func countText(_ count: TraceComparison.RouterCount,
                          escape: (String) -> String = { PrintableText.printable($0, limit: DiffPathText.maxType) }) -> String {
        let place = count.path.parent.map { " under " + DiffPathText.text($0, escape: escape) }
            ?? (count.path.isInTree ? " launched" : " outside the tree")
        return "\(escape(count.path.type))\(place): \(count.before) \u{2192} \(count.after)"
    }

    /// `BEFORE`/`AFTER` line: `app (pid 3447), 16 routers, 2 findings`.
    static func sideText(_ side: DiffSide, routers: Int) -> String {
        let app = side.overview.session?.heading ?? "no session record"
        let findings = side.trace.findings.count
        return "\(app), \(NumberFormat.count(routers, "router")), \(findings == 0 ? "no findings" : NumberFormat.count(findings, "finding"))"
    }
}
