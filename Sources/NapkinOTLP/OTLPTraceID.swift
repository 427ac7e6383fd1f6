/// A 128-bit trace id (`traceId`), written as 32 lowercase hex digits.
package struct OTLPTraceID: Sendable, Hashable {
    /// The first 8 bytes.
    package var high: UInt64
    /// The last 8 bytes.
    package var low: UInt64

    /// A trace id of the two halves.
    package init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// 32 lowercase hex digits, as OTLP/JSON writes a trace id.
    package var hex: String { OTLPJSON.hex(high) + OTLPJSON.hex(low) }
}
