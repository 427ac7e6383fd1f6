/// A short run of bytes the fast path expects at a given place of a line
/// (a key with its punctuation, an event name with its closing quote), as
/// little-endian words, so that matching it takes one or two word compares.
///
/// `first` holds the first eight bytes (zero-padded), `last` the last eight
/// (for a literal longer than eight bytes; they overlap), `count` the length.
/// The constants below are the bytes of the text in their doc comment;
/// `WireLiteralTests` checks each against it.
struct WireLiteral: Sendable {
    /// The first eight bytes, little-endian (zero beyond ``count``).
    let first: UInt64
    /// The last eight bytes, little-endian, when ``count`` is above 8.
    let last: UInt64
    /// How many bytes.
    let count: Int

    @inline(__always)
    init(_ first: UInt64, _ last: UInt64, _ count: Int) {
        self.first = first
        self.last = last
        self.count = count
    }

    /// The literal spelling `text` (at most 16 bytes), for tests.
    init(spelling text: String) {
        let bytes = Array(text.utf8)
        precondition(bytes.count <= 16, "a wire literal is at most 16 bytes")
        func word(_ part: ArraySlice<UInt8>) -> UInt64 {
            part.enumerated().reduce(0) { $0 | UInt64($1.element) << (8 * $1.offset) }
        }
        self.init(word(bytes.prefix(8)), bytes.count > 8 ? word(bytes.suffix(8)) : 0, bytes.count)
    }
}

extension WireLiteral {
    /// `{"seq":`
    @inline(__always) static var seqKey: WireLiteral { WireLiteral(0x003A22716573227B, 0x0000000000000000, 7) }
    /// `,"t":`
    @inline(__always) static var tKey: WireLiteral { WireLiteral(0x0000003A2274222C, 0x0000000000000000, 5) }
    /// `,"ev":"`
    @inline(__always) static var evKey: WireLiteral { WireLiteral(0x00223A227665222C, 0x0000000000000000, 7) }
    /// `attach"`
    @inline(__always) static var attach: WireLiteral { WireLiteral(0x0022686361747461, 0x0000000000000000, 7) }
    /// `detach"`
    @inline(__always) static var detach: WireLiteral { WireLiteral(0x0022686361746564, 0x0000000000000000, 7) }
    /// `activate"`
    @inline(__always) static var activate: WireLiteral { WireLiteral(0x6574617669746361, 0x2265746176697463, 9) }
    /// `deactivate"`
    @inline(__always) static var deactivate: WireLiteral { WireLiteral(0x6176697463616564, 0x2265746176697463, 11) }
    /// `load"`
    @inline(__always) static var load: WireLiteral { WireLiteral(0x0000002264616F6C, 0x0000000000000000, 5) }
    /// `launch"`
    @inline(__always) static var launch: WireLiteral { WireLiteral(0x002268636E75616C, 0x0000000000000000, 7) }
    /// `deinit"`
    @inline(__always) static var deinitName: WireLiteral { WireLiteral(0x002274696E696564, 0x0000000000000000, 7) }
    /// `view"`
    @inline(__always) static var view: WireLiteral { WireLiteral(0x0000002277656976, 0x0000000000000000, 5) }
    /// `task_start"`
    @inline(__always) static var taskStart: WireLiteral { WireLiteral(0x6174735F6B736174, 0x2274726174735F6B, 11) }
    /// `task_cancel"`
    @inline(__always) static var taskCancel: WireLiteral { WireLiteral(0x6E61635F6B736174, 0x226C65636E61635F, 12) }
    /// `task_end"`
    @inline(__always) static var taskEnd: WireLiteral { WireLiteral(0x646E655F6B736174, 0x22646E655F6B7361, 9) }
    /// `hook_end"`
    @inline(__always) static var hookEnd: WireLiteral { WireLiteral(0x646E655F6B6F6F68, 0x22646E655F6B6F6F, 9) }
    /// `interactor"`
    @inline(__always) static var interactor: WireLiteral { WireLiteral(0x7463617265746E69, 0x22726F7463617265, 11) }
    /// `router"`
    @inline(__always) static var router: WireLiteral { WireLiteral(0x0022726574756F72, 0x0000000000000000, 7) }
    /// `mark"`
    @inline(__always) static var mark: WireLiteral { WireLiteral(0x000000226B72616D, 0x0000000000000000, 5) }
    /// `,"parent":`
    @inline(__always) static var parentKey: WireLiteral { WireLiteral(0x746E65726170222C, 0x3A22746E65726170, 10) }
    /// `,"child":`
    @inline(__always) static var childKey: WireLiteral { WireLiteral(0x22646C696863222C, 0x3A22646C69686322, 9) }
    /// `,"id":`
    @inline(__always) static var idKey: WireLiteral { WireLiteral(0x00003A226469222C, 0x0000000000000000, 6) }
    /// `,"state":"`
    @inline(__always) static var stateKey: WireLiteral { WireLiteral(0x226574617473222C, 0x223A226574617473, 10) }
    /// `,"task":`
    @inline(__always) static var taskKey: WireLiteral { WireLiteral(0x3A226B736174222C, 0x0000000000000000, 8) }
    /// `,"owner":`
    @inline(__always) static var ownerKey: WireLiteral { WireLiteral(0x2272656E776F222C, 0x3A2272656E776F22, 9) }
    /// `,"label":"`
    @inline(__always) static var labelKey: WireLiteral { WireLiteral(0x226C6562616C222C, 0x223A226C6562616C, 10) }
    /// `,"outcome":"`
    @inline(__always) static var outcomeKey: WireLiteral { WireLiteral(0x6D6F6374756F222C, 0x223A22656D6F6374, 12) }
    /// `,"type":"`
    @inline(__always) static var typeKey: WireLiteral { WireLiteral(0x3A2265707974222C, 0x223A226570797422, 9) }
    /// `,"interactor":`
    @inline(__always) static var interactorKey: WireLiteral { WireLiteral(0x617265746E69222C, 0x3A22726F74636172, 14) }
    /// `,"itype":"`
    @inline(__always) static var itypeKey: WireLiteral { WireLiteral(0x226570797469222C, 0x223A226570797469, 10) }
    /// `,"text":"`
    @inline(__always) static var textKey: WireLiteral { WireLiteral(0x3A2274786574222C, 0x223A227478657422, 9) }
    /// `,"src":"`
    @inline(__always) static var srcKey: WireLiteral { WireLiteral(0x223A22637273222C, 0x0000000000000000, 8) }
    /// `shown"`
    @inline(__always) static var shown: WireLiteral { WireLiteral(0x0000226E776F6873, 0x0000000000000000, 6) }
    /// `covered"`
    @inline(__always) static var covered: WireLiteral { WireLiteral(0x2264657265766F63, 0x0000000000000000, 8) }
    /// `removed"`
    @inline(__always) static var removed: WireLiteral { WireLiteral(0x226465766F6D6572, 0x0000000000000000, 8) }
    /// `completed"`
    @inline(__always) static var completed: WireLiteral { WireLiteral(0x6574656C706D6F63, 0x22646574656C706D, 10) }
    /// `cancelled"`
    @inline(__always) static var cancelled: WireLiteral { WireLiteral(0x656C6C65636E6163, 0x2264656C6C65636E, 10) }

