/// The JSON grammar the daemon accepts, written once: strict RFC 8259 on
/// UTF-8 bytes (see `JSONParser` for the rules), iterative, every read
/// bounds-checked, nesting limited by `maxDepth`.
///
/// What a reading makes of the values is its builder's (`JSONBuilder`):
/// `JSONParser` builds a `JSON` tree, `JSONValidator` builds nothing and
/// notes where a large array may be split; `ByteScanner` reads its strings
/// here. They share every decision about what is valid, so the validator
/// can never be more lenient than the parser, and a failure is the
/// parser's error (offset and message) whichever reads.
package struct JSONReader {
    package let input: UnsafeBufferPointer<UInt8>
    /// One past the last byte to read.
    package let end: Int
    package let maxDepth: Int
    package var pos: Int
    /// How many containers the value being read has open, and which of
    /// them are objects: bit `d` of `openKinds` for the first 64 levels,
    /// a list of `readValue`'s own past them (so a shallow value allocates
    /// nothing, and a reader is plain bytes to copy).
    private var openCount = 0
    private var openKinds: UInt64 = 0

    package init(_ input: UnsafeBufferPointer<UInt8>, at pos: Int = 0, end: Int? = nil, maxDepth: Int = NestingLimits.message) {
        self.input = input
        self.end = min(end ?? input.count, input.count)
        self.pos = pos
        self.maxDepth = max(1, maxDepth)
    }

    /// The byte at `i`, or nil past the end. The only way input is read.
    @inline(__always) package func byte(_ i: Int) -> UInt8? {
        i >= 0 && i < end ? input[i] : nil
    }

    @inline(__always) package mutating func skipWhitespace() {
        while let b = byte(pos), b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 {
            pos += 1
        }
    }

    /// Skips `literal` when the bytes at `pos` spell it (a fixed spelling a
    /// builder recognizes); false, with `pos` unchanged, otherwise.
    @inline(__always) package mutating func skip(_ literal: StaticString) -> Bool {
        guard ByteRuns.hasLiteral(literal, in: input, at: pos, end: end) else { return false }
        pos += literal.utf8CodeUnitCount
        return true
    }

    package func fail(_ message: String, at offset: Int? = nil) -> JSONParseError {
        JSONParseError(offset: offset ?? pos, message: message)
    }

    package func unexpected(_ expected: String) -> JSONParseError {
        guard let b = byte(pos) else { return fail("unexpected end of input, expected \(expected)") }
        let shown = (0x20..<0x7F).contains(b) ? "'\(Character(Unicode.Scalar(b)))'" : "byte 0x" + String(b, radix: 16)
        return fail("unexpected \(shown), expected \(expected)")
    }

    // MARK: values

    /// Reads whitespace and one value, nested in `depth` containers opened
    /// before it, into `builder`.
    /// - Complexity: O(length of the value); no recursion.
    package mutating func readValue<Builder: JSONBuilder>(depth: Int = 0, into builder: inout Builder) throws(JSONParseError) {
        openCount = 0
        var deeperKinds: [Bool] = []
        value: while true {
            skipWhitespace()
            guard let b = byte(pos) else { throw unexpected("a value") }
            switch b {
            case openBrace, openBracket:
                let isObject = b == openBrace
                if isObject, depth + openCount + 1 < maxDepth, builder.skipsWholeObject(&self) { break }
                guard depth + openCount < maxDepth else { throw fail("nesting deeper than \(maxDepth) levels") }
                let opened = pos
                pos += 1
                skipWhitespace()
                if byte(pos) == (isObject ? closeBrace : closeBracket) {
                    pos += 1
                    try builder.emptyContainer(isObject: isObject, &self)
                } else {
                    try builder.containerOpens(isObject: isObject, at: opened, &self)
                    pushOpen(isObject: isObject, deeper: &deeperKinds)
                    if isObject { try readKeyAndColon(into: &builder) }
                    continue value
                }
            case quote:
                try builder.string(&self)
            case minus, zero...nine:
                try builder.number(&self)
            case UInt8(ascii: "t"):
                try builder.literal("true", .bool(true), &self)
            case UInt8(ascii: "f"):
                try builder.literal("false", .bool(false), &self)
            case UInt8(ascii: "n"):
                try builder.literal("null", .null, &self)
            default:
                throw unexpected("a value")
            }
            // A value was completed: close containers, or go on to the next
            // member or element.
            while openCount > 0 {
                let isObject = innermostIsObject(deeper: deeperKinds)
                skipWhitespace()
                guard let c = byte(pos) else { throw unexpected(isObject ? "',' or '}'" : "',' or ']'") }
                if c == comma {
                    pos += 1
                    if isObject {
                        try readKeyAndColon(into: &builder)
                    } else {
                        builder.elementFollows(&self)
                    }
                    continue value
                }
                guard c == (isObject ? closeBrace : closeBracket) else {
                    throw unexpected(isObject ? "',' or '}'" : "',' or ']'")
                }
                pos += 1
                popOpen(deeper: &deeperKinds)
                try builder.containerCloses(isObject: isObject, &self)
            }
            return
        }
    }

    @inline(__always) private mutating func pushOpen(isObject: Bool, deeper: inout [Bool]) {
        if openCount < 64 {
            let bit: UInt64 = 1 << UInt64(openCount)
            openKinds = isObject ? openKinds | bit : openKinds & ~bit
        } else {
            deeper.append(isObject)
        }
        openCount += 1
    }

    @inline(__always) private mutating func popOpen(deeper: inout [Bool]) {
        openCount -= 1
        if openCount >= 64 { deeper.removeLast() }
    }

    @inline(__always) private func innermostIsObject(deeper: [Bool]) -> Bool {
        let level = openCount - 1
        return level < 64 ? openKinds >> UInt64(level) & 1 == 1 : deeper.last == true
    }

    private mutating func readKeyAndColon<Builder: JSONBuilder>(into builder: inout Builder) throws(JSONParseError) {
        skipWhitespace()
        guard byte(pos) == quote else { throw unexpected("a string key") }
        try builder.key(&self)
        skipWhitespace()
        guard byte(pos) == colon else { throw unexpected("':'") }
        pos += 1
    }

    // MARK: tokens

    /// Reads `literal` (`true`, `false`, `null`) at `pos`.
    package mutating func readLiteral(_ literal: StaticString) throws(JSONParseError) {
        if skip(literal) { return }
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        var i = 0
        while i < expected.count, byte(pos + i) == expected[i] { i += 1 }
        pos += i
        throw unexpected("'\(literal)'")
    }

    /// Reads a number at `pos`; its text is `start ..< pos` afterwards.
    /// - Complexity: O(lexeme length).
    package mutating func readNumber() throws(JSONParseError) {
        if byte(pos) == minus { pos += 1 }
        guard let first = byte(pos), first >= zero && first <= nine else { throw unexpected("a digit") }
        pos += 1
        if first == zero {
            if let b = byte(pos), b >= zero && b <= nine { throw fail("leading zeros are not allowed") }
        } else {
            skipDigits()
        }
        if byte(pos) == dot {
            pos += 1
            guard let b = byte(pos), b >= zero && b <= nine else { throw unexpected("a digit after '.'") }
            skipDigits()
        }
        if let b = byte(pos), b == UInt8(ascii: "e") || b == UInt8(ascii: "E") {
            pos += 1
            if let s = byte(pos), s == plus || s == minus { pos += 1 }
            guard let d = byte(pos), d >= zero && d <= nine else { throw unexpected("a digit in the exponent") }
            skipDigits()
        }
    }

    @inline(__always) private mutating func skipDigits() {
        while let b = byte(pos), b >= zero && b <= nine { pos += 1 }
    }

    /// Reads a string at `pos` (its opening quote); returns whether it holds
    /// escapes. When it does, `decoded` receives its text (runs and decoded
    /// escapes, after `begin`); a string without escapes is its bytes
    /// between the quotes and `decoded` hears nothing of it.
    /// - Complexity: O(length), eight plain bytes per step.
    package mutating func readString<Decoding: JSONStringDecoding>(decoding decoded: inout Decoding) throws(JSONParseError) -> Bool {
        let start = pos
        pos += 1
        var escaped = false
        var runStart = pos
        while true {
            pos = ByteRuns.plainStringRunEnd(input, from: pos, end: end)
            guard let b = byte(pos) else { throw fail("unterminated string", at: start) }
            if b == quote {
                if escaped { decoded.append(UnsafeBufferPointer(rebasing: input[runStart..<pos])) }
                pos += 1
                return escaped
            } else if b == backslash {
                if !escaped {
                    escaped = true
                    decoded.begin()
                }
                decoded.append(UnsafeBufferPointer(rebasing: input[runStart..<pos]))
                try readEscape(decoding: &decoded)
                runStart = pos
            } else if b < 0x20 {
                throw fail("unescaped control character 0x\(String(b, radix: 16)) in string")
            } else {
                try readUTF8Sequence(lead: b)
            }
        }
    }

    /// One multi-byte UTF-8 sequence at `pos` (lead byte ≥ 0x80): no
    /// overlong forms, no encoded surrogates, nothing above U+10FFFF.
    private mutating func readUTF8Sequence(lead: UInt8) throws(JSONParseError) {
        let length: Int
        var low: UInt8 = 0x80, high: UInt8 = 0xBF  // allowed range of the 2nd byte
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: throw fail("invalid UTF-8 byte 0x\(String(lead, radix: 16))")
        }
        guard let second = byte(pos + 1), second >= low && second <= high else {
            throw fail("invalid UTF-8 sequence")
        }
        var i = 2
        while i < length {
            guard let c = byte(pos + i), c & 0xC0 == 0x80 else { throw fail("invalid UTF-8 sequence") }
            i += 1
        }
        pos += length
    }

    /// One escape at `pos` (the backslash); a `\u` high surrogate must be
    /// followed by a low one, and a lone low one is refused.
    private mutating func readEscape<Decoding: JSONStringDecoding>(decoding decoded: inout Decoding) throws(JSONParseError) {
        let escapeStart = pos
        guard let e = byte(pos + 1) else { throw fail("unterminated escape") }
        pos += 2
        switch e {
        case quote, backslash, UInt8(ascii: "/"): decoded.append(scalar: UInt32(e))
        case UInt8(ascii: "b"): decoded.append(scalar: 0x08)
        case UInt8(ascii: "f"): decoded.append(scalar: 0x0C)
        case UInt8(ascii: "n"): decoded.append(scalar: 0x0A)
        case UInt8(ascii: "r"): decoded.append(scalar: 0x0D)
        case UInt8(ascii: "t"): decoded.append(scalar: 0x09)
        case UInt8(ascii: "u"):
            var scalar = try readHex4()
            if scalar >= 0xD800 && scalar <= 0xDBFF {
                guard byte(pos) == backslash, byte(pos + 1) == UInt8(ascii: "u") else {
                    throw fail("lone high surrogate escape", at: escapeStart)
                }
                pos += 2
                let lowSurrogate = try readHex4()
                guard lowSurrogate >= 0xDC00 && lowSurrogate <= 0xDFFF else {
                    throw fail("high surrogate escape not followed by a low surrogate", at: escapeStart)
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (lowSurrogate - 0xDC00)
            } else if scalar >= 0xDC00 && scalar <= 0xDFFF {
                throw fail("lone low surrogate escape", at: escapeStart)
            }
            decoded.append(scalar: scalar)
        default:
            throw fail("invalid escape sequence", at: escapeStart)
        }
    }

    private mutating func readHex4() throws(JSONParseError) -> UInt32 {
        var value: UInt32 = 0
        for i in 0..<4 {
            guard let h = byte(pos + i) else { throw fail("truncated \\u escape") }
            let digit: UInt8
            switch h {
            case zero...nine: digit = h - zero
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = h - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = h - UInt8(ascii: "A") + 10
            default: throw fail("invalid hex digit in \\u escape", at: pos + i)
            }
            value = value << 4 | UInt32(digit)
        }
        pos += 4
        return value
    }
}

