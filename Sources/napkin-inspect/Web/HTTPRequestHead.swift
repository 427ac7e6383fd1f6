// One HTTP/1.x request head (request line and header lines), and the pure
// parser that reads it from the bytes a client sent so far: either the head
// is incomplete, or it is complete and well formed, or it is refused with the
// status that says why. No I/O; `WebServer` calls it as bytes arrive.

/// A request head as sent by a client of ``WebServer``.
struct HTTPRequestHead: Equatable, Sendable {
    /// The longest request line accepted (without its line end): longer gets 414.
    static let maxRequestLineBytes = 8 << 10
    /// The longest head accepted (request line, header lines and the empty
    /// line that ends it): longer gets 431.
    static let maxHeadBytes = 32 << 10
    /// The most header lines accepted: more get 431.
    static let maxHeaderLines = 100

    /// The method, as sent (methods are case-sensitive: `get` is not `GET`).
    var method: String
    /// The path of the request target, without its query (`/events?x=1` is `/events`).
    var path: String
    /// The minor version: 0 for HTTP/1.0, 1 for HTTP/1.1.
    var minorVersion: Int
    /// The header fields in order: names lowercased, values without surrounding blanks.
    var fields: [(name: String, value: String)]

    /// The values of every field named `name` (lowercase).
    func values(of name: String) -> [String] {
        fields.filter { $0.name == name }.map(\.value)
    }

    static func == (lhs: HTTPRequestHead, rhs: HTTPRequestHead) -> Bool {
        lhs.method == rhs.method && lhs.path == rhs.path && lhs.minorVersion == rhs.minorVersion
            && lhs.fields.elementsEqual(rhs.fields) { $0.name == $1.name && $0.value == $1.value }
    }

    /// What the bytes received so far make of a request head.
    enum Parse: Equatable, Sendable {
        /// No whole head yet, and nothing wrong so far: read on.
        case incomplete
        /// A whole, well-formed head.
        case complete(HTTPRequestHead)
        /// A head that cannot be served: answer `status`, saying `message` (one line).
        case refused(WebStatus, String)
    }

    /// Reads the head at the start of `bytes` (everything a client sent so
    /// far). Lines end with CRLF or a bare LF; the head ends at the first empty
    /// line. Refused: a request line over ``maxRequestLineBytes`` (414), a
    /// head over ``maxHeadBytes`` or with over ``maxHeaderLines`` header
    /// lines (431), a malformed request line or header line (400: fields
    /// folded over lines, control characters, a bare CR, a target that is not
    /// a path), a version other than HTTP/1.0 and 1.1 (505).
    static func parse(_ bytes: [UInt8]) -> Parse {
        guard let firstEnd = bytes.firstIndex(of: lf) else {
            return bytes.count > maxRequestLineBytes
                ? .refused(.uriTooLong, "the request line is longer than \(maxRequestLineBytes) bytes")
                : .incomplete
        }
        let requestLine = lineContent(bytes, 0, firstEnd)
        guard requestLine.count <= maxRequestLineBytes else {
            return .refused(.uriTooLong, "the request line is longer than \(maxRequestLineBytes) bytes")
        }
        var lines: [ArraySlice<UInt8>] = []
        var start = firstEnd + 1
        var headEnd: Int?
        while let end = bytes[start...].firstIndex(of: lf) {
            let line = lineContent(bytes, start, end)
            if line.isEmpty {
                headEnd = end + 1
                break
            }
            lines.append(line)
            guard lines.count <= maxHeaderLines else {
                return .refused(.headerFieldsTooLarge, "the request has more than \(maxHeaderLines) header lines")
            }
            start = end + 1
        }
        guard let headEnd else {
            return bytes.count > maxHeadBytes
                ? .refused(.headerFieldsTooLarge, "the request head is longer than \(maxHeadBytes) bytes")
                : .incomplete
        }
        guard headEnd <= maxHeadBytes else {
            return .refused(.headerFieldsTooLarge, "the request head is longer than \(maxHeadBytes) bytes")
        }
        return parseComplete(requestLine: requestLine, fieldLines: lines)
    }

    // MARK: - The parts

    private static let lf: UInt8 = 0x0A
    private static let cr: UInt8 = 0x0D
    private static let space: UInt8 = 0x20
    private static let tab: UInt8 = 0x09

    /// The line from `start` to the LF at `end`, without a CR right before the LF.
    private static func lineContent(_ bytes: [UInt8], _ start: Int, _ end: Int) -> ArraySlice<UInt8> {
        end > start && bytes[end - 1] == cr ? bytes[start..<(end - 1)] : bytes[start..<end]
    }

    private static func parseComplete(requestLine: ArraySlice<UInt8>, fieldLines: [ArraySlice<UInt8>]) -> Parse {
        let parts = requestLine.split(separator: space, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy(isTokenByte) else {
            return .refused(.badRequest, "malformed request line; send 'METHOD /path HTTP/1.1'")
        }
        guard !parts[1].isEmpty, parts[1].allSatisfy({ $0 > space && $0 < 0x7F }) else {
            return .refused(.badRequest, "malformed request target; send a path such as /")
        }
        guard let minor = minorVersion(parts[2]) else {
            return .refused(.badRequest, "malformed HTTP version; send HTTP/1.1")
        }
        guard parts[1].first == UInt8(ascii: "/") else {
            return .refused(.badRequest, "the request target is not a path; send a path such as /")
        }
        var fields: [(name: String, value: String)] = []
        for line in fieldLines {
            guard let field = field(line) else {
                return .refused(.badRequest, "malformed header line; send 'Name: value' lines")
            }
            fields.append(field)
        }
        guard let minor, minor <= 1 else {
            return .refused(.versionNotSupported, "only HTTP/1.0 and HTTP/1.1 are served")
        }
        var target = parts[1]
        if let cut = target.firstIndex(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) {
            target = target[..<cut]
        }
        return .complete(HTTPRequestHead(method: String(decoding: parts[0], as: UTF8.self),
                                         path: String(decoding: target, as: UTF8.self),
                                         minorVersion: minor, fields: fields))
    }

    /// The version of `HTTP/D.D`: `.some(minor)` for major 1, `.some(nil)`
    /// for any other well-formed version, `nil` when malformed.
    private static func minorVersion(_ bytes: ArraySlice<UInt8>) -> Int?? {
        let text = Array(bytes)
        guard text.count == 8, text.starts(with: Array("HTTP/".utf8)), isDigit(text[5]), text[6] == UInt8(ascii: "."),
              isDigit(text[7]) else { return nil }
        return .some(text[5] == UInt8(ascii: "1") ? Int(text[7] - UInt8(ascii: "0")) : nil)
    }

    /// A header line as a field, or nil when malformed (no colon, an empty or
    /// invalid name, a blank before the colon or at the start of the line,
    /// control characters in the value).
    private static func field(_ line: ArraySlice<UInt8>) -> (name: String, value: String)? {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        let name = line[line.startIndex..<colon]
        guard !name.isEmpty, name.allSatisfy(isTokenByte) else { return nil }
        var value = line[(colon + 1)...]
        guard value.allSatisfy({ $0 == tab || ($0 >= space && $0 != 0x7F) }) else { return nil }
        while let first = value.first, first == space || first == tab { value = value.dropFirst() }
        while let last = value.last, last == space || last == tab { value = value.dropLast() }
        return (String(decoding: name, as: UTF8.self).lowercased(), String(decoding: value, as: UTF8.self))
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    /// Whether `byte` may appear in a token (a method or a field name, RFC 9110 `tchar`).
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }
}
