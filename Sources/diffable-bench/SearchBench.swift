import DiffableEngine

/// Release-build search measurement: `diffable-bench search`.
/// Prints timings; asserts nothing.
func runSearchBench() {
    let clock = ContinuousClock()
    func ms(_ d: Duration) -> String {
        let c = d.components
        let v = Double(c.seconds) * 1000 + Double(c.attoseconds) / 1e15
        return String(Double(Int(v * 100)) / 100)
    }
    var state: UInt64 = 0x1234_5678
    func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    let first = ["James", "Mary", "John", "Patricia", "Robert", "Jennifer", "Michael", "Linda", "William",
                 "Elizabeth", "David", "Barbara", "Richard", "Susan", "Joseph", "Jessica", "Thomas", "Sarah",
                 "Charles", "Karen", "Christopher", "Nancy", "Daniel", "Lisa", "Matthew", "Betty", "Anthony",
                 "Margaret", "Mark", "Sandra", "Donald", "Ashley", "Steven", "Kimberly", "Paul", "Emily"]
    let last = ["Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez",
                "Martinez", "Hernandez", "Lopez", "Gonzalez", "Wilson", "Anderson", "Thomas", "Taylor",
                "Moore", "Jackson", "Martin", "Lee", "Perez", "Thompson", "White", "Harris", "Sanchez",
                "Clark", "Ramirez", "Lewis", "Robinson", "Walker", "Young", "Allen", "King", "Wright"]
    func makeTexts(_ n: Int) -> [String?] {
        (0..<n).map { _ in
            let f = first[Int(next() % UInt64(first.count))]
            let l = last[Int(next() % UInt64(last.count))]
            return "\(f) \(l) \(100_000 + next() % 900_000)"
        }
    }
    for n in [1_000_000, 100_000] {
        let texts = makeTexts(n)
        var index = SearchIndex()
        var best = Duration.seconds(100)
        for _ in 0..<3 {
            let t0 = clock.now
            index = SearchIndex(texts: texts)
            best = min(best, clock.now - t0)
        }
        print("n=\(n) build \(ms(best)) ms (best of 3)")
        let t0 = clock.now
        index.replace(at: n / 2, with: "Changed Name 1")
        print("n=\(n) replace one text \(ms(clock.now - t0)) ms")
        for (mode, sequence) in [(SearchMode.fuzzy, ["j", "jo", "joh", "john", "johns"]),
                                 (.fuzzy, ["m", "ms", "msh", "mshr", "mshr1"]),
                                 (.fuzzy, ["a", "aJ", "aJo", "aJoh", "aJohn"]),
                                 (.substring, ["s", "sm", "smi", "smit", "smith"])] {
            var bestTimes = [Duration](repeating: .seconds(100), count: sequence.count)
            var counts = [Int](repeating: 0, count: sequence.count)
            for _ in 0..<3 {  // best of 3 (shared machine)
                var previous: SearchQuery?
                var previousMatches: [Int]?
                for (k, text) in sequence.enumerated() {
                    let q = SearchQuery(text: text, mode: mode, order: .score, limit: 50)
                    let among = previous.map { q.refines($0) } == true ? previousMatches : nil
                    let t = clock.now
                    let result = index.evaluate(q, among: among)
                    bestTimes[k] = min(bestTimes[k], clock.now - t)
                    counts[k] = result.matches.count
                    previous = q
                    previousMatches = result.matches
                }
            }
            var line = "n=\(n) \(mode.rawValue)"
            for k in sequence.indices { line += "  '\(sequence[k])' \(ms(bestTimes[k]))ms (\(counts[k]))" }
            print(line)
        }
        let q = SearchQuery(text: "jn", mode: .fuzzy, order: .score, limit: 50)
        let t1 = clock.now
        let hits = index.search(q, among: nil)
        let t2 = clock.now
        for hit in hits { _ = index.highlights(of: hit.index, for: q) }
        print("n=\(n) search-only 'jn' \(ms(t2 - t1)) ms, 50 highlights \(ms(clock.now - t2)) ms")
    }
}

/// Focused loop for profiling: `diffable-bench search-narrow`.
func runSearchNarrowProfile() {
    var state: UInt64 = 99
    func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    let names = ["James", "Mary", "John", "Smith", "Johnson", "Brown", "Lee", "Davis", "Clark", "Young", "Allen", "Moore"]
    let texts: [String?] = (0..<1_000_000).map { _ in
        "\(names[Int(next() % 12)]) \(names[Int(next() % 12)]) \(100_000 + next() % 900_000)"
    }
    let index = SearchIndex(texts: texts)
    let clock = ContinuousClock()
    let mode: SearchMode = CommandLine.arguments.count > 2 && CommandLine.arguments[2] == "sub" ? .substring : .fuzzy
    let args = CommandLine.arguments
    let from = args.count > 4 ? args[3] : "smi", to = args.count > 4 ? args[4] : "smith"
    let base = index.matchingIndices(SearchQuery(text: from, mode: mode), among: nil)
    let q = SearchQuery(text: to, mode: mode, order: .score, limit: 50)
    var best = Duration.seconds(10)
    for _ in 0..<200 {
        let t = clock.now
        _ = index.evaluate(q, among: base)
        best = min(best, clock.now - t)
    }
    print("\(mode) narrow '\(from)'→'\(to)' over \(base.count) candidates: best \(best)")
}
