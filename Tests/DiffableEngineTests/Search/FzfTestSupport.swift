import Foundation
@testable import DiffableEngine
import DiffableTestSupport

/// Runs Debian's fzf (`/usr/bin/fzf`, installed by
/// `protocol/tools/install-test-tools`) and builds the corpora the fzf
/// comparison tests feed to it and to the engine.
enum FzfRunner {
    static let path = "/usr/bin/fzf"

    static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: path) }

    /// `fzf --filter query arguments…` over `lines` (written to a file once
    /// per corpus by `CorpusFile`): the printed lines, in fzf's order.
    static func filter(_ query: String, file: CorpusFile, arguments: [String] = []) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["--filter", query] + arguments
        // No FZF_DEFAULT_OPTS or other settings of the machine.
        process.environment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
        process.standardInput = try FileHandle(forReadingFrom: file.url)
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }
}

/// A corpus written to a temporary file (one line per text).
final class CorpusFile {
    let url: URL
    let lines: [String]

    init(_ lines: [String]) throws {
        self.lines = lines
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("diffable-fzf-\(UUID().uuidString).txt")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: url)
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}

enum FzfCorpus {
    static let words = ["app", "core", "header", "view", "model", "controller", "test", "util", "main", "index",
                        "search", "fuzzy", "matcher", "data", "source", "config", "build", "lib", "src", "docs",
                        "readme", "api", "server", "client", "parser", "json", "diff", "engine", "item", "list"]
    static let accented = ["über", "café", "naïve", "Müller", "résumé", "Ångström", "señor", "façade", "Øre", "straße"]
    static let firstNames = ["Ava", "Chloe", "Lee", "Liam", "Noah", "Emma", "Olivia", "Zoë", "José", "Björn", "Ana"]
    static let exts = ["swift", "ts", "js", "md", "json", "py", "go", "c", "h", "txt"]

    /// Paths, names, camelCase and snake_case identifiers, digits, accents,
    /// mixed case, leading/trailing spaces and duplicates of equal length.
    static func make(count: Int, seed: UInt64) -> [String] {
        var rng = SplitMix64(seed: seed)
        func word() -> String {
            rng.next() % 10 == 0 ? accented.randomElement(using: &rng) ?? "x" : words.randomElement(using: &rng) ?? "x"
        }
        func cap(_ s: String) -> String { s.prefix(1).uppercased() + s.dropFirst() }
        var out: [String] = []
        while out.count < count {
            switch rng.next() % 8 {
            case 0, 1:
                let depth = 1 + Int(rng.next() % 4)
                let dirs = (0..<depth).map { _ in word() }
                let file = rng.next() % 2 == 0 ? cap(word()) + cap(word()) : word() + "_" + word()
                out.append(dirs.joined(separator: "/") + "/" + file + "." + (exts.randomElement(using: &rng) ?? "x"))
            case 2:
                let n = 2 + Int(rng.next() % 2)
                out.append((0..<n).map { _ in firstNames.randomElement(using: &rng) ?? "x" }.joined(separator: " "))
            case 3:
                out.append(word() + cap(word()) + cap(word()) + String(rng.next() % 100))
            case 4:
                out.append(word() + "_" + word() + "-" + String(rng.next() % 1000) + "." + (exts.randomElement(using: &rng) ?? "x"))
            case 5:
                out.append(word().uppercased() + ":" + word() + ";" + word() + "|" + word() + "," + word())
            case 6:
                // Equal lengths, so the index decides among equal scores.
                let w = word()
                out.append(w + "/" + w)
                out.append(w + "-" + w)
            default:
                out.append((rng.next() % 3 == 0 ? "  " : "") + word() + " " + word() + (rng.next() % 3 == 0 ? " " : ""))
            }
        }
        return Array(out.prefix(count))
    }

