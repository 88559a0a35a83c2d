@testable import DiffableEngine
import DiffableTestSupport

enum SearchFixtures {
    /// Short random texts over a small alphabet (so queries match often),
    /// with case, separators, accents and an emoji; about 1 in 20 is nil.
    static func texts(count: Int, rng: inout SplitMix64) -> [String?] {
        let alphabet: [Character] = ["a", "b", "c", "A", "B", "C", " ", "-", "/", "1", "2", "é", "É", "👍", "x"]
        return (0..<count).map { _ in
            if Int.random(in: 0..<20, using: &rng) == 0 { return nil }
            let n = Int.random(in: 0...12, using: &rng)
            return String((0..<n).map { _ in alphabet.randomElement(using: &rng) ?? "a" })
        }
    }

    static func query(length: Int, rng: inout SplitMix64) -> String {
        let alphabet: [Character] = ["a", "b", "c", "A", "B", " ", "1", "e", "é", "É", "x", "-"]
        return String((0..<length).map { _ in alphabet.randomElement(using: &rng) ?? "a" })
    }

    /// The fuzzy score of a given alignment (positions in scalars), following
    /// the documented rules independently of the DP.
    static func alignmentScore(_ text: String, _ positions: [Int]) -> Int {
        let scalars = text.unicodeScalars.map(\.value)
        var prev = CharClass.white
        var bonus: [Int] = []
        for v in scalars {
            let cur = CharClass.of(v)
            bonus.append(CharClass.bonusFor(prev: prev, cur: cur))
            prev = cur
        }
        var total = 0
        var runBonus = 0
        for (k, p) in positions.enumerated() {
            let b = bonus[p]
            if k == 0 {
                total += 16 + 2 * b
                runBonus = b
            } else if p == positions[k - 1] + 1 {
                if b >= 8 && b > runBonus {
                    total += 16 + b
                    runBonus = b
                } else {
                    total += 16 + max(b, 4, runBonus)
                }
            } else {
                let gap = p - positions[k - 1] - 1
                total += -3 - (gap - 1) + 16 + b
                runBonus = b
            }
        }
        return total
    }

    /// Expands merged highlight ranges back to positions.
    static func positions(_ ranges: [Range<Int>]) -> [Int] { ranges.flatMap { Array($0) } }
}
