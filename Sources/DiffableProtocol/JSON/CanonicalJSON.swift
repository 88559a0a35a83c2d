import Glibc

/// Reading JSON written the way the daemon writes it (`JSONWriter`:
/// compact, strings escaped only where they must be, numbers as their
/// lexeme) by its bytes, without building a tree: what stored contents are,
/// so the patch paths (`JSONPatch.diff` of two contents, `patchContent`)
/// can walk and splice them in place.
///
/// Every read checks that what it crosses is in that form: no whitespace,
/// and only the escapes the writer makes (`\"`, `\\`, `\b`, `\f`, `\n`,
/// `\r`, `\t`, and `\u00xx` in lowercase for the other control
/// characters). Then equal bytes are equal values, and a member name's
/// bytes are its escaped UTF-8, so names compare by bytes. Anything else
/// reads as nil, and callers fall back to the general path (parse, then
/// write), which gives the same answer.
///
/// - Complexity: each read is O(bytes it crosses); nothing recurses.
package struct CanonicalJSON {
    package let bytes: UnsafeBufferPointer<UInt8>

    package static let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
    package static let openBrace = UInt8(ascii: "{"), closeBrace = UInt8(ascii: "}")
    package static let openBracket = UInt8(ascii: "["), closeBracket = UInt8(ascii: "]")
    package static let comma = UInt8(ascii: ","), colon = UInt8(ascii: ":")

    package init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    @inline(__always) package func byte(_ i: Int) -> UInt8? { i >= 0 && i < bytes.count ? bytes[i] : nil }

    /// End (past the closing quote) of the string whose opening quote is
    /// at `i`; nil when it is not closed or not escaped canonically.
    /// - Complexity: O(its bytes), eight at a time between escapes.
    package func stringEnd(_ i: Int) -> Int? {
        guard byte(i) == Self.quote else { return nil }
        var j = i + 1
        while true {
            j = ByteRuns.plainStringRunEnd(bytes, from: j, end: bytes.count)
            guard j < bytes.count else { return nil }
            let b = bytes[j]
            if b == Self.quote { return j + 1 }
            if b >= 0x80 {
                j += 1
                continue
            }
            guard b == Self.backslash, let e = byte(j + 1) else { return nil }
            switch e {
            case Self.quote, Self.backslash, UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"),
                 UInt8(ascii: "r"), UInt8(ascii: "t"):
                j += 2
            case UInt8(ascii: "u"):
                // The writer spells the other control characters \u00xx.
                guard byte(j + 2) == UInt8(ascii: "0"), byte(j + 3) == UInt8(ascii: "0"),
                      let high = byte(j + 4), high == UInt8(ascii: "0") || high == UInt8(ascii: "1"),
                      let low = byte(j + 5), let digit = Self.lowercaseHex(low) else { return nil }
                let value = (high == UInt8(ascii: "1") ? 16 : 0) + digit
                guard ![0x08, 0x09, 0x0A, 0x0C, 0x0D].contains(value) else { return nil }
                j += 6
            default:
                return nil
            }
        }
    }

    private static func lowercaseHex(_ b: UInt8) -> Int? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(b - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(b - UInt8(ascii: "a")) + 10
        default: nil
        }
    }

    /// End of the value starting at `i`; nil when there is none in the
    /// daemon's form.
    /// - Complexity: O(bytes of the value).
    package func valueEnd(_ i: Int) -> Int? {
        guard let first = byte(i) else { return nil }
        switch first {
        case Self.quote:
            return stringEnd(i)
        case Self.openBrace, Self.openBracket:
            var depth = 0
            var j = i
            while j < bytes.count {
                let b = bytes[j]
                switch b {
                case Self.quote:
                    guard let end = stringEnd(j) else { return nil }
                    j = end
                    continue
                case Self.openBrace, Self.openBracket:
                    depth += 1
                case Self.closeBrace, Self.closeBracket:
                    depth -= 1
                    if depth == 0 { return j + 1 }
                case 0x20, 0x0A, 0x0D, 0x09:
                    return nil
                default:
                    break
                }
                j += 1
            }
            return nil
        case Self.closeBrace, Self.closeBracket, Self.comma, Self.colon:
            return nil
        default:
            var j = i
            while j < bytes.count {
                let b = bytes[j]
                if b == Self.comma || b == Self.closeBrace || b == Self.closeBracket { break }
                if b <= 0x20 || b == Self.quote { return nil }
                j += 1
            }
            return j
        }
    }

    /// A member of an object: the bytes of its name between the quotes,
    /// and its value.
    package struct Member {
        package var name: Range<Int>
        package var value: Range<Int>
    }

    /// Where a walk over an object's members is: at the member starting
    /// at `next`, or past the last one.
    package enum MemberStep {
        case member(Member, next: Int?)
        case malformed
    }

    /// Where the first member of the object `range` starts; nil when it
    /// has none. `.none` inside: `range` is not an object.
    package func firstMember(of range: Range<Int>) -> Int?? {
        guard byte(range.lowerBound) == Self.openBrace else { return .none }
        let j = range.lowerBound + 1
        if byte(j) == Self.closeBrace { return j + 1 == range.upperBound ? .some(nil) : .none }
        return .some(j)
    }

    /// The member whose name starts at `i`, and where the next one starts
    /// (nil after the last: its `}` must end `range`).
    package func member(at i: Int, in range: Range<Int>) -> MemberStep {
        guard let nameEnd = stringEnd(i), byte(nameEnd) == Self.colon, let end = valueEnd(nameEnd + 1) else { return .malformed }
        let member = Member(name: i + 1 ..< nameEnd - 1, value: nameEnd + 1 ..< end)
        switch byte(end) {
        case Self.comma: return .member(member, next: end + 1)
        case Self.closeBrace: return end + 1 == range.upperBound ? .member(member, next: nil) : .malformed
        default: return .malformed
        }
    }

    /// Calls `body` with each member of the object `range`, in order;
    /// false when `range` is not an object in the daemon's form.
    /// - Complexity: O(bytes of the object); allocates nothing.
    package func forEachMember(of range: Range<Int>, _ body: (Member) -> Void) -> Bool {
        guard let first = firstMember(of: range) else { return false }
        var next = first
        while let i = next {
            guard case .member(let member, let after) = member(at: i, in: range) else { return false }
            body(member)
            next = after
        }
        return true
    }

    /// The last member of the object `range` whose name's bytes are
    /// `name`. The outer nil: `range` is not an object in the daemon's form.
    package func lastMember(of range: Range<Int>, named name: [UInt8]) -> Member?? {
        var found: Member?
        guard forEachMember(of: range, { if self.name($0.name, equals: name) { found = $0 } }) else { return nil }
        return .some(found)
    }

    /// The members of the object `range`, in order; nil when `range` is
    /// not an object in the daemon's form.
    /// - Complexity: O(bytes of the object).
    package func members(of range: Range<Int>) -> [Member]? {
        var members: [Member] = []
        guard forEachMember(of: range, { members.append($0) }) else { return nil }
        return members
    }

    /// The elements of the array `range`, in order; nil when `range` is
    /// not an array in the daemon's form.
    /// - Complexity: O(bytes of the array).
    package func elements(of range: Range<Int>) -> [Range<Int>]? {
        guard byte(range.lowerBound) == Self.openBracket else { return nil }
        var elements: [Range<Int>] = []
        var j = range.lowerBound + 1
        if byte(j) == Self.closeBracket { return j + 1 == range.upperBound ? elements : nil }
        while true {
            guard let end = valueEnd(j) else { return nil }
            elements.append(j ..< end)
            switch byte(end) {
            case Self.comma: j = end + 1
            case Self.closeBracket: return end + 1 == range.upperBound ? elements : nil
            default: return nil
            }
        }
    }

    /// Whether two ranges (of this buffer or `other`'s) hold equal bytes.
    package func equal(_ a: Range<Int>, _ other: CanonicalJSON, _ b: Range<Int>) -> Bool {
        guard a.count == b.count else { return false }
        guard let p = bytes.baseAddress, let q = other.bytes.baseAddress, a.count > 0 else { return true }
        return memcmp(p + a.lowerBound, q + b.lowerBound, a.count) == 0
    }

    /// How many bytes this buffer and `other` start with alike, and how
    /// many they then end with alike (the two never overlap in either).
    /// - Complexity: O(bytes), eight at a time.
    package func commonEnds(_ other: CanonicalJSON) -> (prefix: Int, suffix: Int) {
        let shorter = Swift.min(bytes.count, other.bytes.count)
        guard shorter > 0, let p = UnsafeRawPointer(bytes.baseAddress), let q = UnsafeRawPointer(other.bytes.baseAddress) else {
            return (0, 0)
        }
        var prefix = 0
        while prefix + 8 <= shorter,
              p.loadUnaligned(fromByteOffset: prefix, as: UInt64.self) == q.loadUnaligned(fromByteOffset: prefix, as: UInt64.self) {
            prefix += 8
        }
        while prefix < shorter, bytes[prefix] == other.bytes[prefix] { prefix += 1 }
        let (m, n) = (bytes.count, other.bytes.count)
        var suffix = 0
        while prefix + suffix < shorter, bytes[m - 1 - suffix] == other.bytes[n - 1 - suffix] { suffix += 1 }
        return (prefix, suffix)
    }

    /// The string `range` (quotes included) decoded; nil when it is not one.
    package func string(_ range: Range<Int>) -> String? {
        let inner = UnsafeBufferPointer(rebasing: bytes[range.lowerBound + 1 ..< range.upperBound - 1])
        if !inner.contains(Self.backslash) { return String(decoding: inner, as: UTF8.self) }
        guard case .string(let s)? = try? JSONParser.parse(Array(bytes[range])) else { return nil }
        return s
    }

    /// A member name as its pointer token written inside a JSON string:
    /// `~` and `/` escaped for the pointer, then the JSON escapes.
    package func pointerToken(name: Range<Int>) -> [UInt8]? {
        let inner = UnsafeBufferPointer(rebasing: bytes[name])
        if !inner.contains(where: { $0 == Self.backslash || $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) {
            return Array(inner)
        }
        guard let decoded = string(name.lowerBound - 1 ..< name.upperBound + 1) else { return nil }
        return Self.escapedInner(JSONPointer.escape(decoded))
    }

    /// `text` as the writer escapes it, without the quotes.
    package static func escapedInner(_ text: String) -> [UInt8] {
        var writer = JSONWriter()
        writer.appendString(text)
        return Array(writer.bytes.dropFirst().dropLast())
    }

    /// The search text of a content in the daemon's form (as
    /// `SnapshotCodec.searchText(of:)` finds it): a string content itself,
    /// or the string value of the last member named `text` of an object
    /// content. The outer nil: what it read is not in the daemon's form
    /// (an object without a `"text":` is not read at all).
    package func searchText() -> String?? {
        let whole = 0 ..< bytes.count
        switch byte(0) {
        case Self.quote:
            guard valueEnd(0) == bytes.count, let s = string(whole) else { return nil }
            return .some(s)
        case Self.openBrace:
            // No `"text":` anywhere: no member of that name (most contents).
            guard contains(Self.textKey) else { return .some(nil) }
            var last: Member?
            guard forEachMember(of: whole, { if name($0.name, is: "text") { last = $0 } }) else { return nil }
            guard let text = last, byte(text.value.lowerBound) == Self.quote else { return .some(nil) }
            guard let s = string(text.value) else { return nil }
            return .some(s)
        default:
            return .some(nil)
        }
    }

    /// A hash of the bytes `range` (FNV-1a), to tell names apart before
    /// comparing them.
    package func nameHash(_ range: Range<Int>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for i in range { hash = (hash ^ UInt64(bytes[i])) &* 0x100_0000_01b3 }
        return hash
    }

    /// Whether the name bytes `range` are exactly `name`.
    package func name(_ range: Range<Int>, equals name: [UInt8]) -> Bool {
        guard range.count == name.count else { return false }
        return name.withUnsafeBufferPointer { other in
            guard let p = bytes.baseAddress, let q = other.baseAddress, !name.isEmpty else { return true }
            return memcmp(p + range.lowerBound, q, name.count) == 0
        }
    }

    private static let textKey = Array(#""text":"#.utf8)

    /// Whether `needle` occurs in the bytes: `memchr` for its middle byte
    /// (the `x` of `"text":`, rare in contents, where its first byte, a
    /// quote, is everywhere), then a compare of the whole needle there.
    /// - Complexity: O(bytes × needle) at worst; O(bytes) when the middle
    ///   byte is rare.
    package func contains(_ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, needle.count <= bytes.count, let base = bytes.baseAddress else { return false }
        let anchor = needle.count / 2, key = needle[anchor]
        let end = bytes.count - needle.count + anchor  // last place the anchor byte can be
        var from = anchor
        return needle.withUnsafeBytes { n in
            guard let wanted = n.baseAddress else { return false }
            while from <= end {
                guard let hit = memchr(base + from, Int32(key), end + 1 - from) else { return false }
                let at = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                if memcmp(base + (at - anchor), wanted, needle.count) == 0 { return true }
                from = at + 1
            }
            return false
        }
    }

    /// Whether the name bytes `range` are exactly `literal` (ASCII, no escapes).
    package func name(_ range: Range<Int>, is literal: StaticString) -> Bool {
        guard range.count == literal.utf8CodeUnitCount, let base = bytes.baseAddress else { return false }
        return memcmp(literal.utf8Start, base + range.lowerBound, range.count) == 0
    }
}
