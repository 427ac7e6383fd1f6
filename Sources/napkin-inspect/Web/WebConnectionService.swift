// What the live page's server does for one connection each time its loop
// comes round: read the head and route it, write the answer or the events
// the client lacks, drain, and enforce the connection's timeouts.

/// What a connection's turn needs from the server: its limits, its page and
/// latest events, and whether it is bound to loopback.
struct WebServiceContext {
    /// The bounds and timeouts.
    let limits: WebServerLimits
    /// The page served at `/`.
    let page: [UInt8]
    /// The latest value of each key.
    let store: EventStore
    /// Whether `Host` must name loopback (see ``WebRoute/isLoopbackHost(_:)``).
    let loopbackOnly: Bool
}

extension WebConnection {
    /// Serves the connection once: `revents` is what `poll` reported for it
    /// (0 when it was not ready), `now` the monotonic time. Returns false when
    /// the connection is done and must be closed.
    mutating func service(revents: Int16, now: UInt64, _ context: WebServiceContext) -> Bool {
        if revents & Int16(POLLNVAL) != 0 { return false }
        let readable = revents & Int16(POLLIN | POLLHUP | POLLERR) != 0
        switch phase {
        case .readingHead(var buffer):
            phase = .readingHead([])
            if readable {
                guard readHead(&buffer, now: now, context) else { return false }
            } else {
                phase = .readingHead(buffer)
            }
            if case .readingHead = phase, now >= acceptedAt &+ context.limits.headTimeout {
                answer(.error(.requestTimeout, "no whole request head within \(context.limits.headTimeout / 1_000_000) ms"))
            }
        case .draining(let until, let dropped):
            guard readable else { return now < until }
            var total = dropped
            while total <= context.limits.maxLingerBytes {
                var sink: [UInt8] = []
                switch WebSocketIO.receive(fd, into: &sink, count: context.limits.readChunk) {
                case .bytes(let count): total += count
                case .wouldBlock:
                    phase = .draining(until: until, dropped: total)
                    return now < until
                case .ended, .failed: return false
                }
            }
            return false
        case .answering, .streaming:
            break
        }
        switch phase {
        case .answering(var chunks, var offset):
            phase = .answering([], offset: 0)
            guard writeAnswer(&chunks, &offset, now: now) else { return false }
            if chunks.isEmpty {
                _ = shutdown(fd, Int32(SHUT_WR))
                stalledSince = nil
                phase = .draining(until: now &+ context.limits.lingerTime, dropped: 0)
            } else {
                phase = .answering(chunks, offset: offset)
            }
        case .streaming(var client, var nextPing):
            phase = .readingHead([])
            if readable {
                var sink: [UInt8] = []
                switch WebSocketIO.receive(fd, into: &sink, count: context.limits.readChunk) {
                case .bytes, .wouldBlock: break
                case .ended, .failed: return false
                }
            }
            guard pushEvents(&client, &nextPing, now: now, context) else { return false }
            phase = .streaming(client, nextPing: nextPing)
        case .readingHead, .draining:
            break
        }
        if let since = stalledSince, now &- since >= context.limits.writeStallTimeout { return false }
        return true
    }

    /// Reads what the client sent into `buffer`, and when the head is whole
    /// (or refused) moves on to the answer. False: the client went away.
    private mutating func readHead(_ buffer: inout [UInt8], now: UInt64, _ context: WebServiceContext) -> Bool {
        while true {
            let room = HTTPRequestHead.maxHeadBytes + 1 - buffer.count
            let before = buffer.count
            switch WebSocketIO.receive(fd, into: &buffer, count: min(context.limits.readChunk, max(room, 1))) {
            case .bytes:
                let crossedLineLimit = before <= HTTPRequestHead.maxRequestLineBytes && buffer.count > HTTPRequestHead.maxRequestLineBytes
                guard buffer[before...].contains(0x0A) || crossedLineLimit || buffer.count > HTTPRequestHead.maxHeadBytes else { continue }
                switch HTTPRequestHead.parse(buffer) {
                case .incomplete:
                    continue
                case .refused(let status, let message):
                    answer(.error(status, message))
                    return true
                case .complete(let head):
                    begin(WebRoute.route(head, loopbackOnly: context.loopbackOnly), now: now, context)
                    return true
                }
            case .wouldBlock:
                phase = .readingHead(buffer)
                return true
            case .ended, .failed:
                return false
            }
        }
    }

    /// Starts serving `route`.
    private mutating func begin(_ route: WebRoute, now: UInt64, _ context: WebServiceContext) {
        switch route {
        case .page(let headOnly): answer(.page(context.page, headOnly: headOnly))
        case .noIcon: answer(.noIcon)
        case .refused(let status, let message, let allow): answer(.error(status, message, allow: allow))
        case .events: phase = .streaming(EventStreamClient(), nextPing: now &+ context.limits.pingInterval)
        }
    }

    /// Starts writing `response`, after which the connection closes.
    private mutating func answer(_ response: WebResponse) {
        phase = .answering(response.chunks, offset: 0)
    }

    /// Writes what the socket takes of `chunks`. False: the client went away.
    private mutating func writeAnswer(_ chunks: inout [[UInt8]], _ offset: inout Int, now: UInt64) -> Bool {
        while let first = chunks.first {
            switch WebSocketIO.send(fd, first[offset...]) {
            case .bytes(let count):
                stalledSince = nil
                offset += count
                if offset >= first.count {
                    chunks.removeFirst()
                    offset = 0
                }
            case .wouldBlock:
                if stalledSince == nil { stalledSince = now }
                return true
            case .ended, .failed:
                return false
            }
        }
        return true
    }

    /// Writes what the socket takes of the events `client` lacks (a ping when
    /// it has been idle for the ping interval). False: the client went away.
    private mutating func pushEvents(_ client: inout EventStreamClient, _ nextPing: inout UInt64, now: UInt64,
                                     _ context: WebServiceContext) -> Bool {
        while true {
            if !client.takeNext(from: context.store) {
                guard now >= nextPing, client.startPing() else {
                    stalledSince = nil
                    return true
                }
            }
            switch WebSocketIO.send(fd, client.pending) {
            case .bytes(let count):
                stalledSince = nil
                nextPing = now &+ context.limits.pingInterval
                client.wrote(count)
            case .wouldBlock:
                if stalledSince == nil { stalledSince = now }
                return true
            case .ended, .failed:
                return false
            }
        }
    }
}
