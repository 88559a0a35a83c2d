/// An RFC 6901 JSON Pointer: `""` is the whole document, `/a/0/b~1c` the
/// tokens `a`, `0`, `b/c`.
///
/// Rules, exactly (see protocol/README.md, "Field-level updates"):
/// - a non-empty pointer starts with `/`; each `/` starts a token;
/// - in a token `~1` is `/` and `~0` is `~` (decoded in that order, so
///   `~01` is `~1`); a `~` followed by anything else is refused;
/// - a token names an object member by its exact (unescaped) name, or an
///   array element by its index: `0`, or digits without a leading zero,
///   that fit in `Int`; `-` names the position after the last element
///   (valid as the target of `add` only).
///
/// - Complexity: parsing and writing are O(length of the pointer);
///   neither recurses.
package struct JSONPointer: Equatable, Sendable, CustomStringConvertible {
    /// The unescaped reference tokens, outermost first.
    package var tokens: [String]

    package init(tokens: [String]) {
        self.tokens = tokens
    }

    /// Parses the pointer's string form; nil when it is not a valid
    /// pointer (no leading `/`, or a `~` not followed by `0` or `1`).
    package init?(_ text: String) {
        guard !text.isEmpty else {
            tokens = []
            return
        }
        let utf8 = Array(text.utf8)
        guard utf8.first == UInt8(ascii: "/") else { return nil }
        var tokens: [String] = []
        var token: [UInt8] = []
        var i = 1
        while i < utf8.count {
            let byte = utf8[i]
            if byte == UInt8(ascii: "/") {
                tokens.append(String(decoding: token, as: UTF8.self))
                token.removeAll(keepingCapacity: true)
            } else if byte == UInt8(ascii: "~") {
                guard i + 1 < utf8.count else { return nil }
                switch utf8[i + 1] {
                case UInt8(ascii: "0"): token.append(UInt8(ascii: "~"))
                case UInt8(ascii: "1"): token.append(UInt8(ascii: "/"))
                default: return nil
                }
                i += 1
            } else {
                token.append(byte)
            }
            i += 1
        }
        tokens.append(String(decoding: token, as: UTF8.self))
        self.tokens = tokens
    }

    /// The pointer's string form, each token escaped.
    package var description: String {
        var text = ""
        for token in tokens {
            text += "/"
            text += Self.escape(token)
        }
        return text
    }

    /// `~` as `~0`, then `/` as `~1`.
    package static func escape(_ token: String) -> String {
        guard token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return token }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(token.utf8.count + 2)
        for byte in token.utf8 {
            switch byte {
            case UInt8(ascii: "~"): bytes += [UInt8(ascii: "~"), UInt8(ascii: "0")]
            case UInt8(ascii: "/"): bytes += [UInt8(ascii: "~"), UInt8(ascii: "1")]
            default: bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The array index a token spells: `0`, or ASCII digits without a
    /// leading zero that fit in `Int`. Nil otherwise (`-`, `01`, `+1`,
    /// `1.0`, `-1`, a name).
    package static func arrayIndex(_ token: String) -> Int? {
        let utf8 = token.utf8
        guard let first = utf8.first, first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9") else { return nil }
        if first == UInt8(ascii: "0") { return utf8.count == 1 ? 0 : nil }
        var value = 0
        for byte in utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let (shifted, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = shifted.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
            guard !o1, !o2 else { return nil }
            value = sum
        }
        return value
    }

    /// True when `self` is `other` or one of its ancestors (token-wise:
    /// `/a` is a prefix of `/a/b`, not of `/ab`). Tokens compare by their
    /// bytes, as member names do (`é` is not `e` + U+0301).
    package func isPrefix(of other: JSONPointer) -> Bool {
        tokens.count <= other.tokens.count && zip(tokens, other.tokens).allSatisfy { $0.utf8.elementsEqual($1.utf8) }
    }
}
