/// Typed, path-aware access to a request's `params` object. Every failure is
/// an `invalidParams` error whose `data.path` names the offending field.
package struct Params {
    package let object: JSONObject
    package let path: String
    /// Whether `null` means absent (see `member`).
    package var lenient = false

    /// The params of a request, which may name only the `accepted` members
    /// (and `universalMembers`; see `checkMembers`), or any member when
    /// `accepted` is nil.
    package init(_ value: JSON?, accepting accepted: [String]?, path: String = "params") throws(RPCError) {
        guard case .object(let object)? = value else {
            throw .invalidParams("params must be an object", data: Params.pathData(path))
        }
        self.object = object
        self.path = path
        if let accepted { try checkMembers(accepted) }
    }

    package init(object: JSONObject, path: String) {
        self.object = object
        self.path = path
    }

    package static func pathData(_ path: String) -> JSON {
        .object(JSONObject([("path", .string(path))]))
    }

    package func fieldPath(_ key: String) -> String { "\(path).\(key)" }

    package func wrongType(_ key: String, _ expected: String) -> RPCError {
        .invalidParams("\(fieldPath(key)) must be \(expected)", data: Params.pathData(fieldPath(key)))
    }

    package func missing(_ key: String, _ expected: String) -> RPCError {
        .invalidParams("\(fieldPath(key)) is required (\(expected))", data: Params.pathData(fieldPath(key)))
    }

    package func string(_ key: String) throws(RPCError) -> String {
        guard let value = object[key] else { throw missing(key, "a string") }
        guard case .string(let s) = value else { throw wrongType(key, "a string") }
        return s
    }

    /// A required, non-empty source name.
    package func sourceName() throws(RPCError) -> String {
        let name = try string("source")
        guard !name.isEmpty else {
            throw .invalidParams("\(fieldPath("source")) must not be empty", data: Params.pathData(fieldPath("source")))
        }
        return name
    }

    /// The member `key`, nil when absent. An optional member is absent or
    /// of its type: `null` is not a way to leave it out (the schemas say
    /// so too), except where the spec gives `null` a meaning and the caller
    /// reads the member itself (`viewport: null`), and at the top of
    /// `initialize`, whose LSP members may be null (`lenient`).
    package func member(_ key: String) throws(RPCError) -> JSON? {
        guard let value = object[key] else { return nil }
        guard !value.isNull || lenient else {
            throw .invalidParams("\(fieldPath(key)) must not be null: leave it out to mean its default",
                                 data: Params.pathData(fieldPath(key)))
        }
        // Spelled out: `JSON` is nil-literal expressible, so `cond ? nil : value` would be `.null`.
        if value.isNull { return Optional<JSON>.none }
        return value
    }

    package func optionalString(_ key: String) throws(RPCError) -> String? {
        guard let value = try member(key) else { return nil }
        guard case .string(let s) = value else { throw wrongType(key, "a string") }
        return s
    }

    package func optionalInt(_ key: String) throws(RPCError) -> Int? {
        guard let value = try member(key) else { return nil }
        guard let i = value.intValue else { throw wrongType(key, "an integer") }
        return i
    }

    /// A non-negative integer (a version, a count, a row).
    package func optionalCount(_ key: String) throws(RPCError) -> Int? {
        guard let value = try optionalInt(key) else { return nil }
        guard value >= 0 else { throw wrongType(key, "a non-negative integer") }
        return value
    }

    package func optionalBool(_ key: String) throws(RPCError) -> Bool? {
        guard let value = try member(key) else { return nil }
        guard case .bool(let b) = value else { throw wrongType(key, "true or false") }
        return b
    }

    package func array(_ key: String) throws(RPCError) -> [JSON] {
        guard let value = object[key] else { throw missing(key, "an array") }
        guard case .array(let a) = value else { throw wrongType(key, "an array") }
        return a
    }

    package func optionalArray(_ key: String) throws(RPCError) -> [JSON]? {
        guard let value = try member(key) else { return nil }
        guard case .array(let a) = value else { throw wrongType(key, "an array") }
        return a
    }

    package func optionalObject(_ key: String) throws(RPCError) -> Params? {
        guard let value = try member(key) else { return nil }
        guard case .object(let o) = value else { throw wrongType(key, "an object") }
        return Params(object: o, path: fieldPath(key))
    }

    /// A string restricted to `allowed` values.
    package func optionalEnum(_ key: String, _ allowed: [String]) throws(RPCError) -> String? {
        guard let s = try optionalString(key) else { return nil }
        guard allowed.contains(s) else {
            let list = allowed.map { "\"\($0)\"" }.joined(separator: ", ")
            let guess = Self.closest(to: s, in: allowed)
            let hint = guess.map { " (did you mean \"\($0)\"?)" } ?? ""
            throw .invalidParams("\(fieldPath(key)) must be one of \(list), got \"\(s)\"\(hint)",
                                 data: .object(JSONObject([("path", .string(fieldPath(key)))]
                                                          + (guess.map { [("suggestion", .string($0))] } ?? []))))
        }
        return s
    }
}
