import Foundation
import Testing

/// The layout of `Sources/` is its architecture: each folder (a target's
/// top-level folder, or a target without folders) builds only on folders
/// below it, so no two folders name each other's types. This reads the
/// sources as text: a type is owned by the folder that declares it (at the
/// top level, or nested one level in a type or an extension), and a folder
/// depends on another when its code (comments and string literals left
/// out) names a type the other owns.
@Suite struct SourceLayoutTests {
    static let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources")

    /// Names that generic code declares in many places (`typealias Element`)
    /// and that say nothing about a folder.
    static let genericNames: Set<String> = ["Element", "Index", "Indices", "Iterator", "SubSequence", "Value", "Key"]

    struct Folder {
        var declared: Set<String> = []
        var named: Set<String> = []
    }

    static func folders() throws -> [String: Folder] {
        let declaration = try Regex(#"^(?: {4})?(?:@\S+\s+)*(?:(?:public|package|internal|private|fileprivate|open|final|indirect|nonisolated)\s+)*(?:struct|class|enum|protocol|actor|typealias)\s+([A-Z][A-Za-z0-9_]*)"#)
        let stringLiteral = try Regex(#""(?:[^"\\]|\\.)*""#)
        var folders: [String: Folder] = [:]
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        while let url = files?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            let parts = url.path.dropFirst(sources.path.count + 1).split(separator: "/")
            let key = parts.count > 2 ? "\(parts[0])/\(parts[1])" : String(parts[0])
            var folder = folders[key] ?? Folder()
            for line in try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false) {
                if let match = line.firstMatch(of: declaration), let name = match.output[1].substring {
                    folder.declared.insert(String(name))
                }
                var code = line.replacing(stringLiteral, with: "\"\"")
                if let comment = code.firstRange(of: "//") { code = code[..<comment.lowerBound] }
                for word in code.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") })
                where word.first?.isUppercase == true {
                    folder.named.insert(String(word))
                }
            }
            folders[key] = folder
        }
        return folders
    }

    /// Every folder → the folders whose types it names, with those names.
    static func dependencies(_ folders: [String: Folder]) -> [String: [String: Set<String>]] {
        var owners: [String: Set<String>] = [:]
        for (key, folder) in folders {
            for name in folder.declared where !genericNames.contains(name) { owners[name, default: []].insert(key) }
        }
        var edges: [String: [String: Set<String>]] = [:]
        for (key, folder) in folders {
            for name in folder.named {
                guard let owner = owners[name], owner.count == 1, let other = owner.first, other != key else { continue }
                edges[key, default: [:]][other, default: []].insert(name)
            }
        }
        return edges
    }

    /// Folders that reach each other through their dependencies (strongly
    /// connected components of more than one folder), each sorted.
    static func loops(_ edges: [String: [String: Set<String>]]) -> [[String]] {
        let nodes = Set(edges.keys).union(edges.values.flatMap(\.keys))
        func reachable(from start: String) -> Set<String> {
            var seen: Set<String> = [start]
            var stack = [start]
            while let node = stack.popLast() {
                for next in edges[node]?.keys ?? [:].keys where seen.insert(next).inserted { stack.append(next) }
            }
            return seen
        }
        let reach = Dictionary(uniqueKeysWithValues: nodes.map { ($0, reachable(from: $0)) })
        var loops: Set<[String]> = []
        for node in nodes {
            let component = reach[node, default: []].filter { reach[$0, default: []].contains(node) }.sorted()
            if component.count > 1 { loops.insert(component) }
        }
        return loops.sorted { $0.lexicographicallyPrecedes($1) }
    }

    @Test func noTwoFoldersNameEachOthersTypes() throws {
        let folders = try Self.folders()
        // The reading finds the layers it must see, so an empty or broken
        // walk cannot pass.
        #expect(folders.count >= 20, "read \(folders.count) folders under \(Self.sources.path)")
        let edges = Self.dependencies(folders)
        #expect(edges["DiffableServer/Methods"]?["DiffableServer/Server"]?.contains("Server") == true)
        #expect(edges["DiffableServer/Routing"]?["DiffableProtocol/Requests"]?.contains("EditRequest") == true)
        #expect(edges["DiffableEngine/Outline"]?["DiffableEngine/Edit"]?.contains("EditError") == true)
        for loop in Self.loops(edges) {
            let links = loop.flatMap { from in
                loop.compactMap { to in edges[from]?[to].map { "\(from) → \(to): \($0.sorted().joined(separator: ", "))" } }
            }
            let text = "folders that depend on each other: " + loop.joined(separator: ", ") + "\n  " + links.joined(separator: "\n  ")
            Issue.record(Comment(rawValue: text))
        }
    }

    @Test func aLoopIsFound() {
        let edges: [String: [String: Set<String>]] = [
            "A": ["B": ["TypeB"]], "B": ["C": ["TypeC"]], "C": ["A": ["TypeA"]], "D": ["A": ["TypeA"]],
        ]
        #expect(Self.loops(edges) == [["A", "B", "C"]])
        #expect(Self.loops(["A": ["B": ["TypeB"]], "B": [:]]).isEmpty)
    }
}
