// Reading Swift symbol names for `CreationSite`: the module a mangled name
// belongs to, and whether a demangled name is an initializer of one of a
// set of classes. Plain string work, no platform API, so it is the same (and
// tested) everywhere.

/// What `CreationSite` reads from a symbol's names.
enum SwiftSymbol {
    /// The module of a Swift mangled name (`$s8RibHouse13LoggedInRouterC...`
    /// gives `RibHouse`; Darwin's leading underscore is allowed); nil for a
    /// name that is not Swift's or starts with a substitution (the standard library's `$sS...`).
    static func module(ofMangled name: String) -> String? {
        var rest = Substring(name)
        if rest.hasPrefix("_") { rest = rest.dropFirst() }
        guard rest.hasPrefix("$s") else { return nil }
        rest = rest.dropFirst(2)
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        guard let count = Int(digits), count > 0 else { return nil }
        rest = rest.dropFirst(digits.count)
        guard rest.count >= count else { return nil }
        return String(rest.prefix(count))
    }
}

extension SwiftSymbol {
    /// The type a demangled name initializes, unqualified: `LoggedInRouter`
    /// for `RibHouse.LoggedInRouter.__allocating_init(interactor:)`,
    /// `RecordedInteractor` for `variable initialization expression of
    /// RecordedInteractor.lifecycle : Napkin.InteractorLifecycle`; nil for
    /// another function.
    static func initializedType(in name: String) -> String? {
        let property = "variable initialization expression of "
        if let start = name.firstRange(of: property)?.upperBound {
            let owner = name[start...].prefix { $0 != " " }
            guard let dot = owner.lastIndex(of: ".") else { return nil }
            return InitializerNames.unqualified(String(owner[..<dot]))
        }
        for marker in [".__allocating_init", ".init"] {
            guard let range = name.firstRange(of: marker) else { continue }
            let after = name[range.upperBound...].first
            guard after == "(" || after == "<" else { continue }
            let owner = name[..<range.lowerBound].split(separator: " ").last.map(String.init) ?? ""
            return owner.isEmpty ? nil : InitializerNames.unqualified(owner)
        }
        return nil
    }
}

/// The unqualified names of a class and its superclasses (generic
/// arguments dropped), and which demangled symbol names are their initializers.
struct InitializerNames {
    /// `LoggedInRouter`, `ViewableRouter`, `Router`, ...
    let names: [String]

    /// The names of `type`'s class chain (or of `type` alone, if not a class).
    init(of type: Any.Type) {
        var names = [Self.unqualified(String(reflecting: type))]
        if var current: AnyClass = type as? AnyClass {
            while let superclass = _getSuperclass(current) {
                names.append(Self.unqualified(String(reflecting: superclass)))
                current = superclass
            }
        }
        self.names = names
    }

    /// Names given directly (tests).
    init(names: [String]) { self.names = names }

    /// `Module.Outer<Swift.Int>.Inner<A>` gives `Inner`.
    static func unqualified(_ reflected: String) -> String {
        var depth = 0
        var plain = ""
        for character in reflected {
            if character == "<" { depth += 1 } else if character == ">" { depth -= 1 } else if depth == 0 { plain.append(character) }
        }
        return plain.split(separator: ".").last.map(String.init) ?? plain
    }

    /// Whether `symbol` (demangled, with or without its module) is an
    /// initializer of one of the names: `X.init(...)`, `X.__allocating_init(...)`,
    /// `X.init<...>`, or the initial value of a stored property
    /// (`variable initialization expression of X.lifecycle`).
    func matches(_ symbol: String) -> Bool {
        for name in names {
            for suffix in [".init(", ".init<", ".__allocating_init(", ".__allocating_init<"] where Self.contains(symbol, name + suffix) {
                return true
            }
            if symbol.contains("variable initialization expression of"), Self.contains(symbol, name + ".") { return true }
        }
        return false
    }

    /// Whether `text` contains `word` where the character before it (if any)
    /// does not continue an identifier: `Router.init(` is not in `LoggedInRouter.init(`.
    static func contains(_ text: String, _ word: String) -> Bool {
        let text = Array(text.utf8), word = Array(word.utf8)
        guard !word.isEmpty, text.count >= word.count else { return false }
        for start in 0...(text.count - word.count) where text[start..<start + word.count].elementsEqual(word) {
            guard start > 0 else { return true }
            let before = text[start - 1]
            let continuesIdentifier = (before >= 0x30 && before <= 0x39) || (before >= 0x41 && before <= 0x5a)
                || (before >= 0x61 && before <= 0x7a) || before == 0x5f || before >= 0x80
            if !continuesIdentifier { return true }
        }
        return false
    }
}
