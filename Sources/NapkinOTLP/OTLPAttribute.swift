/// One OTLP attribute (`KeyValue`): a key and a string, integer, boolean,
/// double or string-array value, and how it is written in OTLP/JSON
/// (`{"key":…,"value":{"stringValue":…}}`, integers as strings).
///
/// Every value is bounded when it is made (``OTLPLimits``): a hostile or
/// huge type name, label or mark costs the payload at most the limit.
public struct OTLPAttribute: Sendable, Hashable {
    /// An attribute's value (`AnyValue`, the kinds napkin writes).
    public enum Value: Sendable, Hashable {
        /// `stringValue`.
        case string(String)
        /// `intValue` (written as a JSON string, as OTLP/JSON writes 64-bit integers).
        case int(Int64)
        /// `boolValue`.
        case bool(Bool)
        /// `doubleValue`.
        case double(Double)
        /// `arrayValue` of `stringValue`s.
        case strings([String])
    }

    /// The attribute's name, e.g. `code.file.path`.
    public var key: String
    /// Its value.
    public var value: Value

    /// Creates an attribute (unbounded: see ``OTLPLimits/bounded(_:)``).
    public init(_ key: String, _ value: Value) {
        self.key = key
        self.value = value
    }

    /// Writes `{"key":…,"value":{…}}`.
    func write(to json: inout OTLPJSON) {
        json.beginObject()
        json.member("key", key)
        json.key("value")
        Self.write(value, to: &json)
        json.endObject()
    }

    /// Writes an `AnyValue` object.
    static func write(_ value: Value, to json: inout OTLPJSON) {
        json.beginObject()
        switch value {
        case .string(let text): json.member("stringValue", text)
        case .int(let number): json.key("intValue"); json.int64(number)
        case .bool(let flag): json.key("boolValue"); json.bool(flag)
        case .double(let number): json.key("doubleValue"); json.double(number)
        case .strings(let texts):
            json.key("arrayValue")
            json.beginObject()
            json.key("values")
            json.beginArray()
            for text in texts {
                json.beginObject()
                json.member("stringValue", text)
                json.endObject()
            }
            json.endArray()
            json.endObject()
        }
        json.endObject()
    }

    /// Writes `"attributes":[…]` (nothing for none).
    static func write(_ attributes: [OTLPAttribute], to json: inout OTLPJSON) {
        guard !attributes.isEmpty else { return }
        json.key("attributes")
        json.beginArray()
        for attribute in attributes { attribute.write(to: &json) }
        json.endArray()
    }
}

/// The bounds every name and value the exporter writes is held to, so that
/// hostile or huge input (a type name of a megabyte, a mark per
/// millisecond) keeps each span, log record and payload bounded.
public struct OTLPLimits: Sendable, Hashable {
    /// The most UTF-8 bytes of a string value (`OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT`;
    /// napkin's default 1,024): a longer one is cut at a character boundary and ends in `…`.
    public var valueLength: Int
    /// The most UTF-8 bytes of a span's name or a log record's body (256 and 4,096).
    public var nameLength = 256
    /// The most UTF-8 bytes of a log record's body.
    public var bodyLength = 4_096
    /// The most elements of an array value (a finding's retainer paths).
    public var arrayCount = 16
    /// The most events on one span (`OTEL_SPAN_EVENT_COUNT_LIMIT`, 128): later ones are counted, not kept.
    public var eventsPerSpan: Int
    /// The most distinct type names the population metrics keep apart
    /// (beyond it, one series named ``overflowType``).
    public var metricTypes = 1_000
    /// The most routers, interactors and tasks whose spans are open at once
    /// (beyond it, new ones are counted as dropped spans).
    public var openSpans = 100_000

    /// The type name the population metrics use beyond ``metricTypes``.
    public static let overflowType = "(other types)"

    /// The defaults.
    public init(valueLength: Int = 1_024, eventsPerSpan: Int = 128) {
        self.valueLength = max(valueLength, 16)
        self.eventsPerSpan = max(eventsPerSpan, 0)
    }

    /// `text` cut to `limit` UTF-8 bytes at a character boundary, ending in `…` when cut.
    public static func truncated(_ text: String, to limit: Int) -> String {
        guard text.utf8.count > limit else { return text }
        let ellipsis = "…"
        let room = max(limit - ellipsis.utf8.count, 0)
        var end = text.utf8.index(text.utf8.startIndex, offsetBy: room)
        // Back off to the start of a character (never split a scalar or a grapheme).
        while end > text.startIndex, text.utf8[end...].first.map({ $0 & 0xC0 == 0x80 }) == true {
            end = text.utf8.index(before: end)
        }
        let head = String(text.utf8[..<end]) ?? String(decoding: Array(text.utf8[..<end]), as: UTF8.self)
        return head + ellipsis
    }

    /// `attribute` with its value held to the limits.
    public func bounded(_ attribute: OTLPAttribute) -> OTLPAttribute {
        var out = attribute
        out.key = Self.truncated(attribute.key, to: nameLength)
        switch attribute.value {
        case .string(let text): out.value = .string(Self.truncated(text, to: valueLength))
        case .strings(let texts): out.value = .strings(texts.prefix(arrayCount).map { Self.truncated($0, to: valueLength) })
        case .int, .bool, .double: break
        }
        return out
    }
}
