/// How often one finding (one ``NapkinTrace/Finding/fingerprint``) occurred
/// over the runs of `check --repeat N -- COMMAND`: a leak in 3 of 10 runs is
/// intermittent, one in every run is not.
struct FindingRate: Sendable, Equatable {
    /// The runs that had it.
    var runs: Int
    /// The runs made.
    var of: Int
    /// How many findings had it, over every run (a run may have it more than once).
    var count: Int
    /// The first run that had it (numbered from 1): the one whose ids and seqs the report shows.
    var firstRun: Int

    /// Whether some run did not have it.
    var isIntermittent: Bool { runs < of }

    /// `in 10 of 10 runs`, or `in 3 of 10 runs: intermittent, first in run 2`.
    var text: String {
        let base = "in \(NumberFormat.grouped(runs)) of \(NumberFormat.grouped(of)) run\(of == 1 ? "" : "s")"
        return isIntermittent ? base + ": intermittent, first in run \(firstRun)" : base
    }
}
