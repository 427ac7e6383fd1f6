// A test that only computes on one thread is left out of the
// ThreadSanitizer pass: there is nothing there for it to find.
import Testing

extension Trait where Self == ConditionTrait {
    /// Marks a test whose work runs on one thread only (reading, folding,
    /// analysing or rendering a trace in memory, or checking a command's
    /// output format): it does not run under ThreadSanitizer
    /// (`swift test --sanitize=thread`), which finds races between threads
    /// and would only run such a test several times slower. The plain run
    /// covers it, and the concurrent paths of the same code (the tracer, the
    /// read-ahead thread, parallel `check`, `live`) run under the sanitizer
    /// in tests of their own. See docs/contributing.md, "A test that a busy
    /// machine cannot fail".
    public static var singleThreaded: Self {
        .disabled(if: runsUnderThreadSanitizer, "single-threaded work: nothing for ThreadSanitizer to find; the plain run covers it")
    }
}
