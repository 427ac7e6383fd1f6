/// The JSON an HTML report embeds, written by hand: no spaces, integers,
/// and the structure (commas between values, keys) kept track of here, the
/// values written by ``JSONBytes`` (which escapes `<`, `>`, `&`, the
/// controls, the bidi controls and the line separators, so that no
/// `</script>` or `<!--` in a type name can end the `<script>` element early).
///
/// A trace of a million events gives some ten megabytes of it, several times
/// faster than `JSONEncoder` and in one buffer.
struct ReportJSON {
    /// The bytes so far (never flushed: the caller takes the whole ``text``).
    private var out = JSONBytes { _ in }
    /// Whether the next value needs a comma before it, per open container.
    private var needsComma: [Bool] = [false]
    /// Set by ``key(_:)``: the value written next completes a member.
    private var pendingMember = false

    /// An empty text.
    init() {}

    /// The text so far.
    var text: String { String(decoding: out.bytes, as: UTF8.self) }

    /// Opens an array (`[`).
    mutating func openArray() {
        beginValue()
        out.raw("[")
        needsComma.append(false)
    }

    /// Closes the innermost array.
    mutating func closeArray() {
        needsComma.removeLast()
        out.raw("]")
    }

    /// Opens an object (`{`); its members are written with ``key(_:)`` then a value.
    mutating func openObject() {
        beginValue()
        out.raw("{")
        needsComma.append(false)
    }

    /// Closes the innermost object.
    mutating func closeObject() {
        needsComma.removeLast()
        out.raw("}")
    }

    /// Writes a member's key; the next value written is its value.
    mutating func key(_ name: String) {
        separate()
        out.string(name)
        out.raw(":")
        pendingMember = true
    }

    /// Writes an integer.
    mutating func number(_ value: some BinaryInteger) {
        beginValue()
        if value < 0 { out.number(Int(value)) } else { out.number(UInt64(value)) }
    }

    /// Writes an integer, or `-1` for nil (the report's "never" / "still open").
    mutating func number(orMinusOne value: UInt64?) {
        if let value { number(value) } else { number(-1) }
    }

    /// Writes a string.
    mutating func string(_ value: String) {
        beginValue()
        out.string(value)
    }

    /// Writes `null` for nil, else the string.
    mutating func string(orNull value: String?) {
        if let value {
            string(value)
        } else {
            beginValue()
            out.raw("null")
        }
    }

    /// Writes `true` or `false`.
    mutating func bool(_ value: Bool) {
        beginValue()
        out.bool(value)
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

    /// Writes the key of a schema field (``ReportSchema``).
    mutating func key(_ field: some RawRepresentable<String>) {
        key(field.rawValue)
    }

    /// Writes `field: string`.
    mutating func member(_ field: some RawRepresentable<String>, _ value: String) {
        member(field.rawValue, value)
    }

    /// Writes `field: number`.
    mutating func member(_ field: some RawRepresentable<String>, _ value: some BinaryInteger) {
        member(field.rawValue, value)
    }

    /// Writes an array of strings.
    mutating func strings(_ values: some Sequence<String>) {
        openArray()
        for value in values { string(value) }
        closeArray()
    }

    /// Writes a table (``ReportSchema``): an object with one array per
    /// column of `Column`, in its order, each holding `value(column, row)`
    /// for every row.
    mutating func table<Column: CaseIterable & RawRepresentable<String>, Rows: Collection>(
        _: Column.Type, rows: Rows, _ value: (inout ReportJSON, Column, Rows.Element) -> Void
    ) {
        openObject()
        for column in Column.allCases {
            key(column)
            openArray()
            for row in rows { value(&self, column, row) }
            closeArray()
        }
        closeObject()
    }

    /// The separator a value needs: none right after a key, else a comma between elements.
    private mutating func beginValue() {
        if pendingMember {
            pendingMember = false
        } else {
            separate()
        }
    }

    /// Writes the comma that separates this value or member from the previous one.
    private mutating func separate() {
        if needsComma[needsComma.count - 1] { out.raw(",") } else { needsComma[needsComma.count - 1] = true }
    }
}
