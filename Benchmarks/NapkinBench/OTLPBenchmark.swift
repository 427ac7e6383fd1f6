import Foundation
import NapkinOTLP
import NapkinTrace

/// The OTLP exporter's three figures (docs/otlp.md, docs/benchmarks.md):
/// - the cost per event with the exporter on, against the NDJSON sink: the
///   caller's time (stamp and queue: the same path for both sinks) and the
///   process's CPU per event (the mapping, encoding and sending included);
/// - bytes on the wire per router lifetime (one cycle of 12 events: created,
///   attached, active, a task, loaded, detached, deallocated);
/// - peak memory during a collector outage: router lifetimes at a steady
///   rate while every request fails, the resident memory sampled throughout.
/// The collector is a transport that keeps nothing (or refuses everything):
/// what is measured is napkin's side, not a network.
enum OTLPBenchmark {
    /// A collector that takes everything at once and counts the bytes.
    final class CountingTransport: OTLPTransport {
        let bytes = Locked<[String: Int]>([:])
        let refusing: Bool
        init(refusing: Bool = false) { self.refusing = refusing }
        func post(_ body: [UInt8], to url: URL, headers: [String: String], timeout: Duration) -> OTLPResponse {
            if refusing { return .failed("collector down (benchmark)") }
            bytes.withLock { $0[url.lastPathComponent, default: 0] += body.count }
            return .status(200, retryAfter: nil)
        }
    }

    static func configuration() -> OTLPConfiguration {
        var config = try! OTLPConfiguration(endpoint: "http://127.0.0.1:4318")
        config.scheduleDelay = .milliseconds(200)
        return config
    }

    /// One router lifetime: the framework's event mix of one cycle (as the emit benchmark's).
    static func cycle(_ tracer: Tracer, _ i: UInt64, location: CodeLocation) {
        let id = i &* 4 &+ 2
        tracer.emit(.interactorCreated(id: id, type: "HomeInteractor"))
        tracer.emit(.routerCreated(id: id + 1, type: "HomeRouter", interactor: id, interactorType: "HomeInteractor"), at: location)
        tracer.emit(.attach(parent: 1, child: id + 1), at: location)
        tracer.emit(.activate(interactor: id))
        tracer.emit(.taskStart(task: id + 2, owner: id, label: "updates"), at: location)
        tracer.emit(.load(router: id + 1))
        tracer.emit(.detach(parent: 1, child: id + 1), at: location)
        tracer.emit(.deactivate(interactor: id))
        tracer.emit(.taskCancel(task: id + 2))
        tracer.emit(.taskEnd(task: id + 2, outcome: .cancelled))
        tracer.emit(.deallocated(id: id + 1))
        tracer.emit(.deallocated(id: id))
    }

    /// A tracer whose tree has a launched root (router 1) for the cycles to attach to.
    static func tracer(_ sink: any TraceSink, capacity: Int) -> Tracer {
        let tracer = Tracer(sink: sink, app: "napkin-bench", capacity: capacity)
        tracer.emit(.routerCreated(id: 1, type: "RootRouter", interactor: 0, interactorType: "RootInteractor"))
        tracer.emit(.launch(router: 1))
        return tracer
    }

