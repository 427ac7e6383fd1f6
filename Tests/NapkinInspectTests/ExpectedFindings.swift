/// The findings each recorded trace must produce, from
/// `Tests/Fixtures/traces/README.md` and `Examples/RibHouse/README.md`
/// (default options: grace 1 s, no expect-teardown).
enum ExpectedFindings {
    /// One expected finding, as `check --format json` reports it.
    struct Item: Hashable, Sendable, CustomStringConvertible {
        var rule: String
        var subject: String
        var type: String
        var id: Int
        var label: String?
        var seqs: [Int]

        var description: String { "\(rule) \(subject) \(type)#\(id)\(label.map { " '\($0)'" } ?? "") seqs \(seqs)" }
    }

    /// Fixture name (without `.ndjson`) → its findings. `-clean` twins are not listed: they have none.
    static let fixtures: [String: [Item]] = [
        "undetached-child": [Item(rule: "undetached-child", subject: "router", type: "ProfileRouter", id: 6, seqs: [21])],
        "not-deallocated": [Item(rule: "not-deallocated", subject: "router", type: "OrderRouter", id: 4, seqs: [18])],
        "not-deallocated-interactor": [Item(rule: "not-deallocated", subject: "interactor", type: "SettingsInteractor", id: 3, seqs: [14])],
        "orphaned-task": [Item(rule: "orphaned-task", subject: "task", type: "PitBoardInteractor", id: 3, label: "pit-poller", seqs: [11, 14, 15])],
        "orphaned-task-owner-gone": [Item(rule: "orphaned-task", subject: "task", type: "AnnouncementsInteractor", id: 3, label: "feed", seqs: [11, 14, 15])],
        "orphaned-task-at-end": [
            Item(rule: "task-started-inactive", subject: "task", type: "ImageCacheInteractor", id: 3, label: "warm-up", seqs: [8]),
            Item(rule: "orphaned-task", subject: "task", type: "ImageCacheInteractor", id: 3, label: "warm-up", seqs: [8]),
        ],
        "task-started-inactive": [Item(rule: "task-started-inactive", subject: "task", type: "MenuInteractor", id: 3, label: "prefetch", seqs: [8])],
        "active-after-detach": [Item(rule: "active-after-detach", subject: "interactor", type: "CheckoutInteractor", id: 3, seqs: [12])],
        "duplicate-child": [Item(rule: "duplicate-child", subject: "router", type: "MenuRouter", id: 4, seqs: [9, 16])],
        "double-attach": [Item(rule: "double-attach", subject: "router", type: "SettingsRouter", id: 4, seqs: [12])],
        "detach-non-child": [Item(rule: "detach-non-child", subject: "router", type: "SettingsRouter", id: 4, seqs: [14])],
        "event-after-deinit": [Item(rule: "event-after-deinit", subject: "trace", type: "#3", id: 3, seqs: [15])],
        "events-dropped": [Item(rule: "events-dropped", subject: "trace", type: "trace", id: 0, seqs: [])],
        "alive-at-end": [],
        "undecided-at-end": [],
    ]

    /// `alive-at-end.ndjson` with `--expect-teardown`.
    static let aliveAtEndWithTeardown = [Item(rule: "alive-at-end", subject: "router", type: "RootRouter", id: 2, seqs: [3])]

    /// Every fixture file name (without `.ndjson`): the ones above and their clean twins.
    static var allFixtureNames: [String] {
        var names = Array(fixtures.keys)
        for name in fixtures.keys where name != "undecided-at-end" { names.append(name + "-clean") }
        return names.sorted()
    }

    /// The example traces of rib-house: `clean` and one per `--bug`, with the rule each produces.
    static let examples: [(name: String, rule: String?)] = [
        ("clean", nil),
        ("bug-forgotten-detach", "duplicate-child"),
        ("bug-retain-cycle", "not-deallocated"),
        ("bug-ignore-cancel", "orphaned-task"),
        ("bug-early-task", "task-started-inactive"),
        ("bug-service-keeps-child", "undetached-child"),
    ]
}
