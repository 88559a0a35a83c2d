/// Checks that bytes hold valid JSON exactly as `JSONParser` accepts it (same
/// grammar, escapes, UTF-8 rules and nesting limit) without building anything.
///
/// Used to accept a large request up front (a parse error must be reported
/// before anything runs) while its `params` are decoded later, straight from
/// the bytes. A `false` answer means "not valid": parse with `JSONParser` to
/// get the error. It is never more lenient than the parser.
package struct JSONValidator {
    package let input: UnsafeBufferPointer<UInt8>
    package let end: Int
    package let maxDepth: Int
    package var pos: Int
    /// Where each container opened by the value being skipped starts (its
    /// `{` or `[`).
    private var stack: [Int] = []
    /// Array elements noted on the way, at most one per `hintSpacing` bytes:
    /// where an element starts and where its array does. A large array can
    /// then be decoded in parts on several threads (see `ApplyScanner`).
    private(set) var splitHints: [SplitHint] = []
    /// Bytes between two split hints (`Int.max`: none are noted).
    package var hintSpacing = Int.max
    private var nextHint = Int.max

    /// An array element that a decoder may start at.
    package struct SplitHint: Sendable, Equatable {
        /// The offset of the array's `[`.
        package var array: Int
        /// The offset of the element's first byte.
        package var element: Int
    }

    package init(_ input: UnsafeBufferPointer<UInt8>, at pos: Int = 0, maxDepth: Int = JSONParser.defaultMaxDepth) {
        self.input = input
        self.end = input.count
        self.pos = pos
        self.maxDepth = max(1, maxDepth)
    }

    @inline(__always) package func byte(_ i: Int) -> UInt8? {
        i >= 0 && i < end ? input[i] : nil
    }

    @inline(__always) package mutating func skipWhitespace() {
        while let b = byte(pos), b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 {
            pos += 1
        }
    }

    /// Skips whitespace and one value nested in `depth` already open
    /// containers; false when the parser would reject it.
    package mutating func skipValue(depth: Int) -> Bool {
        stack.removeAll(keepingCapacity: true)
        if nextHint == Int.max && hintSpacing != Int.max { nextHint = pos + hintSpacing }
        value: while true {
            skipWhitespace()
            guard let b = byte(pos) else { return false }
            switch b {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let isObject = b == UInt8(ascii: "{")
                // Most of a large request is items in one compact shape.
                if isObject, depth + stack.count + 1 < maxDepth, skipCompactItem() { break }
                guard depth + stack.count < maxDepth else { return false }
                let opened = pos
                pos += 1
                skipWhitespace()
                if byte(pos) == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    pos += 1
                } else {
                    stack.append(opened)
                    if isObject, !skipKeyAndColon() { return false }
                    continue value
                }
            case UInt8(ascii: "\""):
                guard skipString() != nil else { return false }
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                guard skipNumber() else { return false }
            case UInt8(ascii: "t"):
                guard skipLiteral("true") else { return false }
            case UInt8(ascii: "f"):
                guard skipLiteral("false") else { return false }
            case UInt8(ascii: "n"):
                guard skipLiteral("null") else { return false }
            default:
                return false
            }
            while let opened = stack.last {
                let isObject = input[opened] == UInt8(ascii: "{")
                skipWhitespace()
                guard let c = byte(pos) else { return false }
                if c == UInt8(ascii: ",") {
                    pos += 1
                    if isObject {
                        if !skipKeyAndColon() { return false }
                    } else if pos >= nextHint {
                        skipWhitespace()
                        splitHints.append(SplitHint(array: opened, element: pos))
                        nextHint = pos + hintSpacing
                    }
                    continue value
                }
                guard c == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else { return false }
                pos += 1
                stack.removeLast()
            }
            return true
        }
    }

    package mutating func skipKeyAndColon() -> Bool {
        skipWhitespace()
        guard byte(pos) == UInt8(ascii: "\""), skipString() != nil else { return false }
        skipWhitespace()
        guard byte(pos) == UInt8(ascii: ":") else { return false }
        pos += 1
        return true
    }

    /// Skips `literal` when the bytes at `pos` spell it.
    @inline(__always) package mutating func skipLiteral(_ literal: StaticString) -> Bool {
        guard ByteRuns.hasLiteral(literal, in: input, at: pos, end: end) else { return false }
        pos += literal.utf8CodeUnitCount
        return true
    }

    @inline(__always) private func isDigit(_ b: UInt8?) -> Bool {
        guard let b else { return false }
        return b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")
    }

    package mutating func skipNumber() -> Bool {
        if byte(pos) == UInt8(ascii: "-") { pos += 1 }
        guard isDigit(byte(pos)) else { return false }
        let first = input[pos]
        pos += 1
        if first == UInt8(ascii: "0") {
            if isDigit(byte(pos)) { return false }
        } else {
            while isDigit(byte(pos)) { pos += 1 }
        }
        if byte(pos) == UInt8(ascii: ".") {
            pos += 1
            guard isDigit(byte(pos)) else { return false }
            while isDigit(byte(pos)) { pos += 1 }
        }
        if let e = byte(pos), e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            pos += 1
            if let s = byte(pos), s == UInt8(ascii: "+") || s == UInt8(ascii: "-") { pos += 1 }
            guard isDigit(byte(pos)) else { return false }
            while isDigit(byte(pos)) { pos += 1 }
        }
        return true
    }

    /// Skips a string starting at its opening quote; returns whether it
    /// contains escapes, or nil when it is invalid.
    package mutating func skipString() -> Bool? {
        pos += 1
        var escaped = false
        while true {
            // Fast run: printable ASCII without quote or backslash.
            pos = ByteRuns.plainStringRunEnd(input, from: pos, end: end)
            guard let b = byte(pos) else { return nil }
            if b == UInt8(ascii: "\"") {
                pos += 1
                return escaped
            } else if b == UInt8(ascii: "\\") {
                escaped = true
                guard skipEscape() else { return nil }
            } else if b < 0x20 {
                return nil
            } else {
                guard skipUTF8Sequence(lead: b) else { return nil }
            }
        }
    }

    /// One escape at `pos` (the backslash), with the parser's surrogate rules.
    package mutating func skipEscape() -> Bool {
        guard let e = byte(pos + 1) else { return false }
        pos += 2
        switch e {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
             UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return true
        case UInt8(ascii: "u"):
            guard let scalar = hex4() else { return false }
            if scalar >= 0xD800 && scalar <= 0xDBFF {
                guard byte(pos) == UInt8(ascii: "\\"), byte(pos + 1) == UInt8(ascii: "u") else { return false }
                pos += 2
                guard let low = hex4(), low >= 0xDC00 && low <= 0xDFFF else { return false }
            } else if scalar >= 0xDC00 && scalar <= 0xDFFF {
                return false
            }
            return true
        default:
            return false
        }
    }

    package mutating func hex4() -> UInt32? {
        var value: UInt32 = 0
        for i in 0..<4 {
            guard let h = byte(pos + i) else { return nil }
            let digit: UInt8
            switch h {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = h - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = h - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = h - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        pos += 4
        return value
    }

    /// One multi-byte UTF-8 sequence (lead ≥ 0x80), with the parser's rules.
    package mutating func skipUTF8Sequence(lead: UInt8) -> Bool {
        let length: Int
        var low: UInt8 = 0x80, high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: return false
        }
        guard let second = byte(pos + 1), second >= low && second <= high else { return false }
        var i = 2
        while i < length {
            guard let c = byte(pos + i), c & 0xC0 == 0x80 else { return false }
            i += 1
        }
        pos += length
        return true
    }
}
