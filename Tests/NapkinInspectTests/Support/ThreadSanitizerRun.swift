import Foundation

/// Whether this test process runs under ThreadSanitizer (`swift test --sanitize=thread`).
///
/// CI runs the whole suite twice, plainly and under ThreadSanitizer (about
/// three times slower). End-to-end tests whose cost is in what they start
/// (another package's build, twenty apps, hundreds of connections, a tmux
/// session driven key by key) run once, in the plain run: the code they
/// drive runs under ThreadSanitizer through the lighter tests of the same
/// paths.
let runsUnderThreadSanitizer = cSymbol("__tsan_init") != nil
