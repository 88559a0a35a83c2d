/// A JSON value as it travels over the wire.
///
/// Numbers keep the exact lexeme they were received with (`.number("1.50")`),
/// so request ids and client data are echoed back verbatim, with their type and
/// spelling. Strings are fully decoded (escapes resolved).
///
/// Equality is structural: objects compare their members in stored order,
/// numbers compare their lexemes (`1.0` != `1`).
public enum JSON: Equatable, Sendable {
    case null
    case bool(Bool)
    /// The exact number lexeme, e.g. `-12`, `0.5`, `1E+3`.
    case number(String)
    case string(String)
    case array([JSON])
    case object(JSONObject)
    /// Bytes that are already canonical compact JSON (stored item content),
    /// spliced verbatim by the writer. The parser never produces it.
    case raw([UInt8])
}

/// An ordered JSON object.
///
/// Members keep their received order (the writer emits them in that order).
/// Duplicate keys are kept in `members`; lookup by key returns the last one.
///
/// Equality compares members pairwise in order.
public struct JSONObject: Equatable, Sendable {
    /// Members in stored order, duplicates included.
    public private(set) var members: [(key: String, value: JSON)]

    /// Objects this small are searched linearly; that beats hashing for
    /// the typical 1–8 member request object.
    @usableFromInline package static let indexThreshold = 16
    /// Key → index of the last member with that key; only for large objects.
    private var index: [String: Int]?

    public init() {
        members = []
        index = nil
    }

    /// - Complexity: O(n).
    public init(_ members: [(String, JSON)]) {
        self.members = members.map { (key: $0.0, value: $0.1) }
        rebuildIndex()
    }

    /// - Complexity: O(n).
    public init(members: [(key: String, value: JSON)]) {
        self.members = members
        rebuildIndex()
    }

    private mutating func rebuildIndex() {
        guard members.count > Self.indexThreshold else {
            index = nil
            return
        }
        var map = [String: Int](minimumCapacity: members.count)
        for (i, member) in members.enumerated() {
            map[member.key] = i
        }
        index = map
    }

    public var count: Int { members.count }
    public var isEmpty: Bool { members.isEmpty }
    /// Keys in stored order (duplicates included).
    public var keys: [String] { members.map(\.key) }

    /// The value of the last member named `key`.
    ///
    /// Setting appends a new member, or replaces the last member with that key;
    /// setting `nil` removes every member with that key.
    /// - Complexity: O(1) for large objects, O(n) (n ≤ 16) otherwise; set is O(n) when removing.
    public subscript(key: String) -> JSON? {
        get {
            if let index {
                guard let i = index[key] else { return nil }
                return members[i].value
            }
            var i = members.count - 1
            while i >= 0 {
                if members[i].key == key { return members[i].value }
                i -= 1
            }
            return nil
        }
        set {
            if let newValue {
                if let i = lastIndex(of: key) {
                    members[i].value = newValue
                } else {
                    members.append((key: key, value: newValue))
                    if index != nil {
                        index?[key] = members.count - 1
                    } else if members.count > Self.indexThreshold {
                        rebuildIndex()
                    }
                }
            } else if lastIndex(of: key) != nil {
                members.removeAll { $0.key == key }
                rebuildIndex()
            }
        }
    }

    private func lastIndex(of key: String) -> Int? {
        if let index { return index[key] }
        return members.lastIndex { $0.key == key }
    }

    /// Appends a member without checking for duplicates.
    /// - Complexity: amortized O(1).
    public mutating func append(key: String, value: JSON) {
        members.append((key: key, value: value))
        if index != nil {
            index?[key] = members.count - 1
        } else if members.count > Self.indexThreshold {
            rebuildIndex()
        }
    }

    /// The index of the last member whose name has exactly `key`'s bytes
    /// (what a JSON Pointer token names; `é` is not `e` + U+0301).
    /// - Complexity: O(n).
    package func lastIndex(ofBytes key: String) -> Int? {
        members.lastIndex { $0.key.utf8.elementsEqual(key.utf8) }
    }

    /// Sets the value of the member at `index`, keeping its name and place.
    package mutating func setValue(_ value: JSON, at index: Int) {
        members[index].value = value
    }

    /// Removes the member at `index`.
    /// - Complexity: O(n).
    package mutating func removeMember(at index: Int) {
        members.remove(at: index)
        rebuildIndex()
    }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.members.count == rhs.members.count else { return false }
        for (a, b) in zip(lhs.members, rhs.members) where a.key != b.key || a.value != b.value {
            return false
        }
        return true
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, JSON)...) {
        self.init(elements)
    }
}

// MARK: - Convenience accessors

extension JSON {
    /// A number from an integer.
    public static func int(_ value: Int) -> JSON { .number(String(value)) }

    /// A number from a finite double (shortest round-trip spelling); `null` for NaN/infinity,
    /// which JSON cannot represent.
    public static func double(_ value: Double) -> JSON {
        value.isFinite ? .number(value.description) : .null
    }

    public var isNull: Bool { if case .null = self { true } else { false } }

    /// An array or an object.
    public var isContainer: Bool {
        switch self {
        case .array, .object: true
        default: false
        }
    }

    public var boolValue: Bool? { if case .bool(let b) = self { b } else { nil } }

    public var stringValue: String? { if case .string(let s) = self { s } else { nil } }

    public var arrayValue: [JSON]? { if case .array(let a) = self { a } else { nil } }

    public var objectValue: JSONObject? { if case .object(let o) = self { o } else { nil } }

    /// The number lexeme, if this is a number.
    public var numberLexeme: String? { if case .number(let n) = self { n } else { nil } }

    /// The value of an integer lexeme (no fraction, no exponent) that fits in `Int`.
    /// `1.0`, `1e2` and out-of-range integers give `nil`.
    public var intValue: Int? {
        guard case .number(let lexeme) = self else { return nil }
        for byte in lexeme.utf8 where byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e")
            || byte == UInt8(ascii: "E") || byte == UInt8(ascii: "+") {
            return nil
        }
        return Int(lexeme)
    }

    /// The number as a `Double` (may round), if this is a number.
    public var doubleValue: Double? {
        guard case .number(let lexeme) = self else { return nil }
        return Double(lexeme)
    }

    /// `self[key]` for objects, `nil` otherwise.
    public subscript(key: String) -> JSON? {
        guard case .object(let object) = self else { return nil }
        return object[key]
    }
}

// MARK: - Literals

extension JSON: ExpressibleByNilLiteral {
    public init(nilLiteral: ()) { self = .null }
}

extension JSON: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSON: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int) { self = .number(String(value)) }
}

extension JSON: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Double) { self = .double(value) }
}

extension JSON: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
}

extension JSON: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: JSON...) { self = .array(elements) }
}

extension JSON: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, JSON)...) {
        self = .object(JSONObject(elements))
    }
}
