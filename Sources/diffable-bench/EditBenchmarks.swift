import Foundation
import DiffableProtocol

/// `edit` round trips over the pipe: one op on a 1M-item source (in one
/// section, and in 1000 sections), and the same op on a 1k-item source.
enum EditBenchmarks {
    static let all: [Benchmark] = [
        round("edit.1k", items: 1_000, sections: 1),
        round("edit.1m-1000-sections", items: 1_000_000, sections: 1000),
        round("edit.1m-one-section", items: 1_000_000, sections: 1),
    ]

    static func applyBody(items: Int, sections: Int) -> [UInt8] {
        let perSection = max(1, items / sections)
        var text = #"{"jsonrpc":"2.0","id":2,"method":"apply","params":{"source":"e","sections":["#
        for s in 0..<sections {
            if s > 0 { text += "," }
            text += #"{"id":"s\#(s)","items":["#
            text += (0..<perSection).map { #"{"id":"i\#(s)_\#($0)","content":{"text":"Name \#($0)"}}"# }.joined(separator: ",")
            text += "]}"
        }
        return Array((text + "]}}\n").utf8)
    }

    static func edit(_ id: Int, _ ops: String) -> [UInt8] {
        Array(#"{"jsonrpc":"2.0","id":\#(id),"method":"edit","params":{"source":"e","ops":[\#(ops)]}}"#.utf8) + [0x0A]
    }

    /// Apply, one warm-up edit (builds the daemon's edit index), then N
    /// rounds of each op, timed from first request byte to last response byte.
    static func round(_ name: String, items: Int, sections: Int) -> Benchmark {
        let summary = "one-op edit round trips on \(items) items in \(sections) section(s); target ≤ 0.5 ms on 1M and ≤ 2× the 1k figure"
        return Benchmark(name: name, summary: summary) { context in
            let r = context.reporter
            let daemon = try DaemonConnection(path: context.daemonPath)
            defer { daemon.close() }
            _ = try daemon.roundTrip(Array(#"{"jsonrpc":"2.0","id":1,"method":"initialize"}"#.utf8) + [0x0A])
            _ = try daemon.roundTrip(applyBody(items: items, sections: sections))
            let perSection = max(1, items / sections)
            let mid = sections / 2, row = perSection / 2
            let (_, first) = try daemon.roundTrip(edit(3, #"{"op":"reloadItems","ids":["i\#(mid)_\#(row)"]}"#))
            r.row("\(name) first edit (builds the edit index)", Sample([first]))
            let rounds = context.runs(full: 200, quick: 40)
            var id = 10
            func measure(_ label: String, _ ops: (Int) -> String) throws {
                var times: [Double] = []
                for k in 0..<rounds {
                    id += 1
                    let (response, ms) = try daemon.roundTrip(edit(id, ops(k)))
                    if k == 0, response.count < 400, String(decoding: response, as: UTF8.self).contains("\"error\"") {
                        r.note("\(label): \(String(decoding: response, as: UTF8.self))", keep: true)
                    }
                    times.append(ms)
                }
                r.row("\(name) \(label)", Sample(times), target: items >= 1_000_000 ? .ms(0.5) : nil)
            }
            try measure("insertItems (1 item, mid-section)") { k in #"{"op":"insertItems","items":["n\#(k)"],"after":"i\#(mid)_\#(row)"}"# }
            try measure("deleteItems (1 item)") { k in #"{"op":"deleteItems","ids":["n\#(k)"]}"# }
            try measure("moveItem") { k in
                #"{"op":"moveItem","id":"i\#(mid)_1","\#(k % 2 == 0 ? "after" : "before")":"i\#(mid)_\#(row)"}"#
            }
            try measure("setContent (1 item)") { k in #"{"op":"setContent","items":[{"id":"i\#(mid)_3","content":\#(k)}]}"# }
        }
    }
}
