/// Numbers for ``JSONScanner``: what a number turned out to be, and reading
/// one exactly (integers written with a fraction or an exponent included).
extension JSONScanner {
    /// What a number turned out to be.
    enum Number {
        /// A non-negative integer (possibly written as `12.0` or `1.2e3`).
        case unsigned(UInt64)
        /// A negative integer.
        case negative(magnitude: UInt64)
        /// A number with a fractional part.
        case fraction
        /// An integer beyond 64 bits.
        case tooLarge
    }

    /// Reads a number. Integral values written with a fraction or an exponent
    /// (`12.0`, `1.5e3`, as jq and other tools write them) are integers.
    mutating func readNumber() throws(JSONError) -> Number {
        let start = i
        let negative = bytes[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        let integerStart = i
        skipDigits()
        let integerEnd = i
        var fractionStart = i, fractionEnd = i
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            fractionStart = i
            skipDigits()
            fractionEnd = i
        }
        let exponent = try readExponent(numberStart: start)
        guard integerEnd > integerStart else { throw JSONError("malformed number at column \(start + 1)") }
        let digits = NumberDigits(integerStart: integerStart, integerEnd: integerEnd, fractionStart: fractionStart, fractionEnd: fractionEnd)
        return numberValue(of: digits, exponent: exponent, negative: negative)
    }

    // MARK: - Parts of a number

    /// Where a number's digits stand in ``bytes``: its integer part, then its fraction's (empty without one).
    private struct NumberDigits {
        /// The integer part's first digit, and the index after its last.
        var integerStart: Int, integerEnd: Int
        /// The fraction's first digit, and the index after its last.
        var fractionStart: Int, fractionEnd: Int
    }

    /// Moves the cursor past the decimal digits it is on.
    @inline(__always)
    private mutating func skipDigits() {
        while i < bytes.count, bytes[i] &- 48 <= 9 { i += 1 }
    }

    /// Reads the exponent (`e5`, `E-2`) at the cursor of the number that
    /// starts at `start`; 0 when there is none.
    @inline(__always)
    private mutating func readExponent(numberStart start: Int) throws(JSONError) -> Int {
        guard i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") else { return 0 }
        i += 1
        var sign = 1
        if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") {
            if bytes[i] == UInt8(ascii: "-") { sign = -1 }
            i += 1
        }
        let exponentStart = i
        var exponent = 0
        while i < bytes.count, bytes[i] &- 48 <= 9 {
            exponent = min(exponent * 10 + Int(bytes[i] - 48), 100_000)
            i += 1
        }
        guard i > exponentStart else { throw JSONError("malformed number at column \(start + 1)") }
        return exponent * sign
    }

    /// The number that `digits` × 10^`exponent` make, negated when `negative`.
    @inline(__always)
    private func numberValue(of digits: NumberDigits, exponent: Int, negative: Bool) -> Number {
        // The digits, integer part then fraction, stand for digits × 10^shift:
        // the value is an integer when every digit that shifting moves past
        // the decimal point is zero.
        let integerCount = digits.integerEnd - digits.integerStart
        let total = integerCount + (digits.fractionEnd - digits.fractionStart)
        func digit(_ k: Int) -> UInt64 {
            UInt64(bytes[k < integerCount ? digits.integerStart + k : digits.fractionStart + k - integerCount] - 48)
        }
        let shift = exponent - (digits.fractionEnd - digits.fractionStart)
        var keep = total
        if shift < 0 {
            keep = max(0, total + shift)
            for k in keep..<total where digit(k) != 0 { return .fraction }
        }
        var value: UInt64 = 0
        for k in 0..<keep {
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (a, o2) = m.addingReportingOverflow(digit(k))
            if o1 || o2 { return .tooLarge }
            value = a
        }
        if shift > 0 && value != 0 {
            for _ in 0..<shift {
                let (m, overflow) = value.multipliedReportingOverflow(by: 10)
                if overflow { return .tooLarge }
                value = m
            }
        }
        return negative && value != 0 ? .negative(magnitude: value) : .unsigned(value)
    }
}
