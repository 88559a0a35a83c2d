import Foundation
import Testing
@testable import DiffableEngine
import DiffableTestSupport

/// The shared replay cases of protocol/cases/ (recorded from the daemon by
/// protocol/tools/record-cases; every client's suite replays them too): the
/// engine's replayers, `applyingBatch` and `applyingSteps`, turn each case's
/// old snapshot into its new one from the case's batch and steps payloads.
///
/// An item's content here is the compact JSON of the whole row less its id
/// (content, and in an outline `level`, `parent`, `hasChildren`, `expanded`),
/// so a row the payload forgets to redraw with its new tree place fails too.
@Suite("Shared replay cases (protocol/cases)")
struct SharedCaseTests {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("protocol/cases")

    struct Case {
        var name: String
        var json: [String: Any]
    }

    static func cases() throws -> [Case] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".json") }.sorted()
        return try names.map { name in
            let data = try Data(contentsOf: folder.appendingPathComponent(name))
            let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "\(name): not an object")
            return Case(name: name, json: json)
        }
    }

    @Test func thereAreCases() throws {
        let all = try Self.cases()
        #expect(all.count >= 10, "only \(all.count) cases in \(Self.folder.path)")
        for c in all {
            for key in ["name", "old", "batch", "steps", "new"] {
                #expect(c.json[key] != nil, "\(c.name) has no \(key)")
            }
        }
    }

    @Test func batchFormReachesTheNewSnapshot() throws {
        for c in try Self.cases() {
            let old = try snapshot(c.json["old"]), new = try snapshot(c.json["new"])
            let batch = try #require(c.json["batch"] as? [String: Any], "\(c.name): batch")
            let changeset = try Self.changeset(batch, old: old, new: new)
            #expect(try old.applyingBatch(changeset, contentFrom: new) == new, "\(c.name): batch")
        }
    }

    @Test func stepsFormReachesTheNewSnapshot() throws {
        for c in try Self.cases() {
            let old = try snapshot(c.json["old"]), new = try snapshot(c.json["new"])
            let steps = try #require(c.json["steps"] as? [[String: Any]], "\(c.name): steps")
            #expect(try old.applyingSteps(try steps.flatMap(Self.steps), contentFrom: new) == new, "\(c.name): steps")
        }
    }

    // MARK: - JSON to engine values

    func snapshot(_ value: Any?) throws -> Snapshot {
        let sections = try #require((value as? [String: Any])?["sections"] as? [[String: Any]])
        return Snapshot(sections: try sections.map { section in
            let items = (section["items"] as? [Any] ?? []).map { raw -> Item in
                var row = raw as? [String: Any] ?? ["id": raw]
                let id = row.removeValue(forKey: "id") as? String ?? ""
                return Item(id: id, content: row.isEmpty ? nil : Self.canonical(row))
            }
            let header = section["header"].flatMap { $0 is NSNull ? nil : Self.canonical($0) }
            return Section(id: try #require(section["id"] as? String), header: header, items: items)
        })
    }

    static func canonical(_ value: Any) -> Content {
        let data = (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])) ?? Data()
        return Content(bytes: Array(data))
    }

    static func int(_ value: Any?) throws -> Int { try #require(value as? Int, "not an integer: \(String(describing: value))") }

    static func path(_ value: Any?) throws -> ItemPath {
        let pair = try #require(value as? [Int], "not a path: \(String(describing: value))")
        try #require(pair.count == 2)
        return ItemPath(section: pair[0], row: pair[1])
    }

    /// The rows a reload or reconfigure run names: `at` + its items, or a patch run's `rows`.
    static func runRows(_ run: [String: Any]) throws -> [Int] {
        if let rows = run["rows"] as? [Int] { return rows }
        let at = try int(run["at"]), count = (run["items"] as? [Any])?.count ?? 0
        return Array(at..<at + count)
    }

    /// Where an old row's item is in `new` (a reload's `new` coordinate, which the wire leaves out).
    static func newPath(of old: ItemPath, from before: Snapshot, in after: Snapshot) throws -> ItemPath {
        let id = try #require(before.item(at: old)?.id, "no row \(old)")
        for (s, section) in after.sections.enumerated() {
            if let row = section.items.firstIndex(where: { $0.id == id }) { return ItemPath(section: s, row: row) }
        }
        throw ReplayError(.outOfRange, "\(id) is not in the new snapshot")
    }

    static func changeset(_ batch: [String: Any], old: Snapshot, new: Snapshot) throws -> Changeset {
        var c = Changeset()
        let sections = batch["sections"] as? [String: Any] ?? [:]
        for range in sections["delete"] as? [[Int]] ?? [] {
            c.sectionDeletes += Array(range[0]..<range[0] + range[1])
        }
        for run in sections["insert"] as? [[String: Any]] ?? [] {
            let at = try int(run["at"])
            c.sectionInserts += Array(at..<at + ((run["sections"] as? [Any])?.count ?? 0))
        }
        for move in sections["move"] as? [[String: Any]] ?? [] {
            c.sectionMoves.append(.init(from: try int(move["from"]), to: try int(move["to"]), headerChanged: move["header"] != nil))
        }
        for reload in sections["reload"] as? [[String: Any]] ?? [] {
            let at = try int(reload["at"])
            let id = old.sections[at].id
            let to = try #require(new.sections.firstIndex { $0.id == id }, "section \(id) is not in the new snapshot")
            c.sectionReloads.append(.init(old: at, new: to))
        }
        let items = batch["items"] as? [String: Any] ?? [:]
        for run in items["delete"] as? [[String: Any]] ?? [] {
            let section = try int(run["section"])
            for range in run["ranges"] as? [[Int]] ?? [] {
                c.itemDeletes += (range[0]..<range[0] + range[1]).map { ItemPath(section: section, row: $0) }
            }
        }
        for run in items["insert"] as? [[String: Any]] ?? [] {
            let section = try int(run["section"]), at = try int(run["at"])
            c.itemInserts += (at..<at + ((run["items"] as? [Any])?.count ?? 0)).map { ItemPath(section: section, row: $0) }
        }
        for move in items["move"] as? [[String: Any]] ?? [] {
            c.itemMoves.append(.init(from: try path(move["from"]), to: try path(move["to"]), contentChanged: move["item"] != nil))
        }
        for (key, reconfigure) in [("reload", false), ("reconfigure", true)] {
            for run in items[key] as? [[String: Any]] ?? [] {
                let section = try int(run["section"])
                for row in try runRows(run) {
                    let at = ItemPath(section: section, row: row)
                    let update = Changeset.ItemUpdate(old: at, new: try newPath(of: at, from: old, in: new))
                    if reconfigure { c.itemReconfigures.append(update) } else { c.itemReloads.append(update) }
                }
            }
        }
        c.sectionDeletes.sort(); c.sectionInserts.sort(); c.itemDeletes.sort(); c.itemInserts.sort()
        c.sectionMoves.sort { $0.to < $1.to }; c.itemMoves.sort { $0.to < $1.to }
        c.sectionReloads.sort { $0.old < $1.old }
        c.itemReloads.sort { $0.old < $1.old }; c.itemReconfigures.sort { $0.old < $1.old }
        return c
    }

    static func steps(_ step: [String: Any]) throws -> [Step] {
        let op = try #require(step["op"] as? String, "a step without op")
        switch op {
        case "deleteItems":
            return [.deleteItems(section: try int(step["section"]), row: try int(step["at"]), count: try int(step["count"]))]
        case "deleteSections":
            return [.deleteSections(section: try int(step["at"]), count: try int(step["count"]))]
        case "moveSection":
            return [.moveSection(from: try int(step["from"]), to: try int(step["to"]))]
        case "insertSections":
            return [.insertSections(section: try int(step["at"]), count: (step["sections"] as? [Any])?.count ?? 0)]
        case "reloadSection":
            return [.reloadSection(section: try int(step["at"]))]
        case "moveItem":
            return [.moveItem(from: try path(step["from"]), to: try path(step["to"]), contentChanged: step["item"] != nil)]
        case "insertItems":
            return [.insertItems(section: try int(step["section"]), row: try int(step["at"]), count: (step["items"] as? [Any])?.count ?? 0)]
        case "reloadItems", "reconfigureItems":
            let section = try int(step["section"])
            return try runRows(step).map {
                op == "reloadItems" ? .reloadItems(section: section, row: $0, count: 1) : .reconfigureItems(section: section, row: $0, count: 1)
            }
        default:
            throw ReplayError(.invalidStep, "unknown step \(op)")
        }
    }
}
