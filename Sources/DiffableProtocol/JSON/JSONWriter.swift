/// Compact JSON serializer and streaming byte builder.
///
/// Output is compact: no whitespace, object members in stored order, numbers
/// verbatim (their lexeme), strings escaped minimally per RFC 8259 (`"`, `\`
/// and control characters; `\b \f \n \r \t` short forms, other controls as
/// `\u00XX`, everything else — including non-ASCII — as raw UTF-8).
///
/// **Canonical form.** This compact form is the canonical form of item content:
/// two contents are equal iff their compact bytes are equal. Parsing then
/// writing normalizes whitespace and string escapes (`"\u0041"` and `"A"` give the
/// same bytes), but keeps member order, duplicate members and number spelling
/// (`1.0` and `1` are different content).
///
/// The writer never emits a raw newline (0x0A), so its output can be framed
/// one message per line.
///
/// Streaming use, without building a `JSON` tree:
///
///     var w = JSONWriter()
///     w.beginObject()
///     w.key("id"); w.appendString("item-1")
///     w.key("content"); w.appendRaw(contentBytes)
///     w.endObject()
///     send(w.bytes)
///
/// Commas are inserted automatically; the caller only pairs `key` with one value
/// inside objects. The writer does not check structural validity.
public struct JSONWriter: Sendable {
    /// The output so far.
    public var bytes: [UInt8]
    /// True when the next value/key at the current level needs a leading comma.
    private var needsComma = false

    public init(reservingCapacity capacity: Int = 0) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Continues writing after existing bytes (e.g. a frame header).
    public init(appendingTo bytes: [UInt8]) {
        self.bytes = bytes
    }

    // MARK: Static API

    /// Appends the compact serialization of `value` to `output`.
    /// - Complexity: O(size of the output).
    public static func write(_ value: JSON, into output: inout [UInt8]) {
        var writer = JSONWriter(appendingTo: [])
        swap(&writer.bytes, &output)
        writer.append(value)
        swap(&writer.bytes, &output)
    }

    /// The compact (canonical) serialization of `value`.
    public static func bytes(_ value: JSON) -> [UInt8] {
        var writer = JSONWriter()
        writer.append(value)
        return writer.bytes
    }

    /// The compact serialization of `value`, handed to `emit` in pieces of
    /// about `chunk` bytes, each valid only during the call; a raw fragment
    /// of at least `chunk` bytes is handed over as it is, not copied. What
    /// `emit` receives, joined, is `bytes(value)`: a large reply is written
    /// out without a second buffer as large as it.
    /// - Complexity: O(size of the output), O(chunk) memory.
    public static func stream(_ value: JSON, chunk: Int = 1 << 20, _ emit: (UnsafeRawBufferPointer) -> Void) {
        var writer = JSONWriter(reservingCapacity: Swift.min(chunk, 1 << 16))
        writer.stream(value, chunk: chunk, emit)
        writer.flush(emit)
    }

    /// `stream` into `buffer` (whose storage is reused from call to call),
    /// leaving the last piece in `buffer` rather than emitting it: a value
    /// shorter than `chunk` is never emitted at all, and is written without
    /// an allocation once `buffer` has grown.
    /// - Complexity: O(size of the output), O(chunk) memory.
    public static func stream(_ value: JSON, chunk: Int = 1 << 20, reusing buffer: inout [UInt8],
                              _ emit: (UnsafeRawBufferPointer) -> Void) {
        var writer = JSONWriter()
        swap(&writer.bytes, &buffer)
        writer.bytes.removeAll(keepingCapacity: true)
        writer.stream(value, chunk: chunk, emit)
        swap(&writer.bytes, &buffer)
    }

    private mutating func stream(_ value: JSON, chunk: Int, _ emit: (UnsafeRawBufferPointer) -> Void) {
        walk(value) { writer, leaf in
            if case .raw(let fragment) = leaf, fragment.count >= chunk {
                writer.separator()
                writer.flush(emit)
                fragment.withUnsafeBytes(emit)
                writer.needsComma = true
            } else {
                writer.append(leaf: leaf)
            }
            if writer.bytes.count >= chunk { writer.flush(emit) }
        }
    }

