/// Strict members: a request naming a member its method does not know is
/// refused (-32602), because a typo (`"frm"`, `"limt"`) would otherwise be
/// silently ignored and the user would get an answer to a question they did
/// not ask.
extension Params {
    /// Members every method accepts: LSP's progress token.
    package static let universalMembers = ["workDoneToken"]

    /// - Throws: `invalidParams` naming every unknown member, the accepted
    ///   ones, and the closest accepted one for each likely typo.
    /// - Complexity: O(members × accepted × name length²); both lists are short.
    package func checkMembers(_ accepted: [String], alsoAccepting universal: [String] = Params.universalMembers) throws(RPCError) {
        // The common case, every member known, allocates nothing.
        guard object.members.contains(where: { !accepted.contains($0.key) && !universal.contains($0.key) }) else { return }
        let allowed = accepted + universal
        let unknown = object.keys.filter { !allowed.contains($0) }
        guard !unknown.isEmpty else { return }
        var suggestions: [(String, JSON)] = []
        var phrases: [String] = []
        for name in unknown {
            if let guess = Self.closest(to: name, in: allowed) {
                suggestions.append((name, .string(guess)))
                phrases.append("\"\(name)\" (did you mean \"\(guess)\"?)")
            } else {
                phrases.append("\"\(name)\"")
            }
        }
        let noun = unknown.count == 1 ? "member" : "members"
        let accepts = allowed.isEmpty ? "this method takes no params" : "accepted: \(allowed.joined(separator: ", "))"
        throw .invalidParams(
            "Unknown \(noun) \(phrases.joined(separator: ", ")) in \(path); \(accepts). Nothing was changed.",
            data: .object(JSONObject([
                ("path", .string(path)),
                ("unknown", .array(unknown.map { .string($0) })),
                ("accepted", .array(allowed.map { .string($0) })),
                ("suggestions", .object(JSONObject(suggestions))),
            ])))
    }

    /// The params of a method that takes none: absent, `null`, `{}` and `[]`
    /// are all accepted (clients differ: VS Code omits them, pygls and Emacs
    /// send `null`); anything else is refused.
    package static func checkNone(_ value: JSON?, method: String) throws(RPCError) {
        switch value {
        case nil, .null?: return
        case .array(let items)? where items.isEmpty: return
        case .object(let object)?:
            try Params(object: object, path: "params").checkMembers([], alsoAccepting: [])
        default:
            throw .invalidParams("`\(method)` takes no params; send none, null or {}", data: pathData("params"))
        }
    }

    /// The accepted name a misspelt `name` most likely meant: the nearest by
    /// case-insensitive edit distance, if it is within a third of the length
    /// (at least 1, at most 3 edits).
    package static func closest(to name: String, in accepted: [String]) -> String? {
        let typed = Array(name.lowercased().unicodeScalars)
        let budget = min(3, max(1, typed.count / 3))
        var best: (name: String, distance: Int)?
        for candidate in accepted {
            let distance = editDistance(typed, Array(candidate.lowercased().unicodeScalars))
            if distance <= budget, distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        return best?.name
    }

    /// Levenshtein distance, one row at a time.
    package static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(substitution, previous[j] + 1, current[j - 1] + 1)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
