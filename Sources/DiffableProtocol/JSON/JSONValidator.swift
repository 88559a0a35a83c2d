/// Checks that bytes hold valid JSON exactly as `JSONParser` accepts it
/// without building anything: `JSONReader`'s grammar (the parser's own)
/// with a builder that keeps nothing but split hints.
///
/// Used to accept a large request up front (a parse error must be reported
/// before anything runs) while its `params` are decoded later, straight from
/// the bytes. A `false` answer means "not valid": parse with `JSONParser` to
/// get the error.
package struct JSONValidator {
    private var reader: JSONReader
    private var hints = SplitHints()

    /// An array element that a decoder may start at.
    package struct SplitHint: Sendable, Equatable {
        /// The offset of the array's `[`.
        package var array: Int
        /// The offset of the element's first byte.
        package var element: Int
    }

    package init(_ input: UnsafeBufferPointer<UInt8>, at pos: Int = 0, maxDepth: Int = JSONParser.defaultMaxDepth) {
        reader = JSONReader(input, at: pos, maxDepth: maxDepth)
    }

    package var pos: Int {
        get { reader.pos }
        set { reader.pos = newValue }
    }

    package var end: Int { reader.end }

    /// Array elements noted on the way, at most one per `hintSpacing` bytes:
    /// where an element starts and where its array does. A large array can
    /// then be decoded in parts on several threads (see `ApplyScanner`).
    package var splitHints: [SplitHint] { hints.noted }

    /// Bytes between two split hints (`Int.max`: none are noted).
    package var hintSpacing: Int {
        get { hints.spacing }
        set { hints.spacing = newValue }
    }

    @inline(__always) package func byte(_ i: Int) -> UInt8? { reader.byte(i) }

    @inline(__always) package mutating func skipWhitespace() { reader.skipWhitespace() }

    /// Skips whitespace and one value nested in `depth` already open
    /// containers; false when the parser would reject it.
    package mutating func skipValue(depth: Int) -> Bool {
        if hints.next == Int.max && hints.spacing != Int.max { hints.next = reader.pos + hints.spacing }
        hints.arrays.removeAll(keepingCapacity: true)
        do {
            try reader.readValue(depth: depth, into: &hints)
            return true
        } catch {
            return false
        }
    }

    /// A member's name and its colon at the cursor, whitespace around both
    /// skipped: the name's bytes between its quotes and whether they hold
    /// escapes; nil when the bytes there are not a name and a colon.
    package mutating func memberName() -> (name: Range<Int>, escaped: Bool)? {
        skipWhitespace()
        let start = reader.pos
        guard byte(start) == UInt8(ascii: "\""), let escaped = skipString() else { return nil }
        let name = start + 1 ..< reader.pos - 1
        skipWhitespace()
        guard byte(reader.pos) == UInt8(ascii: ":") else { return nil }
        reader.pos += 1
        skipWhitespace()
        return (name, escaped)
    }

    /// Skips a string starting at its opening quote; returns whether it
    /// contains escapes, or nil when it is invalid.
    package mutating func skipString() -> Bool? {
        var none = NoDecoding()
        return try? reader.readString(decoding: &none)
    }
}

/// The validator's builder: nothing is built; every `hintSpacing` bytes an
/// array element's start is noted, and items in the compact shapes are
/// read by their spellings (`JSONValidator+CompactItems.swift`).
struct SplitHints: JSONBuilder {
    var noted: [JSONValidator.SplitHint] = []
    var spacing = Int.max
    var next = Int.max
    /// The `[` of each open container that is an array (-1 for an
    /// object), while hints are noted.
    var arrays: [Int] = []

    @inline(__always) func skipsWholeObject(_ reader: inout JSONReader) -> Bool {
        // Most of a large request is items in one compact shape.
        JSONValidator.skipCompactItem(&reader)
    }

    @inline(__always) func emptyContainer(isObject: Bool, _ reader: inout JSONReader) {}
    @inline(__always) mutating func containerOpens(isObject: Bool, at opened: Int, _ reader: inout JSONReader) {
        if spacing != Int.max { arrays.append(isObject ? -1 : opened) }
    }

    @inline(__always) mutating func containerCloses(isObject: Bool, _ reader: inout JSONReader) {
        if spacing != Int.max { arrays.removeLast() }
    }

    @inline(__always) func key(_ reader: inout JSONReader) throws(JSONParseError) {
        var none = NoDecoding()
        _ = try reader.readString(decoding: &none)
    }

    @inline(__always) func string(_ reader: inout JSONReader) throws(JSONParseError) {
        var none = NoDecoding()
        _ = try reader.readString(decoding: &none)
    }

    @inline(__always) func number(_ reader: inout JSONReader) throws(JSONParseError) { try reader.readNumber() }

    @inline(__always) func literal(_ literal: StaticString, _ value: JSON, _ reader: inout JSONReader) throws(JSONParseError) {
        try reader.readLiteral(literal)
    }

    @inline(__always) mutating func elementFollows(_ reader: inout JSONReader) {
        guard reader.pos >= next, let array = arrays.last else { return }
        reader.skipWhitespace()
        noted.append(JSONValidator.SplitHint(array: array, element: reader.pos))
        next = reader.pos + spacing
    }
}
