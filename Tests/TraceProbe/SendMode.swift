// TraceProbe send: plays an app that streams a trace to a listening
// inspector, byte for byte, for the `live --listen` and `live -- COMMAND`
// tests: hostile bytes, a line cut in the middle, a slow writer.
//
//   send FILE [DELAY_MS [HOLD_MS [STATUS]]]
//     connects to the socket NAPKIN_TRACE names (tcp:HOST:PORT or unix:PATH),
//     writes FILE's bytes (DELAY_MS between lines: a slow app or a slow loris),
//     keeps the connection open HOLD_MS more, closes it and exits with STATUS.
//     FILE "-" sends nothing. Prints "connected" on stderr once connected.
//
//   follow FILE
//     connects as send does, then sends FILE's lines as they are appended to
//     it (a test writes the trace in parts: an app at the test's pace), up
//     to and including the end record's line, then closes and exits 0.
//     Exits 3 when FILE is removed (the test that writes it is gone), or
//     after 600 s without a new line (longer than any test waits for a line).
//
//   connections N HOLD_MS
//     opens N connections to that socket at once (those refused are counted),
//     sends nothing, holds them HOLD_MS, closes them; prints "opened K".

import NapkinTrace
import NapkinLibc

/// The first socket address `NAPKIN_TRACE` names.
private func traceSocketAddress() -> Platform.SocketAddress {
    guard let value = getenv("NAPKIN_TRACE").map({ String(cString: $0) }) else { fail("needs NAPKIN_TRACE") }
    do {
        guard let address = try TraceSocketAddress.destination(value) else { fail("NAPKIN_TRACE=\(value) is not a socket") }
        guard let first = try address.resolved().first else { fail("no address for \(value)") }
        return first
    } catch {
        fail("cannot resolve \(value): \(error)")
    }
}

/// Runs `connections` (see above); never returns.
func connectionsMode(_ arguments: [String]) -> Never {
    let count = arguments.count > 2 ? Int(arguments[2]) ?? 1 : 1
    let hold = arguments.count > 3 ? Int(arguments[3]) ?? 0 : 0
    let address = traceSocketAddress()
    var open: [Int32] = []
    for _ in 0..<count {
        if let fd = try? Platform.connect(to: address, timeoutMS: 2_000) { open.append(fd) }
    }
    writeStderr("opened \(open.count)\n")
    usleep(useconds_t(min(hold, 60_000) * 1_000))
    for fd in open { close(fd) }
    exit(0)
}

/// Runs `send` (see above); never returns.
func sendMode(_ arguments: [String]) -> Never {
    guard arguments.count > 2 else { fail("send needs a FILE") }
    let delay = arguments.count > 3 ? Int(arguments[3]) ?? 0 : 0
    let hold = arguments.count > 4 ? Int(arguments[4]) ?? 0 : 0
    let status = arguments.count > 5 ? Int32(arguments[5]) ?? 0 : 0
    let fd: Int32
    do {
        fd = try Platform.connect(to: traceSocketAddress(), timeoutMS: 2_000)
    } catch {
        fail("cannot connect: \(error)")
    }
    Platform.setBlocking(fd)
    writeStderr("connected\n")
    var bytes: [UInt8] = []
    if arguments[2] != "-" {
        guard let file = fopen(arguments[2], "rb") else { fail("cannot read \(arguments[2])") }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = fread(&buffer, 1, buffer.count, file)
            if n <= 0 { break }
            bytes += buffer[0..<n]
        }
        fclose(file)
    }
    signal(SIGPIPE, SIG_IGN)
    if delay > 0 {
        var start = 0
        for (i, byte) in bytes.enumerated() where byte == 10 || i == bytes.count - 1 {
            _ = bytes[start...i].withUnsafeBytes { Platform.writeAll(fd, $0) }
            start = i + 1
            usleep(useconds_t(delay * 1_000))
        }
    } else {
        _ = bytes.withUnsafeBytes { Platform.writeAll(fd, $0) }
    }
    if hold > 0 { usleep(useconds_t(min(hold, 60_000) * 1_000)) }
    close(fd)
    exit(status)
}

/// Runs `follow` (see above); never returns.
func followMode(_ arguments: [String]) -> Never {
    guard arguments.count > 2 else { fail("follow needs a FILE") }
    guard let file = fopen(arguments[2], "rb") else { fail("cannot read \(arguments[2])") }
    let fd: Int32
    do {
        fd = try Platform.connect(to: traceSocketAddress(), timeoutMS: 2_000)
    } catch {
        fail("cannot connect: \(error)")
    }
    Platform.setBlocking(fd)
    signal(SIGPIPE, SIG_IGN)
    writeStderr("connected\n")
    let endRecord = Array(#""ev":"end""#.utf8)
    var line: [UInt8] = []
    var idle = 0
    while idle < 30_000 {
        let byte = getc(file)
        if byte == EOF {
            clearerr(file)
            idle += 1
            if idle % 50 == 0, access(arguments[2], F_OK) != 0 {
                writeStderr("follow: \(arguments[2]) was removed\n")
                exit(3)
            }
            usleep(20_000)
            continue
        }
        idle = 0
        line.append(UInt8(byte))
        guard byte == 10 else { continue }
        _ = line.withUnsafeBytes { Platform.writeAll(fd, $0) }
        let ended = line.indices.contains { line[$0...].starts(with: endRecord) }
        line.removeAll(keepingCapacity: true)
        if ended {
            close(fd)
            exit(0)
        }
    }
    writeStderr("follow: no end record after 600 s without a new line\n")
    exit(3)
}