    /// Every literal above, with its text, for tests.
    static var all: [(WireLiteral, String)] {
        [
            (.seqKey, "{\"seq\":"),
            (.tKey, ",\"t\":"),
            (.evKey, ",\"ev\":\""),
            (.attach, "attach\""),
            (.detach, "detach\""),
            (.activate, "activate\""),
            (.deactivate, "deactivate\""),
            (.load, "load\""),
            (.launch, "launch\""),
            (.deinitName, "deinit\""),
            (.view, "view\""),
            (.taskStart, "task_start\""),
            (.taskCancel, "task_cancel\""),
            (.taskEnd, "task_end\""),
            (.interactor, "interactor\""),
            (.router, "router\""),
            (.mark, "mark\""),
            (.parentKey, ",\"parent\":"),
            (.childKey, ",\"child\":"),
            (.idKey, ",\"id\":"),
            (.stateKey, ",\"state\":\""),
            (.taskKey, ",\"task\":"),
            (.ownerKey, ",\"owner\":"),
            (.labelKey, ",\"label\":\""),
            (.outcomeKey, ",\"outcome\":\""),
            (.typeKey, ",\"type\":\""),
            (.interactorKey, ",\"interactor\":"),
            (.itypeKey, ",\"itype\":\""),
            (.textKey, ",\"text\":\""),
            (.srcKey, ",\"src\":\""),
            (.shown, "shown\""),
            (.covered, "covered\""),
            (.removed, "removed\""),
            (.completed, "completed\""),
            (.cancelled, "cancelled\""),
        ]
    }
}
