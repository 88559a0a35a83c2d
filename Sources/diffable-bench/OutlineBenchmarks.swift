import Foundation
import DiffableProtocol

/// Outlines over the pipe: a tree of ~1M paths (10 top folders × 100
/// subfolders × 1000 files, plus a 10-file folder), directories as parents.
/// Expand and collapse of k visible descendants, search on the tree against
/// the same texts flat, and `apply` of the tree against a flat apply.
enum OutlineBenchmarks {
    static let all: [Benchmark] = [
        Benchmark(name: "outline.pipe-1m",
                  summary: "a tree of 1,001,021 paths: apply vs flat, expand/collapse of k = 10 / 1000 / 100k rows (target: collapse of 10 ≤ 0.5 ms), search vs flat") { context in
            try run(context)
        },
    ]

    static let parts = ["view", "model", "grid", "render", "store", "router", "sheet", "table", "cell", "graph"]

    /// `{"id":…,"content":{"text":…},"children":[…]}` nested, and the same items flat.
    static func tree(files: Int) -> (nested: String, flat: String) {
        var nested: [String] = [], flat: [String] = []
        func item(_ id: String, _ text: String) -> String { #"{"id":"\#(id)","content":{"text":"\#(text)"}"# }
        for d in 0..<10 {
            var subfolders: [String] = []
            for s in 0..<100 {
                var leaves: [String] = []
                for f in 0..<files {
                    let id = "d\(d)/s\(s)/\(parts[f % parts.count])_\(f).swift"
                    leaves.append(item(id, id) + "}")
                    flat.append(item(id, id) + "}")
                }
                subfolders.append(item("d\(d)/s\(s)", "d\(d)/s\(s)/") + #","children":[\#(leaves.joined(separator: ","))]}"#)
                flat.append(item("d\(d)/s\(s)", "d\(d)/s\(s)/") + "}")
            }
            nested.append(item("d\(d)", "d\(d)/") + #","children":[\#(subfolders.joined(separator: ","))]}"#)
            flat.append(item("d\(d)", "d\(d)/") + "}")
        }
        let small = (0..<10).map { item("small/f\($0)", "small/f\($0).swift") + "}" }
        nested.append(item("small", "small/") + #","children":[\#(small.joined(separator: ","))]}"#)
        flat.append(item("small", "small/") + "}")
        flat += small
        return (nested.joined(separator: ","), flat.joined(separator: ","))
    }

    static func run(_ context: BenchContext) throws {
        let r = context.reporter
        let (nested, flatItems) = tree(files: context.quick ? 100 : 1000)
        let daemon = try DaemonConnection(path: context.daemonPath)
        defer { daemon.close() }
        _ = try daemon.exchange(Array(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"initializationOptions":{"supersedeSearches":false}}}"#.utf8) + [0x0A], id: 1)
        var id = 10
        func request(_ body: String, refused: Bool) throws -> Double {
            id += 1
            let (answer, _, ms) = try daemon.exchange(Array(#"{"jsonrpc":"2.0","id":\#(id),\#(body)}"#.utf8) + [0x0A], id: id)
            guard answer.starts(with: Array(#"{"jsonrpc":"2.0","id":\#(id),"error""#.utf8)) == refused else {
                throw ApplyRequest.Mismatch(description: String(decoding: answer.prefix(300), as: UTF8.self))
            }
            return ms
        }
        func request(_ body: String) throws -> Double { try request(body, refused: false) }
        let runs = context.runs(full: 3, quick: 1)
        var flatApply: [Double] = [], treeApply: [Double] = []
        for _ in 0..<runs {
            flatApply.append(try request(#""method":"apply","params":{"source":"flat","sections":[{"id":"files","items":[\#(flatItems)]}]}"#))
            treeApply.append(try request(#""method":"apply","params":{"source":"tree","sections":[{"id":"files","items":[\#(nested)]}]}"#))
            _ = try request(#""method":"drop","params":{"source":"flat"}"#)
            _ = try request(#""method":"drop","params":{"source":"tree"}"#)
        }
        r.row("outline.pipe-1m apply, flat items", Sample(flatApply))
        r.row("outline.pipe-1m apply, the same items nested", Sample(treeApply))
        r.note(String(format: "tree apply / flat apply = %.2f (target ≤ 1.5)", Sample(treeApply).median / Sample(flatApply).median))
        _ = try request(#""method":"apply","params":{"source":"tree","sections":[{"id":"files","items":[\#(nested)]}]}"#)
        _ = try request(#""method":"apply","params":{"source":"flat","sections":[{"id":"files","items":[\#(flatItems)]}]}"#)
        _ = try request(#""method":"expand","params":{"source":"tree","ids":["d0"]}"#)
        let cases: [(label: String, ids: String, recursive: Bool, target: Target?)] = [
            ("k = 10 (small/)", #"["small"]"#, false, .ms(0.5)),
            ("k = 1000 (d0/s0/)", #"["d0/s0"]"#, false, nil),
            ("k = 100,100 (d1/, recursive)", #"["d1"]"#, true, nil),
        ]
        for c in cases {
            var expand: [Double] = [], collapse: [Double] = []
            for _ in 0..<context.runs(full: 5, quick: 2) {
                expand.append(try request(#""method":"expand","params":{"source":"tree","ids":\#(c.ids),"recursive":\#(c.recursive)}"#))
                collapse.append(try request(#""method":"collapse","params":{"source":"tree","ids":\#(c.ids),"recursive":\#(c.recursive)}"#))
            }
            r.row("outline.pipe-1m expand \(c.label)", Sample(expand))
            r.row("outline.pipe-1m collapse \(c.label)", Sample(collapse), target: c.target)
        }
        try treeEdits(context, files: context.quick ? 100 : 1000, send: request(_:refused:))
        for query in ["view", "vie", "d3/s4"] {
            var tree: [Double] = [], flat: [Double] = []
            for _ in 0..<context.runs(full: 3, quick: 1) {
                tree.append(try request(#""method":"search","params":{"source":"tree","query":"\#(query)","viewport":{"start":0,"count":50}}"#))
                _ = try request(#""method":"search","params":{"source":"tree","query":"","viewport":null}"#)
                flat.append(try request(#""method":"search","params":{"source":"flat","query":"\#(query)","viewport":{"start":0,"count":50}}"#))
                _ = try request(#""method":"search","params":{"source":"flat","query":"","viewport":null}"#)
            }
            r.row("outline.pipe-1m search \"\(query)\" on the tree (50-row window)", Sample(tree))
            r.row("outline.pipe-1m search \"\(query)\" on the same items flat", Sample(flat))
            r.note(String(format: "tree / flat = %.2f (target ≤ 2)", Sample(tree).median / Sample(flat).median))
        }
    }

    /// `edit` on the tree: one move between folders (against the stdlib
    /// diff of the same change to the preorder ids), 1,000 appends into
    /// 1,000 folders in one edit, a chain to the deepest level built in one edit,
    /// and a one-op edit and a recursive expand at the deepest level.
    static func treeEdits(_ context: BenchContext, files: Int,
                          send: (String, Bool) throws -> Double) throws {
        func request(_ body: String) throws -> Double { try send(body, false) }
        let r = context.reporter
        let runs = context.runs(full: 5, quick: 2)
        let file = "d0/s0/view_0.swift"
        var moves: [Double] = []
        for run in 0..<runs * 2 {
            let parent = run % 2 == 0 ? "d0/s1" : "d0/s0"
            let ms = try request(#""method":"edit","params":{"source":"tree","ops":[{"op":"moveItem","id":"\#(file)","parent":"\#(parent)"}]}"#)
            if run % 2 == 0 { moves.append(ms) }
        }
        // The same change to the preorder ids, diffed by the stdlib.
        var ids: [String] = []
        for d in 0..<10 {
            ids.append("d\(d)")
            for s in 0..<100 {
                ids.append("d\(d)/s\(s)")
                for f in 0..<files { ids.append("d\(d)/s\(s)/\(parts[f % parts.count])_\(f).swift") }
            }
        }
        ids.append("small")
        ids += (0..<10).map { "small/f\($0)" }
        var moved = ids
        if let from = moved.firstIndex(of: file), let folder = moved.firstIndex(of: "d0/s1") {
            moved.remove(at: from)
            moved.insert(file, at: folder + files)
        }
        let baseline = context.noBaseline ? Baseline.skipped("--no-baseline")
            : .measured(sampleRuns(runs: context.runs(full: 3, quick: 1)) { blackHole(StdlibBaseline.run(ids, moved)) })
        r.row("outline.pipe-1m edit: move a file into another folder (1 op)", Sample(moves), baseline: baseline)

        var wide: [Double] = [], chain: [Double] = [], deepEdit: [Double] = [], deepExpand: [Double] = []
        for run in 0..<runs {
            let appends = (0..<1000).map { #"{"op":"appendItems","parent":"d\#($0 / 100)/s\#($0 % 100)","items":["w\#(run)/\#($0)"]}"# }
            wide.append(try request(#""method":"edit","params":{"source":"tree","ops":[\#(appends.joined(separator: ","))]}"#))
            _ = try request(#""method":"edit","params":{"source":"tree","ops":[{"op":"deleteItems","ids":[\#((0..<1000).map { #""w\#(run)/\#($0)""# }.joined(separator: ","))]}]}"#)
            // small (level 0) → c1 … c4094 → c4095 (level 4095, the deepest).
            var ops = [#"{"op":"appendItems","parent":"small","items":["c\#(run)-1"]}"#]
            ops += (1..<4095).map { #"{"op":"appendItems","parent":"c\#(run)-\#($0)","items":["c\#(run)-\#($0 + 1)"]}"# }
            chain.append(try request(#""method":"edit","params":{"source":"tree","ops":[\#(ops.joined(separator: ","))]}"#))
            deepEdit.append(try request(#""method":"edit","params":{"source":"tree","ops":[{"op":"setContent","items":[{"id":"c\#(run)-4095","content":"deep"}]}]}"#))
            deepExpand.append(try request(#""method":"expand","params":{"source":"tree","ids":["small"],"recursive":true}"#))
            _ = try request(#""method":"collapse","params":{"source":"tree","ids":["small"]}"#)
            _ = try request(#""method":"edit","params":{"source":"tree","ops":[{"op":"deleteItems","ids":["c\#(run)-1"]}]}"#)
        }
        r.row("outline.pipe-1m edit: 1,000 appends into 1,000 folders (1 edit)", Sample(wide))
        r.row("outline.pipe-1m edit: a 4,095-op chain to the deepest level (1 edit)", Sample(chain))
        r.row("outline.pipe-1m edit: setContent at level 4095 (1 op)", Sample(deepEdit))
        r.row("outline.pipe-1m expand {recursive} of a 4,096-level chain", Sample(deepExpand))

        // A refused edit (its second op names no item) costs its ops, and
        // an edit while a search filters the tree costs its ops plus the
        // search's answer on the new tree (the keystroke's cost).
        var refused: [Double] = [], searching: [Double] = [], keystroke: [Double] = []
        for _ in 0..<runs {
            refused.append(try send(#""method":"edit","params":{"source":"tree","ops":[{"op":"moveItem","id":"\#(file)","parent":"d0/s1"},{"op":"appendItems","parent":"nope","items":["x"]}]}"#, true))
        }
        _ = try request(#""method":"search","params":{"source":"tree","query":"","viewport":{"start":0,"count":50}}"#)
        for run in 0..<runs * 2 {
            let query = run % 2 == 0 ? "view_1" : "view_"
            let ms = try request(#""method":"search","params":{"source":"tree","query":"\#(query)","mode":"substring","viewport":{"start":0,"count":50}}"#)
            if run % 2 == 0 { keystroke.append(ms) }
        }
        for run in 0..<runs * 2 {
            let parent = run % 2 == 0 ? "d0/s1" : "d0/s0"
            let ms = try request(#""method":"edit","params":{"source":"tree","ops":[{"op":"moveItem","id":"\#(file)","parent":"\#(parent)"}]}"#)
            if run % 2 == 0 { searching.append(ms) }
        }
        _ = try request(#""method":"search","params":{"source":"tree","query":"","viewport":null}"#)
        // A section next to the tree, added and removed; a folder collapsed
        // and expanded inside edits (the visible rows are found again).
        var sections: [Double] = [], collapses: [Double] = []
        for run in 0..<runs {
            let items = (0..<10).map { #""x\#(run)/\#($0)""# }.joined(separator: ",")
            sections.append(try request(#""method":"edit","params":{"source":"tree","ops":[{"op":"appendSections","sections":[{"id":"extra\#(run)","items":[\#(items)]}]}]}"#))
            _ = try request(#""method":"edit","params":{"source":"tree","ops":[{"op":"deleteSections","ids":["extra\#(run)"]}]}"#)
            _ = try request(#""method":"edit","params":{"source":"tree","ops":[{"op":"expand","ids":["d0/s1"]}]}"#)
            collapses.append(try request(#""method":"edit","params":{"source":"tree","ops":[{"op":"collapse","ids":["d0/s1"]}]}"#))
        }
        r.row("outline.pipe-1m edit: refused at its second op (a move, then an unknown parent)", Sample(refused))
        r.row("outline.pipe-1m edit: append a section of 10 items (1 op)", Sample(sections))
        r.row("outline.pipe-1m edit: collapse a folder of 1,000 files (1 op)", Sample(collapses))
        r.row("outline.pipe-1m search \"view_1\" on the tree, substring (the keystroke)", Sample(keystroke))
        r.row("outline.pipe-1m edit: move a file while \"view_\" filters the tree (1 op, 50-row window)", Sample(searching))
    }
}
