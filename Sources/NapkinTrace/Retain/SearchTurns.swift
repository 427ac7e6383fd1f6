/// One retainer search at a time in the process: a search holds what it
/// reaches while it runs, so two at once would each count the other's
/// holds among the object's references ("1 of 3 found" where the app holds
/// one). Searches wait their turn, first come first served.
actor SearchTurns {
    /// The process's turns.
    static let shared = SearchTurns()

    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Runs `body` when no other search runs.
    nonisolated func run<Result: Sendable>(_ body: @Sendable () async -> Result) async -> Result {
        await acquire()
        let result = await body()
        await release()
        return result
    }

    private func acquire() async {
        guard busy else {
            busy = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func release() {
        if waiting.isEmpty {
            busy = false
        } else {
            waiting.removeFirst().resume()
        }
    }
}
