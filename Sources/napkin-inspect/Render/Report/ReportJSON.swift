/// A compact JSON text written by hand, for the data an HTML report embeds:
/// no spaces, numbers as integers, and every string safe inside an HTML
/// `<script>` element.
///
/// A trace of a million events gives a report of some ten megabytes of
/// JSON; building it as text is several times faster than `JSONEncoder` and
/// keeps a single buffer. Strings come from the trace (type names, labels,
/// marks) and may be hostile: besides what JSON requires (`"`, `\`, the C0
/// controls), `<`, `>` and `&` are written as `\u003c`, `\u003e`, `\u0026`, so
/// that no `</script>` or `<!--` can end the element early, and DEL, the C1
/// controls, the bidi controls and U+2028/U+2029 are escaped as well
/// (``PrintableText/needsEscape(_:)``), so that the page's source shows
/// nothing a reader's editor or terminal would act on.
struct ReportJSON {
    /// The text so far.
    private(set) var text = ""
    /// Whether the next value needs a comma before it, per open container.
    private var needsComma: [Bool] = [false]

    /// An empty text, with room for about `capacity` bytes.
    init(capacity: Int = 4096) {
        text.reserveCapacity(capacity)
    }

    /// Writes the comma that separates this value from the previous one.
    private mutating func separate() {
        if needsComma[needsComma.count - 1] { text += "," } else { needsComma[needsComma.count - 1] = true }
    }

    /// Opens an array (`[`).
    mutating func openArray() {
        beginValue()
        text += "["
        needsComma.append(false)
    }

    /// Closes the innermost array.
    mutating func closeArray() {
        needsComma.removeLast()
        text += "]"
    }

    /// Opens an object (`{`); its members are written with ``key(_:)`` then a value.
    mutating func openObject() {
        beginValue()
        text += "{"
        needsComma.append(false)
    }

    /// Closes the innermost object.
    mutating func closeObject() {
        needsComma.removeLast()
        text += "}"
    }

    /// Writes a member's key; the next value written is its value.
    mutating func key(_ name: String) {
        separate()
        appendQuoted(name)
        text += ":"
        pendingMember = true
    }

    /// Set by ``key(_:)``: the value written next completes a member.
    private var pendingMember = false

    /// Writes an integer.
    mutating func number(_ value: some BinaryInteger) {
        self.value(String(value))
    }

    /// Writes an integer, or `-1` for nil (the report's "never" / "still open").
    mutating func number(orMinusOne value: UInt64?) {
        if let value { number(value) } else { self.value("-1") }
    }

    /// Writes a string.
    mutating func string(_ value: String) {
        beginValue()
        appendQuoted(value)
    }

    /// Writes `null` for nil, else the string.
    mutating func string(orNull value: String?) {
        if let value { string(value) } else { self.value("null") }
    }

    /// Writes `true` or `false`.
    mutating func bool(_ value: Bool) {
        self.value(value ? "true" : "false")
    }

    /// Writes `key: string`.
    mutating func member(_ name: String, _ value: String) {
        key(name)
        string(value)
    }

    /// Writes `key: number`.
    mutating func member(_ name: String, _ value: some BinaryInteger) {
        key(name)
        number(value)
    }

    /// Writes `json`, a complete value another ``ReportJSON`` wrote, as the next value.
    mutating func raw(_ json: String) {
        value(json)
    }

    /// Writes a literal value (a number or a keyword) after its separator.
    private mutating func value(_ literal: String) {
        beginValue()
        text += literal
    }

    /// The separator a value needs: none right after a key, else a comma between elements.
    private mutating func beginValue() {
        if pendingMember {
            pendingMember = false
        } else {
            separate()
        }
    }

    /// `value` in quotes, escaped (see the type's documentation). Most
    /// strings need no escape and are appended whole.
    private mutating func appendQuoted(_ value: String) {
        text += "\""
        if value.unicodeScalars.contains(where: { Self.escape($0) != nil }) {
            var escaped = ""
            escaped.reserveCapacity(value.utf8.count + 16)
            for scalar in value.unicodeScalars {
                if let escape = Self.escape(scalar) { escaped += escape } else { escaped.unicodeScalars.append(scalar) }
            }
            text += escaped
        } else {
            text += value
        }
        text += "\""
    }

    /// The escape for `scalar`, or nil when it is written as it is.
    static func escape(_ scalar: Unicode.Scalar) -> String? {
        switch scalar {
        case "\"": return "\\\""
        case "\\": return "\\\\"
        case "\n": return "\\n"
        case "\t": return "\\t"
        case "\r": return "\\r"
        case "<", ">", "&": return hex(scalar)
        default: return PrintableText.needsEscape(scalar) ? hex(scalar) : nil
        }
    }

    /// `\uXXXX` for a scalar of the Basic Multilingual Plane.
    private static func hex(_ scalar: Unicode.Scalar) -> String {
        let digits = String(scalar.value, radix: 16)
        return "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
    }
}

