import DiffableProtocol

package func utf8(_ s: String) -> [UInt8] { Array(s.utf8) }

/// Random JSON values covering every case, escapes, non-ASCII and number spellings.
package enum JSONGenerator {
    package static let numberLexemes = ["0", "-0", "1", "-1", "42", "9007199254740993", "-12345678901234567890",
                                "0.5", "-0.0", "1e10", "1E-7", "2.5e+3", "123.456E2", "1.0"]
    package static let stringPieces = ["a", "item", " ", "\"", "\\", "/", "\n", "\r", "\t", "\u{08}", "\u{0C}", "\u{01}",
                               "\u{1F}", "\u{7F}", "é", "日本", "😀", "\u{2028}", "\u{FFFD}", "\u{10FFFF}", "\u{0}"]

    package static func string<R: RandomNumberGenerator>(_ rng: inout R) -> String {
        var s = ""
        for _ in 0..<Int.random(in: 0...6, using: &rng) {
            s += stringPieces[Int.random(in: 0..<stringPieces.count, using: &rng)]
        }
        return s
    }

    package static func value<R: RandomNumberGenerator>(_ rng: inout R, depth: Int = 0) -> JSON {
        let choice = Int.random(in: 0..<(depth > 4 ? 4 : 6), using: &rng)
        switch choice {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &rng))
        case 2: return .number(numberLexemes[Int.random(in: 0..<numberLexemes.count, using: &rng)])
        case 3: return .string(string(&rng))
        case 4:
            return .array((0..<Int.random(in: 0...4, using: &rng)).map { _ in value(&rng, depth: depth + 1) })
        default:
            let count = Int.random(in: 0...(Bool.random(using: &rng) ? 4 : 20), using: &rng)
            return .object(JSONObject((0..<count).map { _ in (string(&rng), value(&rng, depth: depth + 1)) }))
        }
    }
}
