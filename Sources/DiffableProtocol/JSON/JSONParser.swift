/// A parse failure: where (byte offset into the input) and why.
public struct JSONParseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Byte offset of the offending input (the input length for unexpected end).
    public var offset: Int
    public var message: String

    public init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }

    public var description: String { "JSON parse error at byte \(offset): \(message)" }
}

/// A strict RFC 8259 parser working directly on UTF-8 bytes.
///
/// - Accepts exactly one value surrounded by optional whitespace
///   (space, tab, LF, CR); anything else is an error.
/// - Rejects leading zeros, `+`, `.5`, `1.`, NaN/Infinity, bad or unknown escapes,
///   raw control characters (< 0x20) in strings, invalid UTF-8 (overlong forms,
///   encoded surrogates, code points above U+10FFFF, truncated sequences),
///   and lone surrogate escapes (`\uD800` without a low surrogate, or a lone
///   `\uDC00`): strings are always valid Unicode, nothing is replaced.
/// - Nesting deeper than `maxDepth` is an error. The parser is iterative
///   (explicit stack), so no input can overflow the call stack.
/// - Robust to arbitrary bytes: every read is bounds-checked.
///
/// Escape-free strings are decoded straight from the input slice.
public enum JSONParser {
    public static let defaultMaxDepth = NestingLimits.message

    /// The memory a parsed message may take, per byte of its text: its
    /// values, their buffers and long strings, as `JSON.footprint` counts
    /// them. Requests as clients write them take 3–8; only texts made of
    /// tiny containers or one-digit numbers (`[[0],[0],…]`) come near.
    /// With it, reading a message of n bytes needs at most about
    /// `maxFootprintPerByte × n` (and `minimumFootprintBudget`) besides
    /// the text itself, so no message under `--max-message-bytes` can
    /// exhaust the memory of a machine sized for that.
    public static let maxFootprintPerByte = 16
    /// The budget of small messages, whose fixed costs dominate (a message
    /// nested 10,000 levels deep needs about 1.2 MB).
    public static let minimumFootprintBudget = 4 << 20

