import Foundation
import Testing
import TestSupport

/// ``ChildProcess`` (Tests/TestSupport), the one way the tests start a
/// program: the child gets the descriptors the test chose and no other,
/// and how it ended is told apart (an exit code, a signal, still running).
@Suite("TestSupport: child processes")
struct ChildProcessTests {
    @Test("the child's 1 is the test's pipe (whatever its number) and a descriptor the test left open without close-on-exec is closed there")
    func descriptors() async throws {
        let pipe = try CLibrary.makePipe()
        // Open in the test process, inheritable, at a number above the child's three.
        let leaked = fcntl(pipe.write, F_DUPFD, 50)
        try #require(leaked >= 50)
        // Closed once: a second close(2) would close whatever file of another
        // test took the number meanwhile (the suite shares one process).
        var leakedOpen = true
        defer { if leakedOpen { close(leaked) } }
        let scratch = try ScratchDirectory("child-process")
        defer { scratch.remove() }
        let reading = readToEnd(pipe.read)
        let child = try ChildProcess.spawn(["/bin/sh", "-c", "echo one; if [ -e /dev/fd/\(leaked) ]; then echo open >&2; else echo closed >&2; fi"],
                                           environment: ChildProcess.environment(),
                                           descriptors: [.reading("/dev/null"), .copy(of: pipe.write), .writing(scratch.file("err"))])
        close(pipe.write)
        let status = try await child.wait(until: .now + hangBound)
        close(leaked)
        leakedOpen = false
        #expect(status == ChildProcess.Status(waitStatus: 0), "\(String(describing: status))")
        #expect(String(decoding: await reading.value, as: UTF8.self) == "one\n", "only what the child wrote to its 1")
        let stderr = try String(contentsOfFile: scratch.file("err"), encoding: .utf8)
        #expect(stderr == "closed\n", "descriptor \(leaked) was open in the child: \(stderr)")
    }

    @Test("an exit code, a signal, a child still running and one killed are told apart, as a shell reports them")
    func endings() async throws {
        func run(_ script: String) throws -> ChildProcess {
            try ChildProcess.spawn(["/bin/sh", "-c", script], environment: ChildProcess.environment(),
                                   descriptors: [.reading("/dev/null"), .writing("/dev/null"), .writing("/dev/null")],
                                   defaultSignals: true)
        }
        let exited = try await run("exit 3").wait(until: .now + hangBound)
        #expect(exited?.code == 3 && exited?.signal == nil && exited?.shellStatus == 3, "\(String(describing: exited))")
        let signalled = try await run("kill -TERM $$").wait(until: .now + hangBound)
        #expect(signalled?.signal == SIGTERM && signalled?.code == nil && signalled?.shellStatus == 128 + SIGTERM,
                "\(String(describing: signalled))")
        let sleeper = try run("sleep 600")
        #expect(try await sleeper.wait(until: .now + .milliseconds(50)) == nil, "a running child has no status")
        #expect(sleeper.kill().signal == SIGKILL)
        #expect(sleeper.exitStatus() == .lost, "a child already waited for cannot be waited for again")
    }
}
