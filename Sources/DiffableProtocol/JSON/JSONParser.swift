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

/// A strict RFC 8259 parser working directly on UTF-8 bytes: `JSONReader`'s
/// grammar, building a `JSON` tree.
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
            do throws(JSONParseError) {
                return .success(try parseDocument(buffer, maxDepth: maxDepth).value)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// `parse`, with about the memory the value takes, counted while it was
    /// built (what `JSON.footprint` would walk the tree to find).
    /// `buffers`: the parser's working stacks, kept by a caller that parses
    /// message after message, so a small message allocates only its values.
    /// - Complexity: O(n) in the input length.
    package static func parseCountingFootprint(_ bytes: [UInt8], reusing buffers: inout ParseBuffers) throws(JSONParseError) -> (value: JSON, footprint: Int) {
        let result: Result<(JSON, Int), JSONParseError> = bytes.withUnsafeBufferPointer { buffer in
            do throws(JSONParseError) {
                let (value, footprint) = try parseDocument(buffer, maxDepth: defaultMaxDepth, reusing: &buffers)
                return .success((value, MemoryLayout<JSON>.stride + footprint))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// `parseCountingFootprint(_:reusing:)` with stacks of its own.
    package static func parseCountingFootprint(_ bytes: [UInt8]) throws(JSONParseError) -> (value: JSON, footprint: Int) {
        var buffers = ParseBuffers()
        return try parseCountingFootprint(bytes, reusing: &buffers)
    }

    /// The parser's working stacks between two messages: empty, with the
    /// capacity small messages need.
    package struct ParseBuffers {
        fileprivate var values: [JSON] = []
        fileprivate var keys: [String] = []
        fileprivate var frames: [TreeBuilder.Frame] = []
        fileprivate var scratch: [UInt8] = []

        package init() {
            // Room for a request's envelope and small params at once: grown
            // from empty, each stack would be reallocated a few times per message.
            values.reserveCapacity(16)
            keys.reserveCapacity(16)
            frames.reserveCapacity(8)
        }

        /// Emptied for the next message; stacks a large message grew are
        /// let go rather than held between messages.
        /// Stacks without storage, in place of buffers lent to a parse.
        fileprivate static let taken = ParseBuffers(empty: ())

        private init(empty: Void) {}

        fileprivate mutating func reset() {
            if values.capacity > 1024 || keys.capacity > 1024 || frames.capacity > 1024 || scratch.capacity > 1 << 16 {
                self = ParseBuffers()
            } else {
                values.removeAll(keepingCapacity: true)
                keys.removeAll(keepingCapacity: true)
                frames.removeAll(keepingCapacity: true)
            }
        }
    }

    /// - Complexity: O(n) in the input length.
    public static func parse(_ buffer: UnsafeRawBufferPointer, maxDepth: Int = defaultMaxDepth) throws(JSONParseError) -> JSON {
        try parseDocument(buffer.bindMemoryOrEmpty(), maxDepth: maxDepth).value
    }

    /// One value and nothing but whitespace around it, and what it takes.
    private static func parseDocument(_ input: UnsafeBufferPointer<UInt8>, maxDepth: Int) throws(JSONParseError) -> (value: JSON, footprint: Int) {
        var buffers = ParseBuffers()
        return try parseDocument(input, maxDepth: maxDepth, reusing: &buffers)
    }

    private static func parseDocument(_ input: UnsafeBufferPointer<UInt8>, maxDepth: Int,
                                      reusing buffers: inout ParseBuffers) throws(JSONParseError) -> (value: JSON, footprint: Int) {
        var reader = JSONReader(input, maxDepth: maxDepth)
        var tree = TreeBuilder(textCount: input.count, buffers: buffers)
        buffers = ParseBuffers.taken
        defer { buffers = tree.giveBack() }
        try reader.readValue(into: &tree)
        reader.skipWhitespace()
        guard reader.pos == reader.end else { throw reader.fail("trailing characters after the JSON value") }
        guard let value = tree.values.popLast() else { throw reader.fail("internal error: no value") }
        return (value, tree.footprint)
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

/// A heap buffer's headers (the allocator's and Swift's), roughly.
private let containerCost = 48
/// A value's slot in its container, and its slot on the parser's working
/// stack, which grows by doubling: counted as each value is read, so a
/// message over budget is refused before its largest array is built.
private let valueCost = 3 * MemoryLayout<JSON>.stride

/// Builds the tree of the values `JSONReader` reads, counting the memory
/// it takes against the parser's budget.
private struct TreeBuilder: JSONBuilder {
    /// Where an open container's members start in `values` and `keys`.
    struct Frame {
        var valueStart: Int
        var keyStart: Int
    }

    /// Completed values of all open containers, flattened (linear-time building).
    var values: [JSON]
    var keys: [String]
    var frames: [Frame]
    /// A string's text when it has escapes.
    var scratch: Scratch
    /// What the values built so far take, and the most they may.
    var footprint = 0
    let maxFootprint: Int

    init(textCount: Int, buffers: JSONParser.ParseBuffers) {
        let (budget, overflow) = textCount.multipliedReportingOverflow(by: JSONParser.maxFootprintPerByte)
        maxFootprint = overflow ? .max : max(budget, JSONParser.minimumFootprintBudget)
        values = buffers.values
        keys = buffers.keys
        frames = buffers.frames
        scratch = Scratch(bytes: buffers.scratch)
    }

    /// The stacks, emptied, for the next message.
    mutating func giveBack() -> JSONParser.ParseBuffers {
        var buffers = JSONParser.ParseBuffers.taken
        swap(&buffers.values, &values)
        swap(&buffers.keys, &keys)
        swap(&buffers.frames, &frames)
        swap(&buffers.scratch, &scratch.bytes)
        buffers.reset()
        return buffers
    }

    /// Counts `bytes` more of the parsed form against the budget.
    @inline(__always) mutating func spend(_ bytes: Int, _ reader: JSONReader) throws(JSONParseError) {
        footprint += bytes
        if footprint > maxFootprint {
            throw reader.fail("the message would take more than \(JSONParser.maxFootprintPerByte) bytes of memory per byte of its text once read (\(maxFootprint) bytes); send it in smaller values or in parts")
        }
    }

    func skipsWholeObject(_ reader: inout JSONReader) -> Bool { false }

    mutating func emptyContainer(isObject: Bool, _ reader: inout JSONReader) throws(JSONParseError) {
        try spend(valueCost, reader)
        values.append(isObject ? .object(JSONObject()) : .array([]))
    }

    mutating func containerOpens(isObject: Bool, at opened: Int, _ reader: inout JSONReader) throws(JSONParseError) {
        try spend(valueCost, reader)
        frames.append(Frame(valueStart: values.count, keyStart: keys.count))
    }

    mutating func containerCloses(isObject: Bool, _ reader: inout JSONReader) throws(JSONParseError) {
        guard let frame = frames.popLast() else { throw reader.fail("internal error: no open container") }
        if isObject {
            var members: [(key: String, value: JSON)] = []
            members.reserveCapacity(values.count - frame.valueStart)
            for (key, value) in zip(keys[frame.keyStart...], values[frame.valueStart...]) {
                members.append((key: key, value: value))
            }
            values.removeSubrange(frame.valueStart...)
            keys.removeSubrange(frame.keyStart...)
            try spend(containerCost + members.count * (MemoryLayout<(key: String, value: JSON)>.stride - MemoryLayout<JSON>.stride)
                      + (members.count > JSONObject.indexThreshold ? containerCost + 4 * members.count * 16 : 0), reader)
            values.append(.object(JSONObject(members: members)))
        } else {
            let elements = Array(values[frame.valueStart...])
            values.removeSubrange(frame.valueStart...)
            try spend(containerCost, reader)
            values.append(.array(elements))
        }
    }

    mutating func key(_ reader: inout JSONReader) throws(JSONParseError) {
        keys.append(try countedString(&reader))
    }

    mutating func string(_ reader: inout JSONReader) throws(JSONParseError) {
        try spend(valueCost, reader)
        values.append(.string(try countedString(&reader)))
    }

    mutating func number(_ reader: inout JSONReader) throws(JSONParseError) {
        try spend(valueCost, reader)
        let start = reader.pos
        try reader.readNumber()
        values.append(.number(String(decoding: UnsafeBufferPointer(rebasing: reader.input[start..<reader.pos]), as: UTF8.self)))
    }

    mutating func literal(_ literal: StaticString, _ value: JSON, _ reader: inout JSONReader) throws(JSONParseError) {
        try reader.readLiteral(literal)
        try spend(valueCost, reader)
        values.append(value)
    }

    func elementFollows(_ reader: inout JSONReader) {}

    /// The string at the reader, its text counted against the budget when
    /// it is too long to be stored inline (over 15 UTF-8 bytes).
    /// - Complexity: O(length); no copy beyond the final `String` for
    ///   escape-free strings.
    private mutating func countedString(_ reader: inout JSONReader) throws(JSONParseError) -> String {
        let start = reader.pos + 1
        let string: String
        if try reader.readString(decoding: &scratch) {
            string = String(decoding: scratch.bytes, as: UTF8.self)
        } else {
            string = String(decoding: UnsafeBufferPointer(rebasing: reader.input[start..<reader.pos - 1]), as: UTF8.self)
        }
        let count = string.utf8.count
        if count > 15 { try spend(containerCost + count, reader) }
        return string
    }
}

/// The text of a string with escapes, as UTF-8.
private struct Scratch: JSONStringDecoding {
    var bytes: [UInt8] = []

    mutating func begin() { bytes.removeAll(keepingCapacity: true) }

    mutating func append(_ run: UnsafeBufferPointer<UInt8>) { bytes.append(contentsOf: run) }

    /// A valid scalar value (not a surrogate, ≤ 0x10FFFF) as UTF-8.
    mutating func append(scalar v: UInt32) {
        switch v {
        case 0..<0x80:
            bytes.append(UInt8(v))
        case 0x80..<0x800:
            bytes.append(UInt8(0xC0 | (v >> 6)))
            bytes.append(UInt8(0x80 | (v & 0x3F)))
        case 0x800..<0x10000:
            bytes.append(UInt8(0xE0 | (v >> 12)))
            bytes.append(UInt8(0x80 | ((v >> 6) & 0x3F)))
            bytes.append(UInt8(0x80 | (v & 0x3F)))
        default:
            bytes.append(UInt8(0xF0 | ((v >> 18) & 0x07)))
            bytes.append(UInt8(0x80 | ((v >> 12) & 0x3F)))
            bytes.append(UInt8(0x80 | ((v >> 6) & 0x3F)))
            bytes.append(UInt8(0x80 | (v & 0x3F)))
        }
    }
}
