import Counter
import Testing

@Suite struct CounterTests {
    @Test @MainActor func openAndCloseTheCounter() async throws {
        var app: AppRouter? = AppRouter()
        await app!.launch()
        await app!.openCounter()
        try await Task.sleep(for: .milliseconds(30))
        await app!.closeCounter()
        app = nil
        // Let the root's deinit deactivate its interactor before the run ends.
        try await Task.sleep(for: .milliseconds(100))
    }
}
