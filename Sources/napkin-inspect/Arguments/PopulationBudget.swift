/// One `--max-alive NAME=N`: how many instances of a population may be alive
/// at once (`over-budget`). NAME is a router or interactor type, or
/// `Owner 'label'` for bound tasks, as ``NapkinTrace/PopulationCounts/Key``
/// describes a population; it may hold spaces, quotes and `=` (the value is
/// split at its last `=`).
struct PopulationBudget: Sendable, Equatable {
    /// The population's name.
    var name: String
    /// The most instances allowed at once.
    var limit: Int
}