    static func run(cycles: Int, rounds: Int, outageSeconds: Int) {
        let location = CodeLocation(fileID: "Bench/OTLPBenchmark.swift", line: 42)
        let events = cycles * 12
        print("OTLP exporter: \(cycles) router lifetimes (\(events) events) per round, \(rounds) rounds")
        var results: [(String, Double, Double)] = []
        var bytesPerLifetime: [String: Double] = [:]
        var exporterDrops = 0
        for contender in ["ndjson", "otlp"] {
            let transport = CountingTransport()
            let exporter: OTLPExporter?
            let sink: any TraceSink
            if contender == "ndjson" {
                sink = try! NDJSONTraceSink(path: "/dev/null")
                exporter = nil
            } else {
                var config = configuration()
                // A queue that holds a round's spans: the figure is the work, not the drops.
                config.maxQueueSize = cycles * 3 + 1_024
                let made = OTLPExporter(configuration: config, resource: [], transport: transport)
                sink = OTLPTraceSink(configuration: config, exporter: made)
                exporter = made
            }
            let tracer = Self.tracer(sink, capacity: events + 1_024)
            for i in 0..<UInt64(cycles) { cycle(tracer, i, location: location) }
            tracer.flush()
            _ = exporter?.flush(within: .seconds(60))
            let warm = transport.bytes.withLock { $0 }
            var wall: [Double] = [], cpu: [Double] = []
            for round in 0..<rounds {
                let w0 = now(), c0 = cpuTime()
                let base = UInt64((round + 1) * cycles)
                for i in 0..<UInt64(cycles) { cycle(tracer, base + i, location: location) }
                let w1 = now()
                tracer.flush()
                _ = exporter?.flush(within: .seconds(60))
                let c1 = cpuTime()
                wall.append(Double(w1 - w0) / Double(events))
                cpu.append(Double(c1 - c0) / Double(events))
            }
            let sent = transport.bytes.withLock { $0 }
            for (signal, total) in sent {
                bytesPerLifetime[signal] = Double(total - (warm[signal] ?? 0)) / Double(cycles * rounds)
            }
            exporterDrops = exporter?.statistics.droppedSpans ?? exporterDrops
            tracer.shutdown(reason: "benchmark")
            results.append((contender, median(wall), median(cpu)))
        }
        let ndjson = results[0], otlp = results[1]
        print(String(format: "  caller:  NDJSON %6.1f ns/event, OTLP %6.1f ns/event (%.2fx)", ndjson.1, otlp.1, otlp.1 / ndjson.1))
        print(String(format: "  process: NDJSON %6.1f ns CPU/event, OTLP %6.1f ns CPU/event (%.2fx; the mapping, JSON and sending on the writer and exporter threads)",
                     ndjson.2, otlp.2, otlp.2 / ndjson.2))
        let spans = bytesPerLifetime["traces"] ?? 0
        let logs = bytesPerLifetime["logs"] ?? 0
        print(String(format: "  bytes on the wire per router lifetime: %.0f (traces %.0f, logs %.0f; metrics are per interval, not per router); exporter drops %d",
                     spans + logs, spans, logs, exporterDrops))
        print(String(format: "OTLP_CALLER_RATIO %.2f", otlp.1 / ndjson.1))
        print(String(format: "OTLP_CPU_RATIO %.2f", otlp.2 / ndjson.2))
        print(String(format: "OTLP_BYTES_PER_ROUTER %.0f", spans + logs))
        outage(seconds: outageSeconds, location: location)
    }

    /// Router lifetimes at 1,000 a second (12,000 events/s) while the collector refuses everything for `seconds`.
    static func outage(seconds: Int, location: CodeLocation) {
        let transport = CountingTransport(refusing: true)
        let config = configuration()
        let exporter = OTLPExporter(configuration: config, resource: [], transport: transport)
        let sink = OTLPTraceSink(configuration: config, exporter: exporter)
        let tracer = Self.tracer(sink, capacity: 65_536)
        let before = residentKiB()
        var peak = before
        let start = now()
        var i: UInt64 = 0
        while now() - start < UInt64(seconds) * 1_000_000_000 {
            for _ in 0..<100 {
                cycle(tracer, i, location: location)
                i += 1
            }
            Thread.sleep(forTimeInterval: 0.1)
            peak = max(peak, residentKiB())
        }
        let statistics = exporter.statistics
        let queued = exporter.queuedCounts
        tracer.flush()
        exporter.shutdown(within: .milliseconds(100))
        print("  outage: \(seconds) s, \(i) router lifetimes (\(i * 12) events), every request refused")
        print("    resident memory: \(before / 1024) MiB before, peak \(peak / 1024) MiB during (+\(max(peak - before, 0)) KiB)")
        print("    exporter: \(queued.spans) spans queued (the bound: \(config.maxQueueSize)), \(statistics.droppedSpans) dropped and counted, \(statistics.retries) requests to retry")
        print("OTLP_OUTAGE_PEAK_DELTA_KIB \(max(peak - before, 0))")
    }

    /// Resident memory now (KiB): `VmRSS` on Linux; the peak (`ru_maxrss`) elsewhere.
    static func residentKiB() -> Int {
        #if os(Linux)
        if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
           let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
           let kib = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") {
            return kib
        }
        #endif
        return ReaderBenchmark.peakOfThisImage()
    }
}
