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
    /// `name` without the private discriminators a `private` or
    /// `fileprivate` declaration's symbol carries: `Router.(creationLocation
    /// in _30F4…)(file:)` gives `Router.creationLocation(file:)`, and a
    /// private initializer's `FactoryRouter.().init()` (`Runtime`'s simplified
    /// form) or `M.FactoryRouter.() -> M.FactoryRouter(in _464C…).init()`
    /// (`swift_demangle`'s) gives `FactoryRouter.init()` / `M.FactoryRouter.() ->
    /// M.FactoryRouter.init()`, where the initializer is found as any other.
    static func withoutPrivateDiscriminators(_ name: String) -> String {
        guard name.contains("(") else { return name }
        var text = Substring(name)
        var result = ""
        while let open = text.firstIndex(of: "(") {
            result += text[..<open]
            let inside = text[text.index(after: open)...]
            // `(NAME in _HEX)` or `(in _HEX)`.
            if let close = inside.firstIndex(of: ")"), let marker = inside[..<close].firstRange(of: "in _"),
               inside[marker.upperBound..<close].allSatisfy({ $0.isHexDigit }),
               marker.lowerBound == inside.startIndex || inside[inside.index(before: marker.lowerBound)] == " " {
                let declared = inside[..<marker.lowerBound]
                result += declared.hasSuffix(" ") ? declared.dropLast() : declared
                text = inside[inside.index(after: close)...]
            } else {
                result += "("
                text = inside
            }
        }
        result += text
        return result.replacing(".().", with: ".")
    }

    /// The type a demangled name initializes, unqualified: `LoggedInRouter`
    /// for `RibHouse.LoggedInRouter.__allocating_init(interactor:)`,
    /// `RecordedInteractor` for `variable initialization expression of
    /// RecordedInteractor.lifecycle : Napkin.InteractorLifecycle`; nil for
    /// another function.
    static func initializedType(in name: String) -> String? {
        let name = withoutPrivateDiscriminators(name)
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
        let symbol = SwiftSymbol.withoutPrivateDiscriminators(symbol)
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

extension SwiftSymbol {
    /// The function a demangled name names, as a developer writes it, and
    /// its module: `("RibHouse", "LoggedInBuilder.build(withListener:)")`
    /// for `RibHouse.LoggedInBuilder.build(withListener: RibHouse.LoggedInListener)
    /// -> RibHouse.LoggedInRouting` (`swift_demangle`'s form, and `Runtime`'s).
    /// The enclosing function of a closure or a specialization (`closure #1
    /// () -> () in …`, `function signature specialization <…> of …`, an
    /// async function's `suspend resume partial function for …`; `static`
    /// dropped); generic
    /// arguments and parameter types dropped, labels kept (`_:` for none).
    /// What a creation names where only a symbol can be had (`dladdr(3)` on
    /// an iOS device, no line); nil for a name that is not a Swift function's.
    static func function(demangled name: String) -> (module: String, function: String)? {
        // An arrow's `>` is no bracket.
        var text = Substring(withoutPrivateDiscriminators(name).replacing("->", with: "\u{2192}"))
        // The enclosing function: after the last ` in `, ` of ` or ` for ` outside brackets
        // (`closure #1 … in`, `specialization … of`, `suspend resume partial function for`).
        if let cut = lastTopLevel(in: text, of: [" in ", " of ", " for "]) { text = text[cut...] }
        for keyword in ["static ", "class "] where text.hasPrefix(keyword) { text = text.dropFirst(keyword.count) }
        // `Module.Type.name(` up to its parameter list.
        guard let open = firstTopLevel(in: text, "(") else { return nil }
        var path = ""
        var depth = 0
        for character in text[..<open] {
            if character == "<" { depth += 1 } else if character == ">" { depth -= 1 } else if depth == 0 { path.append(character) }
        }
        let components = path.split(separator: ".", omittingEmptySubsequences: false)
        guard components.count >= 2, components.allSatisfy({ !$0.isEmpty && !$0.contains(" ") }) else { return nil }
        // The parameters: up to the matching `)`, split at top-level commas.
        var labels: [String] = []
        var current = ""
        depth = 0
        var closed = false
        for character in text[text.index(after: open)...] {
            if character == "(" || character == "<" || character == "[" { depth += 1 }
            if character == ")" || character == ">" || character == "]" {
                if depth == 0 && character == ")" { closed = true; break }
                depth -= 1
            }
            if depth == 0 && character == "," {
                labels.append(label(of: current))
                current = ""
            } else {
                current.append(character)
            }
        }
        guard closed else { return nil }
        if !current.trimmingSpaces.isEmpty { labels.append(label(of: current)) }
        let name = components.dropFirst().map { $0 == "__allocating_init" ? "init" : String($0) }
        let function = name.joined(separator: ".") + "(" + labels.joined() + ")"
        return (String(components[0]), function)
    }

    /// `withListener:` for `withListener: RibHouse.LoggedInListener`, `_:` for `Swift.Int`.
    private static func label(of parameter: String) -> String {
        let parameter = parameter.trimmingSpaces
        guard let colon = parameter.firstIndex(of: ":"),
              parameter[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }), colon != parameter.startIndex
        else { return "_:" }
        return parameter[..<colon] + ":"
    }

    /// Where the text after the last of `separators` outside brackets starts.
    private static func lastTopLevel(in text: Substring, of separators: [String]) -> Substring.Index? {
        var depth = 0
        var found: Substring.Index?
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character == "(" || character == "<" || character == "[" { depth += 1 }
            if character == ")" || character == ">" || character == "]" { depth -= 1 }
            if depth == 0, character == " ", let separator = separators.first(where: { text[index...].hasPrefix($0) }) {
                found = text.index(index, offsetBy: separator.count)
            }
            index = text.index(after: index)
        }
        return found
    }

    /// The first `character` outside `<…>`.
    private static func firstTopLevel(in text: Substring, _ character: Character) -> Substring.Index? {
        var depth = 0
        for index in text.indices {
            if text[index] == "<" { depth += 1 } else if text[index] == ">" { depth -= 1 } else if depth == 0 && text[index] == character { return index }
        }
        return nil
    }
}

private extension StringProtocol {
    /// Without leading and trailing spaces.
    var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