/// What a reading makes of the values `JSONReader.readValue` reads. The
/// reader has checked the structure around each call; a scalar's method
/// reads the scalar itself (`readString`, `readNumber`, `readLiteral`), so
/// that a builder which counts what it builds can do so before or after.
package protocol JSONBuilder {
    /// At an object's `{` with two more levels allowed: true when the
    /// builder read the whole object itself (`pos` is then past it).
    mutating func skipsWholeObject(_ reader: inout JSONReader) -> Bool
    /// `{}` or `[]` was read.
    mutating func emptyContainer(isObject: Bool, _ reader: inout JSONReader) throws(JSONParseError)
    /// A non-empty container, whose `{` or `[` is at `opened`, was opened;
    /// its first member or element follows.
    mutating func containerOpens(isObject: Bool, at opened: Int, _ reader: inout JSONReader) throws(JSONParseError)
    /// Its closing `}` or `]` was read.
    mutating func containerCloses(isObject: Bool, _ reader: inout JSONReader) throws(JSONParseError)
    /// A member's key at `pos` (its quote): the builder reads it.
    mutating func key(_ reader: inout JSONReader) throws(JSONParseError)
    /// A string value at `pos`: the builder reads it.
    mutating func string(_ reader: inout JSONReader) throws(JSONParseError)
    /// A number at `pos`: the builder reads it.
    mutating func number(_ reader: inout JSONReader) throws(JSONParseError)
    /// `true`, `false` or `null` at `pos`: the builder reads `literal`.
    mutating func literal(_ literal: StaticString, _ value: JSON, _ reader: inout JSONReader) throws(JSONParseError)
    /// A `,` in the innermost open array was read; an element follows.
    mutating func elementFollows(_ reader: inout JSONReader)
}

