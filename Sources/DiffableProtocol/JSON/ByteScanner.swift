/// A cursor over JSON bytes that were already validated (see `JSONValidator`),
/// for decoders that build engine values without a JSON tree. It reads
/// strings with the grammar's own reader (`JSONReader`); its other steps
/// only find where validated values end. Every read is still
/// bounds-checked; any surprise makes a step fail (nil / `.fail`), and the
/// caller decides what follows (the readers of `apply` and `edit` parse
/// the one element alone, for its codec).
package struct ByteScanner {
    package let input: UnsafeBufferPointer<UInt8>
    /// One past the last byte this scanner may read.
    package let end: Int
    package var pos: Int

    package init(_ input: UnsafeBufferPointer<UInt8>, range: Range<Int>) {
        self.input = input
        self.end = min(range.upperBound, input.count)
        self.pos = range.lowerBound
    }

    /// A string token: its range, quotes included, and whether it has escapes.
    package struct StringToken {
        package var range: Range<Int>
        package var escaped: Bool
        package var inner: Range<Int> { range.lowerBound + 1 ..< range.upperBound - 1 }
    }

    package enum Member {
        /// A member whose key (escape-free, quotes excluded) is here; the cursor is on its value.
        case member(key: Range<Int>)
        /// The closing brace was consumed.
        case end
        case fail
    }

    @inline(__always) package func byte(_ i: Int) -> UInt8? {
        i >= 0 && i < end ? input[i] : nil
    }

    @inline(__always) package static func isWhitespace(_ b: UInt8) -> Bool {
        b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09
    }

    @inline(__always) package mutating func skipWhitespace() {
        while pos < end, Self.isWhitespace(input[pos]) { pos += 1 }
    }

    /// Consumes `byte` (after whitespace) if it is next.
    @inline(__always) package mutating func consume(_ expected: UInt8) -> Bool {
        skipWhitespace()
        guard byte(pos) == expected else { return false }
        pos += 1
        return true
    }

    /// The string at `pos`, read by the grammar's own string reader
    /// (`JSONReader.readString`); nil when there is none. A plain run up to
    /// the closing quote (most ids and texts) is the reader's own first
    /// step, taken here without it.
    @inline(__always) package mutating func stringToken() -> StringToken? {
        guard byte(pos) == UInt8(ascii: "\"") else { return nil }
        let start = pos
        let runEnd = ByteRuns.plainStringRunEnd(input, from: pos + 1, end: end)
        if runEnd < end, input[runEnd] == UInt8(ascii: "\"") {
            pos = runEnd + 1
            return StringToken(range: start..<pos, escaped: false)
        }
        var reader = JSONReader(input, at: pos, end: end)
        var none = NoDecoding()
        guard let escaped = try? reader.readString(decoding: &none) else { return nil }
        pos = reader.pos
        return StringToken(range: start..<pos, escaped: escaped)
    }

    /// Skips one value; `canonical` tells whether its bytes are already what
    /// `JSONWriter` would write for it (no whitespace, no escapes at all).
    /// nil for a value nested deeper than `maxDepth` arrays and objects.
    package mutating func skipValue(maxDepth: Int = .max) -> (range: Range<Int>, canonical: Bool)? {
        let start = pos
        guard let first = byte(pos) else { return nil }
        switch first {
        case UInt8(ascii: "\""):
            guard let token = stringToken() else { return nil }
            return (token.range, !token.escaped)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var canonical = true
            while pos < end {
                switch input[pos] {
                case UInt8(ascii: "\""):
                    guard let token = stringToken() else { return nil }
                    if token.escaped { canonical = false }
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                    if depth > maxDepth { return nil }
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 {
                        pos += 1
                        return (start..<pos, canonical)
                    }
                case 0x20, 0x0A, 0x0D, 0x09:
                    canonical = false
                default:
                    break
                }
                pos += 1
            }
            return nil
        default:
            while pos < end {
                let b = input[pos]
                if b == UInt8(ascii: ",") || b == UInt8(ascii: "]") || b == UInt8(ascii: "}") || Self.isWhitespace(b) { break }
                pos += 1
            }
            return pos > start ? (start..<pos, true) : nil
        }
    }

    /// The next member of an object whose `{` was consumed (`isFirst`) or
    /// whose previous member's value was skipped.
    /// An escaped name fails the step.
    @inline(__always)
    package mutating func nextMember(isFirst: Bool) -> Member {
        switch nextNamedMember(isFirst: isFirst) {
        case .member(let key): key.escaped ? .fail : .member(key: key.inner)
        case .end: .end
        case .fail: .fail
        }
    }

    /// A member of an object whose `{` was consumed, its name as a token
    /// that may have escapes (`"sour\u0063e"` names `source`); the cursor is
    /// on its value. For the few objects of a request read member by member
    /// by name (params, sections); items use `nextMember`.
    package enum NamedMember {
        case member(StringToken)
        case end
        case fail
    }

    /// `nextMember`, taking escaped names too.
    @inline(__always)
    package mutating func nextNamedMember(isFirst: Bool) -> NamedMember {
        skipWhitespace()
        guard let b = byte(pos) else { return .fail }
        if b == UInt8(ascii: "}") {
            pos += 1
            return .end
        }
        if !isFirst {
            guard b == UInt8(ascii: ",") else { return .fail }
            pos += 1
            skipWhitespace()
        }
        guard let key = stringToken(), consume(UInt8(ascii: ":")) else { return .fail }
        skipWhitespace()
        return .member(key)
    }

    /// Whether the string `token` spells `literal`, escapes decoded.
    package func name(_ token: StringToken, is literal: StaticString) -> Bool {
        guard token.escaped else { return bytes(token.inner, equal: literal) }
        return string(token) == literal.description
    }

    /// Whether another element follows in an array whose `[` was consumed
    /// (`isFirst`) or whose previous element was read; consumes `]` or `,`.
    package mutating func nextElement(isFirst: Bool) -> Bool? {
        skipWhitespace()
        guard let b = byte(pos) else { return nil }
        if b == UInt8(ascii: "]") {
            pos += 1
            return false
        }
        if !isFirst {
            guard b == UInt8(ascii: ",") else { return nil }
            pos += 1
            skipWhitespace()
        }
        return true
    }

    /// Whether the bytes in `range` spell `literal`.
    @inline(__always) package func bytes(_ range: Range<Int>, equal literal: StaticString) -> Bool {
        range.count == literal.utf8CodeUnitCount
            && ByteRuns.hasLiteral(literal, in: input, at: range.lowerBound, end: end)
    }

    /// The bytes of `range` (inside the input: the ranges of tokens and
    /// values this scanner read).
    @inline(__always) package func bytes(of range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: input[range])
    }

    /// The bytes of `range` as a String (valid UTF-8, already checked).
    @inline(__always) package func text(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: input[range]), as: UTF8.self)
    }

    /// The decoded value of a string token.
    package func string(_ token: StringToken) -> String? {
        guard token.escaped else { return text(token.inner) }
        guard case .string(let s)? = tree(token.range) else { return nil }
        return s
    }

    /// The value in `range` as a JSON tree.
    package func tree(_ range: Range<Int>) -> JSON? {
        guard range.lowerBound >= 0, range.upperBound <= end else { return nil }
        return try? JSONParser.parse(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: input[range])))
    }
}

