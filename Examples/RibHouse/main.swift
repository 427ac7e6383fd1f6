#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import NapkinOTLP
import NapkinTrace

// rib-house: Napkin's Rib House. See README.md and `rib-house --help`.

let command: Command
do {
    command = try Options.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    Console.error(error.message)
    exit(2)
}

switch command {
case .help:
    print(Options.usage)
case .listBugs:
    print(Bug.catalogue)
case .run(let options):
    // Before the tree is built, like NapkinTrace.bootstrap. With OTEL_EXPORTER_OTLP_ENDPOINT set, the
    // visit goes to that collector too, and the detector runs (quietly without --detect) for its findings.
    if !NapkinOTLP.bootstrap(detection: options.detect ? .log : .quiet) && options.detect {
        NapkinDetector.bootstrap(.log)
    }
    let traceSetting = getenv("NAPKIN_TRACE").map { String(cString: $0) }
    let status = await RibHouseApp.run(options, traceSetting: traceSetting)
    exit(status)
}