    /// - Complexity: O(n) in the input length.
    public static func parse(_ bytes: [UInt8], maxDepth: Int = defaultMaxDepth) throws(JSONParseError) -> JSON {
        let result: Result<JSON, JSONParseError> = bytes.withUnsafeBufferPointer { buffer in
            var cursor = Cursor(buffer, maxDepth: maxDepth)
            do throws(JSONParseError) {
                return .success(try cursor.parseDocument())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// `parse`, with about the memory the value takes, counted while it was
    /// built (what `JSON.footprint` would walk the tree to find).
    /// - Complexity: O(n) in the input length.
    package static func parseCountingFootprint(_ bytes: [UInt8]) throws(JSONParseError) -> (value: JSON, footprint: Int) {
        let result: Result<(JSON, Int), JSONParseError> = bytes.withUnsafeBufferPointer { buffer in
            var cursor = Cursor(buffer, maxDepth: defaultMaxDepth)
            do throws(JSONParseError) {
                let value = try cursor.parseDocument()
                return .success((value, MemoryLayout<JSON>.stride + cursor.footprint))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// - Complexity: O(n) in the input length.
    public static func parse(_ buffer: UnsafeRawBufferPointer, maxDepth: Int = defaultMaxDepth) throws(JSONParseError) -> JSON {
        var cursor = Cursor(buffer.bindMemoryOrEmpty(), maxDepth: maxDepth)
        return try cursor.parseDocument()
    }

    /// Parses the UTF-8 of `text`.
    public static func parse(_ text: String, maxDepth: Int = defaultMaxDepth) throws(JSONParseError) -> JSON {
        try parse(Array(text.utf8), maxDepth: maxDepth)
    }
}

extension UnsafeRawBufferPointer {
    fileprivate func bindMemoryOrEmpty() -> UnsafeBufferPointer<UInt8> {
        guard let base = baseAddress else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: count)
    }
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

/// A heap buffer's headers (the allocator's and Swift's), roughly.
private let containerCost = 48
/// A value's slot in its container, and its slot on the parser's working
/// stack, which grows by doubling: counted as each value is read, so a
/// message over budget is refused before its largest array is built.
private let valueCost = 3 * MemoryLayout<JSON>.stride

private struct Frame {
    package var isObject: Bool
    /// Index into `values` of this container's first element.
    package var valueStart: Int
    /// Index into `keys` of this object's first key.
    package var keyStart: Int
}

private struct Cursor {
    package let input: UnsafeBufferPointer<UInt8>
    package let end: Int
    package let maxDepth: Int
    package var pos = 0
    /// Completed values of all open containers, flattened (linear-time building).
    package var values: [JSON] = []
    package var keys: [String] = []
    package var frames: [Frame] = []
    /// Scratch buffer for strings with escapes.
    package var scratch: [UInt8] = []
    /// What the values built so far take, and the most they may.
    package var footprint = 0
    package let maxFootprint: Int

    package init(_ input: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.input = input
        self.end = input.count
        self.maxDepth = max(1, maxDepth)
        let (budget, overflow) = input.count.multipliedReportingOverflow(by: JSONParser.maxFootprintPerByte)
        self.maxFootprint = overflow ? .max : max(budget, JSONParser.minimumFootprintBudget)
        // Room for a request's envelope and small params at once: grown
        // from empty, each stack would be reallocated a few times per message.
        values.reserveCapacity(16)
        keys.reserveCapacity(16)
        frames.reserveCapacity(8)
    }

    /// Counts `bytes` more of the parsed form against the budget.
    @inline(__always) package mutating func spend(_ bytes: Int) throws(JSONParseError) {
        footprint += bytes
        if footprint > maxFootprint {
            throw fail("the message would take more than \(JSONParser.maxFootprintPerByte) bytes of memory per byte of its text once read (\(maxFootprint) bytes); send it in smaller values or in parts")
        }
    }

    /// The byte at `i`, or nil past the end. The only way input is read.
    @inline(__always) package func byte(_ i: Int) -> UInt8? {
        i >= 0 && i < end ? input[i] : nil
    }

    package func fail(_ message: String, at offset: Int? = nil) -> JSONParseError {
        JSONParseError(offset: offset ?? pos, message: message)
    }

    package func unexpected(_ expected: String) -> JSONParseError {
        guard let b = byte(pos) else { return fail("unexpected end of input, expected \(expected)") }
        let shown = (0x20..<0x7F).contains(b) ? "'\(Character(Unicode.Scalar(b)))'" : "byte 0x" + String(b, radix: 16)
        return fail("unexpected \(shown), expected \(expected)")
    }

    @inline(__always) package mutating func skipWhitespace() {
        while let b = byte(pos), b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 {
            pos += 1
        }
    }

    package mutating func parseDocument() throws(JSONParseError) -> JSON {
        let value = try parseValueTree()
        skipWhitespace()
        guard pos == end else { throw fail("trailing characters after the JSON value") }
        return value
    }

    /// Parses one value (of any depth) iteratively.
    package mutating func parseValueTree() throws(JSONParseError) -> JSON {
        parsing: while true {
            // Expecting a value.
            skipWhitespace()
            guard let b = byte(pos) else { throw unexpected("a value") }
            switch b {
            case openBrace, openBracket:
                let isObject = b == openBrace
                guard frames.count < maxDepth else { throw fail("nesting deeper than \(maxDepth) levels") }
                pos += 1
                skipWhitespace()
                if byte(pos) == (isObject ? closeBrace : closeBracket) {
                    pos += 1
                    try spend(valueCost)
                    values.append(isObject ? .object(JSONObject()) : .array([]))
                } else {
                    try spend(valueCost)
                    frames.append(Frame(isObject: isObject, valueStart: values.count, keyStart: keys.count))
                    if isObject { try parseKeyAndColon() }
                    continue parsing
                }
            case quote:
                try spend(valueCost)
                values.append(.string(try parseCountedString()))
            case minus, zero...nine:
                try spend(valueCost)
                values.append(.number(try parseNumber()))
            case UInt8(ascii: "t"):
                try expectLiteral("true")
                try spend(valueCost)
                values.append(.bool(true))
            case UInt8(ascii: "f"):
                try expectLiteral("false")
                try spend(valueCost)
                values.append(.bool(false))
            case UInt8(ascii: "n"):
                try expectLiteral("null")
                try spend(valueCost)
                values.append(.null)
            default:
                throw unexpected("a value")
            }
            // A value was completed: close containers / move to the next element.
            while let frame = frames.last {
                skipWhitespace()
                guard let c = byte(pos) else { throw unexpected(frame.isObject ? "',' or '}'" : "',' or ']'") }
                if c == comma {
                    pos += 1
                    if frame.isObject { try parseKeyAndColon() }
                    continue parsing
                }
                if frame.isObject && c == closeBrace {
                    pos += 1
                    frames.removeLast()
                    var members: [(key: String, value: JSON)] = []
                    members.reserveCapacity(values.count - frame.valueStart)
                    for (key, value) in zip(keys[frame.keyStart...], values[frame.valueStart...]) {
                        members.append((key: key, value: value))
                    }
                    values.removeSubrange(frame.valueStart...)
                    keys.removeSubrange(frame.keyStart...)
                    try spend(containerCost + members.count * (MemoryLayout<(key: String, value: JSON)>.stride - MemoryLayout<JSON>.stride)
                              + (members.count > JSONObject.indexThreshold ? containerCost + 4 * members.count * 16 : 0))
                    values.append(.object(JSONObject(members: members)))
                } else if !frame.isObject && c == closeBracket {
                    pos += 1
                    frames.removeLast()
                    let elements = Array(values[frame.valueStart...])
                    values.removeSubrange(frame.valueStart...)
                    try spend(containerCost)
                    values.append(.array(elements))
                } else {
                    throw unexpected(frame.isObject ? "',' or '}'" : "',' or ']'")
                }
            }
            guard let result = values.popLast() else { throw fail("internal error: no value") }
            return result
        }
    }

    package mutating func parseKeyAndColon() throws(JSONParseError) {
        skipWhitespace()
        guard byte(pos) == quote else { throw unexpected("a string key") }
        keys.append(try parseCountedString())
        skipWhitespace()
        guard byte(pos) == colon else { throw unexpected("':'") }
        pos += 1
    }

    package mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let start = pos
        let count = literal.utf8CodeUnitCount
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: count)
        for i in 0..<count {
            guard byte(start + i) == expected[i] else {
                pos = start + i
                throw unexpected("'\(literal)'")
            }
        }
        pos = start + count
    }

    /// - Complexity: O(lexeme length).
    package mutating func parseNumber() throws(JSONParseError) -> String {
        let start = pos
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
        return String(decoding: UnsafeBufferPointer(rebasing: input[start..<pos]), as: UTF8.self)
    }

    @inline(__always) package mutating func skipDigits() {
        while let b = byte(pos), b >= zero && b <= nine { pos += 1 }
    }

    /// `parseString`, counting the text of a string too long to be stored
    /// inline (over 15 UTF-8 bytes) against the budget.
    package mutating func parseCountedString() throws(JSONParseError) -> String {
        let string = try parseString()
        let count = string.utf8.count
        if count > 15 { try spend(containerCost + count) }
        return string
    }

    /// Parses a string starting at the opening quote.
    /// - Complexity: O(length); no copy beyond the final String for escape-free strings.
    package mutating func parseString() throws(JSONParseError) -> String {
        pos += 1  // opening quote
        let start = pos
        // Fast path: printable ASCII without escapes.
        while let b = byte(pos), b != quote, b != backslash, b >= 0x20, b < 0x80 {
            pos += 1
        }
        if byte(pos) == quote {
            let s = String(decoding: UnsafeBufferPointer(rebasing: input[start..<pos]), as: UTF8.self)
            pos += 1
            return s
        }
        // Slow path: validate UTF-8; copy into scratch only once an escape appears.
        var escaped = false
        var runStart = start
        while true {
            guard let b = byte(pos) else { throw fail("unterminated string", at: start - 1) }
            if b == quote {
                let s: String
                if escaped {
                    scratch.append(contentsOf: UnsafeBufferPointer(rebasing: input[runStart..<pos]))
                    s = String(decoding: scratch, as: UTF8.self)
                } else {
                    s = String(decoding: UnsafeBufferPointer(rebasing: input[start..<pos]), as: UTF8.self)
                }
                pos += 1
                return s
            } else if b == backslash {
                if !escaped {
                    escaped = true
                    scratch.removeAll(keepingCapacity: true)
                }
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: input[runStart..<pos]))
                try parseEscape()
                runStart = pos
            } else if b < 0x20 {
                throw fail("unescaped control character 0x\(String(b, radix: 16)) in string")
            } else if b < 0x80 {
                pos += 1
            } else {
                try validateUTF8Sequence(lead: b)
            }
        }
    }

    /// Validates one multi-byte UTF-8 sequence at `pos` (lead byte ≥ 0x80) and skips it.
    package mutating func validateUTF8Sequence(lead: UInt8) throws(JSONParseError) {
        let length: Int
        var low: UInt8 = 0x80, high: UInt8 = 0xBF  // allowed range of the 2nd byte
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0  // no overlongs
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F  // no surrogates
        case 0xF0: length = 4; low = 0x90  // no overlongs
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F  // ≤ U+10FFFF
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

    /// Decodes one escape at `pos` (the backslash) into `scratch`.
    package mutating func parseEscape() throws(JSONParseError) {
        let escapeStart = pos
        guard let e = byte(pos + 1) else { throw fail("unterminated escape") }
        pos += 2
        switch e {
        case quote: scratch.append(quote)
        case backslash: scratch.append(backslash)
        case UInt8(ascii: "/"): scratch.append(UInt8(ascii: "/"))
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try parseHex4()
            if scalar >= 0xD800 && scalar <= 0xDBFF {
                guard byte(pos) == backslash, byte(pos + 1) == UInt8(ascii: "u") else {
                    throw fail("lone high surrogate escape", at: escapeStart)
                }
                pos += 2
                let lowSurrogate = try parseHex4()
                guard lowSurrogate >= 0xDC00 && lowSurrogate <= 0xDFFF else {
                    throw fail("high surrogate escape not followed by a low surrogate", at: escapeStart)
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (lowSurrogate - 0xDC00)
            } else if scalar >= 0xDC00 && scalar <= 0xDFFF {
                throw fail("lone low surrogate escape", at: escapeStart)
            }
            appendUTF8(scalar)
        default:
            throw fail("invalid escape sequence", at: escapeStart)
        }
    }

    package mutating func parseHex4() throws(JSONParseError) -> UInt32 {
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

    /// Appends a valid scalar value (not a surrogate, ≤ 0x10FFFF) as UTF-8.
    package mutating func appendUTF8(_ v: UInt32) {
        switch v {
        case 0..<0x80:
            scratch.append(UInt8(v))
        case 0x80..<0x800:
            scratch.append(UInt8(0xC0 | (v >> 6)))
            scratch.append(UInt8(0x80 | (v & 0x3F)))
        case 0x800..<0x10000:
            scratch.append(UInt8(0xE0 | (v >> 12)))
            scratch.append(UInt8(0x80 | ((v >> 6) & 0x3F)))
            scratch.append(UInt8(0x80 | (v & 0x3F)))
        default:
            scratch.append(UInt8(0xF0 | ((v >> 18) & 0x07)))
            scratch.append(UInt8(0x80 | ((v >> 12) & 0x3F)))
            scratch.append(UInt8(0x80 | ((v >> 6) & 0x3F)))
            scratch.append(UInt8(0x80 | (v & 0x3F)))
        }
    }
}