/// Where a string's escapes go when it has some (`JSONReader.readString`).
package protocol JSONStringDecoding {
    /// The string has escapes: its text starts anew.
    mutating func begin()
    /// Bytes of the string as they are (valid UTF-8, no escapes).
    mutating func append(_ run: UnsafeBufferPointer<UInt8>)
    /// A decoded escape: a scalar value (never a surrogate).
    mutating func append(scalar: UInt32)
}

/// Strings read for their validity alone.
package struct NoDecoding: JSONStringDecoding {
    package init() {}
    @inline(__always) package mutating func begin() {}
    @inline(__always) package mutating func append(_ run: UnsafeBufferPointer<UInt8>) {}
    @inline(__always) package mutating func append(scalar: UInt32) {}
}

// ASCII byte constants.
private let quote = UInt8(ascii: "\"")
private let backslash = UInt8(ascii: "\\")
private let comma = UInt8(ascii: ",")
private let colon = UInt8(ascii: ":")
private let openBrace = UInt8(ascii: "{")
private let closeBrace = UInt8(ascii: "}")
private let openBracket = UInt8(ascii: "[")
private let closeBracket = UInt8(ascii: "]")
private let minus = UInt8(ascii: "-")
private let plus = UInt8(ascii: "+")
private let dot = UInt8(ascii: ".")
private let zero = UInt8(ascii: "0")
private let nine = UInt8(ascii: "9")
