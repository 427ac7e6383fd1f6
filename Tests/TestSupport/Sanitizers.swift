// Whether this test process runs under a sanitizer, which some tests adapt
// to: it replaces malloc (heap measurements mean nothing) and runs code
// several times slower.

/// Whether this test process runs under ThreadSanitizer (`swift test --sanitize=thread`).
///
/// CI runs the whole suite plainly, and the suites whose code runs on
/// several threads again under ThreadSanitizer (about three times slower;
/// `.ci/run` names them). There, end-to-end tests whose cost is in what they
/// start (another package's build, twenty apps, hundreds of connections, a
/// tmux session driven key by key) and `.singleThreaded` tests are left to
/// the plain run: the code they drive runs under ThreadSanitizer through
/// the lighter tests of the same paths.
public let runsUnderThreadSanitizer = CLibrary.symbol("__tsan_init") != nil

/// Whether a sanitizer replaced malloc in this process (`swift test --sanitize=thread` or `=address`).
public let runsUnderSanitizer = runsUnderThreadSanitizer || CLibrary.symbol("__asan_init") != nil