extension ByteScanner {
    /// Reads the object at the cursor: `member` is called with each member's
    /// key (its range), the cursor on the member's value, which it reads,
    /// answering false to give up. False when the object is malformed or
    /// `member` gave up; the cursor is then anywhere in it.
    /// - Complexity: O(bytes of the object) plus what `member` does.
    package static func readObject(_ s: inout ByteScanner, _ member: (inout ByteScanner, Range<Int>) -> Bool) -> Bool {
        guard s.consume(UInt8(ascii: "{")) else { return false }
        var isFirst = true
        while true {
            switch s.nextMember(isFirst: isFirst) {
            case .fail: return false
            case .end: return true
            case .member(let key):
                isFirst = false
                guard member(&s, key) else { return false }
            }
        }
    }

    /// `readObject` for the few objects read by name (params, sections):
    /// `member` also gets the name each key spells (`"sour\u0063e"` is
    /// `source`, as in the parsed object), and a key's token.
    /// - Complexity: O(bytes of the object) plus what `member` does.
    package static func readNamedObject(_ s: inout ByteScanner,
                                        _ member: (inout ByteScanner, StringToken, String) -> Bool) -> Bool {
        guard s.consume(UInt8(ascii: "{")) else { return false }
        var isFirst = true
        while true {
            switch s.nextNamedMember(isFirst: isFirst) {
            case .fail: return false
            case .end: return true
            case .member(let key):
                isFirst = false
                guard let name = s.string(key), member(&s, key, name) else { return false }
            }
        }
    }
}