    private mutating func flush(_ emit: (UnsafeRawBufferPointer) -> Void) {
        guard !bytes.isEmpty else { return }
        bytes.withUnsafeBytes(emit)
        bytes.removeAll(keepingCapacity: true)
    }

    /// The compact serialization as a String (for logging and tests).
    public static func string(_ value: JSON) -> String {
        String(decoding: bytes(value), as: UTF8.self)
    }

    // MARK: Structure

    @inline(__always) private mutating func separator() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    public mutating func beginObject() {
        separator()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
    }

    public mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    public mutating func beginArray() {
        separator()
        bytes.append(UInt8(ascii: "["))
        needsComma = false
    }

    public mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// Writes a member name and `:`; the next append is its value.
    public mutating func key(_ name: String) {
        separator()
        writeEscaped(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// Writes a member name given as pre-escaped ASCII (no quotes), e.g. `key(raw: "id")`.
    /// - Precondition: `name` needs no escaping.
    public mutating func key(raw name: StaticString) {
        separator()
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    // MARK: Values

    public mutating func appendString(_ value: String) {
        separator()
        writeEscaped(value)
        needsComma = true
    }

    /// Appends a string given as its UTF-8 bytes (valid UTF-8).
    public mutating func appendString(utf8: UnsafeBufferPointer<UInt8>) {
        separator()
        writeEscaped(utf8)
        needsComma = true
    }

    public mutating func appendInt(_ value: Int) {
        separator()
        writeInt(value)
        needsComma = true
    }

    public mutating func appendBool(_ value: Bool) {
        separator()
        if value {
            bytes.append(contentsOf: [0x74, 0x72, 0x75, 0x65] as [UInt8])  // true
        } else {
            bytes.append(contentsOf: [0x66, 0x61, 0x6C, 0x73, 0x65] as [UInt8])  // false
        }
        needsComma = true
    }

    public mutating func appendNull() {
        separator()
        bytes.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C] as [UInt8])  // null
        needsComma = true
    }

    /// Appends a number lexeme verbatim.
    /// - Precondition: `lexeme` is a valid JSON number.
    public mutating func appendNumber(_ lexeme: String) {
        separator()
        bytes.append(contentsOf: lexeme.utf8)
        needsComma = true
    }

    /// Appends a pre-serialized JSON value verbatim (e.g. stored canonical content).
    /// - Precondition: `fragment` is one valid compact JSON value without raw newlines.
    /// - Complexity: O(fragment.count), a single bulk copy.
    public mutating func appendRaw<C: Collection>(_ fragment: C) where C.Element == UInt8 {
        separator()
        bytes.append(contentsOf: fragment)
        needsComma = true
    }

    /// Appends any `JSON` value.
    /// - Complexity: O(size of the output), with a stack as deep as the
    ///   value's nesting on the heap (no recursion).
    public mutating func append(_ value: JSON) {
        walk(value) { writer, leaf in writer.append(leaf: leaf) }
    }

    /// The compact serialization of `value`, or nil when it nests deeper
    /// than `maxDepth` arrays and objects (a scalar has depth 0).
    /// - Complexity: O(size of the output).
    public static func bytes(_ value: JSON, maxDepth: Int) -> [UInt8]? {
        var writer = JSONWriter()
        // Most contents are one object or array of scalars (a row's
        // fields): written directly, without the walk's stack.
        if maxDepth >= 1, writer.appendFlat(value) { return writer.bytes }
        guard writer.stackWalk(value, maxDepth: maxDepth, { writer, leaf in writer.append(leaf: leaf) }) else { return nil }
        return writer.bytes
    }

    /// Writes `value` when it is a scalar, or an object or array whose
    /// members are all scalars, exactly as `walk` would; false, with
    /// nothing written, for anything that nests deeper.
    private mutating func appendFlat(_ value: JSON) -> Bool {
        switch value {
        case .object(let object):
            guard !object.members.contains(where: { $0.value.isContainer }) else { return false }
            beginObject()
            for member in object.members {
                key(member.key)
                append(leaf: member.value)
            }
            endObject()
        case .array(let elements):
            guard !elements.contains(where: \.isContainer) else { return false }
            beginArray()
            for element in elements { append(leaf: element) }
            endArray()
        default:
            append(leaf: value)
        }
        return true
    }

    /// Levels that `walk` writes by recursion before it moves to an
    /// explicit stack: a constant bound, whatever the input. Most replies
    /// nest less, and then need no stack allocated at all.
    package static let recursionLevels = 6

    /// Writes the brackets, keys and commas of `value` and hands every
    /// scalar (and raw fragment) to `leaf`. The first `recursionLevels`
    /// levels recurse; deeper containers wait on an explicit stack
    /// (`stackWalk`), so no input can exhaust the call stack.
    private mutating func walk(_ value: JSON, levels: Int = JSONWriter.recursionLevels,
                               _ leaf: (inout JSONWriter, JSON) -> Void) {
        switch value {
        case .array(let elements):
            guard levels > 0 else {
                stackWalk(value, leaf)
                return
            }
            beginArray()
            for element in elements { walk(element, levels: levels - 1, leaf) }
            endArray()
        case .object(let object):
            guard levels > 0 else {
                stackWalk(value, leaf)
                return
            }
            beginObject()
            for member in object.members {
                key(member.key)
                walk(member.value, levels: levels - 1, leaf)
            }
            endObject()
        default:
            leaf(&self, value)
        }
    }

    /// `walk` with every container on an explicit stack; false, with the
    /// output cut short, when the value nests deeper than `maxDepth`.
    @discardableResult
    private mutating func stackWalk(_ value: JSON, maxDepth: Int = .max,
                                    _ leaf: (inout JSONWriter, JSON) -> Void) -> Bool {
        enum Open {
            case array([JSON], next: Int)
            case object(JSONObject, next: Int)
        }
        var stack: [Open] = []
        var next: JSON? = value
        while true {
            if let current = next {
                next = nil
                switch current {
                case .array(let elements):
                    guard stack.count < maxDepth else { return false }
                    beginArray()
                    stack.append(.array(elements, next: 0))
                case .object(let object):
                    guard stack.count < maxDepth else { return false }
                    beginObject()
                    stack.append(.object(object, next: 0))
                default:
                    leaf(&self, current)
                }
            }
            guard let top = stack.popLast() else { return true }
            switch top {
            case .array(let elements, let index):
                if index < elements.count {
                    next = elements[index]
                    stack.append(.array(elements, next: index + 1))
                } else {
                    endArray()
                }
            case .object(let object, let index):
                if index < object.count {
                    let member = object.members[index]
                    key(member.key)
                    next = member.value
                    stack.append(.object(object, next: index + 1))
                } else {
                    endObject()
                }
            }
        }
    }

    /// A value that is neither an array nor an object.
    private mutating func append(leaf value: JSON) {
        switch value {
        case .null: appendNull()
        case .bool(let b): appendBool(b)
        case .number(let n): appendNumber(n)
        case .string(let s): appendString(s)
        case .raw(let bytes): appendRaw(bytes)
        case .array, .object: append(value)
        }
    }

    // MARK: Encoding

    private mutating func writeInt(_ value: Int) {
        if value >= 0 && value < 10 {
            bytes.append(UInt8(ascii: "0") &+ UInt8(value))
            return
        }
        var magnitude = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { digits in
            var i = digits.count
            repeat {
                i -= 1
                digits[i] = UInt8(ascii: "0") &+ UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if value < 0 {
                i -= 1
                digits[i] = UInt8(ascii: "-")
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[i...]))
        }
    }

    private mutating func writeEscaped(_ string: String) {
        var string = string
        string.withUTF8 { utf8 in
            writeEscaped(utf8)
        }
    }

    /// Writes `"…"`, copying runs of bytes that need no escaping in bulk.
    private mutating func writeEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        bytes.append(UInt8(ascii: "\""))
        var runStart = 0
        var i = 0
        let count = utf8.count
        while i < count {
            i = ByteRuns.escapeFreeRunEnd(utf8, from: i, end: count)
            guard i < count else { break }
            let b = utf8[i]
            if runStart < i {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<i]))
            }
            switch b {
            case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "\""))
            case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "\\"))
            case 0x08: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "b"))
            case 0x0C: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "f"))
            case 0x0A: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "n"))
            case 0x0D: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "r"))
            case 0x09: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "t"))
            default:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                          hex[Int(b >> 4)], hex[Int(b & 0xF)]])
            }
            i += 1
            runStart = i
        }
        if runStart < count {
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<count]))
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