    /// A query typed from a corpus line: 1 to 5 of its chars in order (so it
    /// usually matches), sometimes with a letter changed, uppercased or
    /// replaced by an accented one. Never a char extended search reads
    /// (space, `'`, `^`, `$`, `!`, `|`, `\`).
    static func query(from lines: [String], rng: inout SplitMix64) -> String {
        let line = Array((lines.randomElement(using: &rng) ?? "x").unicodeScalars.filter {
            !" '^$!|\\".unicodeScalars.contains($0)
        })
        guard !line.isEmpty else { return "a" }
        let length = 1 + Int(rng.next() % 5)
        var picked = (0..<min(length, line.count)).map { _ in Int(rng.next() % UInt64(line.count)) }.sorted()
        if rng.next() % 3 == 0, let start = picked.first {
            picked = Array(start..<min(start + length, line.count))  // a consecutive run
        }
        var scalars = picked.map { line[$0] }
        switch rng.next() % 10 {
        case 0: if let k = scalars.indices.randomElement(using: &rng) { scalars[k] = Unicode.Scalar(UInt8(97 + rng.next() % 26)) }
        case 1: if let k = scalars.indices.randomElement(using: &rng) {
            scalars[k] = String(scalars[k]).uppercased().unicodeScalars.first ?? scalars[k]
        }
        case 2: if let k = scalars.indices.randomElement(using: &rng) {
            scalars[k] = ["ü", "é", "ø", "ß", "Ü"].randomElement(using: &rng)?.unicodeScalars.first ?? scalars[k]
        }
        default: break
        }
        var s = String(String.UnicodeScalarView(scalars))
        // A lone `-` etc. is fine; lowercase unless a case was chosen above.
        if rng.next() % 4 != 0 && scalars.count > 0 && !s.contains("Ü") { s = s.lowercased() }
        return s
    }

    /// An extended query: one to three terms, each a typed fragment with an
    /// operator (`'x ^x x$ ^x$ !x !^x !x$ !'x`, or none), sometimes two
    /// joined by `|`, sometimes a fragment with an escaped space.
    static func extendedQuery(from lines: [String], rng: inout SplitMix64) -> String {
        let operators: [(String, String)] = [("", ""), ("", ""), ("'", ""), ("^", ""), ("", "$"), ("^", "$"),
                                             ("!", ""), ("!^", ""), ("!", "$"), ("!'", "")]
        func term() -> String {
            var fragment = query(from: lines, rng: &rng)
            if rng.next() % 8 == 0, let line = lines.randomElement(using: &rng), line.contains(" ") {
                // Two words of a line with the space between them escaped.
                let words = line.split(separator: " ")
                if words.count >= 2 { fragment = String(words[0].suffix(3)) + "\\ " + String(words[1].prefix(2)) }
            }
            let (before, after) = operators.randomElement(using: &rng) ?? ("", "")
            return before + fragment + after
        }
        var terms: [String] = []
        for _ in 0..<(1 + Int(rng.next() % 3)) {
            terms.append(rng.next() % 6 == 0 ? term() + " | " + term() : term())
        }
        let spaces = rng.next() % 5 == 0 ? "  " : " "
        return (rng.next() % 7 == 0 ? " " : "") + terms.joined(separator: spaces) + (rng.next() % 7 == 0 ? " " : "")
    }
}

/// fzf's match rule written plainly (no prefilter, no byte tricks): each
/// term's compared chars among the text's chars transformed as fzf
/// transforms them for that term; sets of alternatives ANDed.
enum FzfModel {
    static func matches(_ text: String, _ query: String, fuzzy: Bool = true) -> Bool {
        let parsed = FzfQuery(query, fuzzy: fuzzy)
        return parsed.sets.allSatisfy { set in
            var matched = false
            for term in set {
                if termMatches(text, term) {
                    if term.inverse { continue }
                    return true
                } else if term.inverse {
                    matched = true
                }
            }
            return matched
        }
    }

    static func termMatches(_ text: String, _ term: FzfTerm) -> Bool {
        let units = text.unicodeScalars.map { scalar -> UInt32 in
            let v = scalar.value
            let cls = v < 0x80 ? CharClass.of(byte: UInt8(v)) : FzfText.charClass(nonASCII: v)
            return term.pattern.transform(v, class: cls)
        }
        let p = term.pattern.units
        let space = { (v: UInt32) in FzfText.isSpace(v) }
        let lead = units.prefix { space($0) }.count
        let trail = units.count == lead ? 0 : units.reversed().prefix { space($0) }.count
        switch term.type {
        case .fuzzy:
            var k = 0
            for v in units where k < p.count && v == p[k] { k += 1 }
            return k == p.count
        case .exact:
            return FzfTerm.isSubstring(p, of: units)
        case .prefix:
            let start = p.first.map(space) == true ? 0 : lead
            return Array(units.dropFirst(start)).starts(with: p)
        case .suffix:
            let end = p.last.map(space) == true ? units.count : units.count - trail
            return Array(units.prefix(end)).reversed().starts(with: p.reversed())
        case .equal:
            let start = p.first.map(space) == true ? 0 : lead
            let end = p.last.map(space) == true ? units.count : units.count - trail
            return start <= end && Array(units[start..<end]) == p
        }
    }
}
