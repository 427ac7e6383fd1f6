/// The live counts of every population at the start of each round of one
/// repeated flow, folded into one trend per population: what
/// `growing-population` decides on at the end of a session.
///
/// A trend follows the population's current run of rounds in which its
/// count never went down: how often it rose, the longest wait between two
/// rises, and the counts since the round before the first rise (the first
/// and the last few). A count that goes down starts a new run (a pool that
/// shrank, a cache that was emptied). Memory: one trend per population the
/// series has seen, each with at most ``maxCounts`` counts.
struct RoundSeries: Sendable {
    /// How many counts a trend keeps for the message (the first and the last ones).
    static let maxCounts = 12

    /// One population's run of rounds.
    struct Trend: Sendable {
        /// The round at which the run's counts start (the round before its first rise).
        var start = 0
        /// The sequence number of the sample at ``start``.
        var startSeq: UInt64 = 0
        /// The count at the last sample.
        var last = 0
        /// How many samples rose above the one before.
        var rises = 0
        /// The round of the last rise.
        var lastRise = 0
        /// The most rounds between two rises.
        var longestWait = 0
        /// The counts from ``start`` on: the first, then the last ones.
        var counts: [Int] = []
        /// Whether counts between the first and the kept ones were left out.
        var elided = false

        /// A run that starts with `count` at `round`.
        init(count: Int, round: Int, seq: UInt64) {
            restart(count: count, round: round, seq: seq)
        }

        mutating func restart(count: Int, round: Int, seq: UInt64) {
            self = Trend()
            start = round
            startSeq = seq
            last = count
            lastRise = round
            counts = [count]
        }

        private init() {}

        /// The count at `round`.
        mutating func sample(_ count: Int, round: Int, seq: UInt64) {
            if count < last || (count == last && rises == 0) {
                // Down: a new run. Level before any rise: the run starts here.
                restart(count: count, round: round, seq: seq)
                return
            }
            if count > last {
                if rises > 0 { longestWait = max(longestWait, round - lastRise) }
                rises += 1
                lastRise = round
                last = count
            }
            if counts.count == RoundSeries.maxCounts {
                counts.remove(at: 1)
                elided = true
            }
            counts.append(count)
        }

        /// Whether the run shows a population that keeps growing: at least
        /// `minimumRises` rises, and no longer without one at the end (at
        /// round `final`) than between two of them (at least one round).
        func isGrowing(minimumRises: Int, final: Int) -> Bool {
            rises >= minimumRises && final - lastRise <= max(longestWait, 1)
        }

        /// `0, 1, 2, 3` (`0, …, 7, 8` when counts were left out).
        var countsText: String {
            guard elided, let first = counts.first else { return counts.map(String.init).joined(separator: ", ") }
            return ([String(first), "…"] + counts.dropFirst().map(String.init)).joined(separator: ", ")
        }
    }

    /// What the rounds are called in messages: the mark prefix, or the test.
    let name: String
    /// Samples taken (the rounds started so far).
    private(set) var rounds = 0
    /// The sequence number of the last sample.
    private var lastSeq: UInt64 = 0
    /// The trend of each population, by its index in ``PopulationCounts/populations``.
    private(set) var trends: [Trend] = []

    init(name: String) {
        self.name = name
    }

    /// A round starts: samples every population's live count.
    mutating func sample(_ counts: PopulationCounts, seq: UInt64) {
        let round = rounds
        rounds += 1
        defer { lastSeq = seq }
        for (index, population) in counts.populations.enumerated() {
            if index < trends.count {
                trends[index].sample(population.live, round: round, seq: seq)
            } else if round == 0 {
                trends.append(Trend(count: population.live, round: 0, seq: seq))
            } else {
                // A population new since the last round had none then.
                var trend = Trend(count: 0, round: round - 1, seq: lastSeq)
                trend.sample(population.live, round: round, seq: seq)
                trends.append(trend)
            }
        }
    }

    /// The end of the last round: its counts are a last sample where they
    /// did not go down (a run that tears everything down at its end does
    /// not end the growth it showed); returns the round of the last sample
    /// each trend has, by population.
    mutating func end(_ counts: PopulationCounts, seq: UInt64) -> [Int] {
        var finals: [Int] = []
        for (index, population) in counts.populations.enumerated() {
            guard index < trends.count else { finals.append(rounds - 1); continue }
            if population.live >= trends[index].last {
                trends[index].sample(population.live, round: rounds, seq: seq)
                finals.append(rounds)
            } else {
                finals.append(rounds - 1)
            }
        }
        return finals
    }
}
