import DiffableEngine
import DiffableServer
import Foundation

// Release-build benchmark: `swift run -c release diffable-bench [items] [sections]`.
// Measures `edit` round trips through `Server.handle(body:)` (parse, edit,
// encode) on a large source.

func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e6 }

let args = CommandLine.arguments
if args.count > 1, args[1] == "access" { runAccessBench(); exit(0) }
if args.count > 1, args[1] == "diff" {
    runDiffBench(total: args.count > 2 ? Int(args[2]) ?? 1_000_000 : 1_000_000,
                 sectionCount: args.count > 3 ? Int(args[3]) ?? 1 : 1)
    exit(0)
}
let total = args.count > 1 ? Int(args[1]) ?? 1_000_000 : 1_000_000
let sectionCount = args.count > 2 ? Int(args[2]) ?? 1000 : 1000
let perSection = total / sectionCount

func body(_ id: Int, _ method: String, _ params: String) -> [UInt8] {
    Array(#"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)","params":\#(params)}"#.utf8)
}

let server = Server()
_ = server.handle(body: body(0, "initialize", "{}"))
var sections: [String] = []
for s in 0..<sectionCount {
    let items = (0..<perSection).map { "\"i\(s)_\($0)\"" }.joined(separator: ",")
    sections.append(#"{"id":"s\#(s)","items":[\#(items)]}"#)
}
var t = now()
_ = server.handle(body: body(1, "apply", #"{"source":"big","sections":[\#(sections.joined(separator: ","))]}"#))
print("apply \(total) items in \(sectionCount) sections: \(String(format: "%.1f", now() - t)) ms")

@MainActor func measure(_ label: String, rounds: Int = 200, _ make: (Int) -> String) {
    var times: [Double] = []
    for r in 0..<rounds {
        let request = body(100 + r, "edit", make(r))
        let start = now()
        let response = server.handle(body: request)
        times.append(now() - start)
        if r == 0, let response, String(decoding: response, as: UTF8.self).contains("error") {
            print("  error: \(String(decoding: response, as: UTF8.self).prefix(300))")
        }
    }
    let first = times[0]
    let rest = times.dropFirst().sorted()
    let median = rest[rest.count / 2], p99 = rest[min(rest.count - 1, rest.count * 99 / 100)]
    print("\(label): first \(String(format: "%.3f", first)) ms, median \(String(format: "%.3f", median)) ms, p99 \(String(format: "%.3f", p99)) ms")
}

let mid = sectionCount / 2
measure("insertItems (1 item)") { r in #"{"source":"big","ops":[{"op":"insertItems","items":["n\#(r)"],"after":"i\#(mid)_\#(perSection / 2)"}]}"# }
measure("deleteItems (1 item)") { r in #"{"source":"big","ops":[{"op":"deleteItems","ids":["n\#(r)"]}]}"# }
measure("moveItem across sections") { r in
    let from = r % 2 == 0 ? "i\(mid)_1" : "i\(mid)_1"
    let to = r % 2 == 0 ? "i\(mid + 1)_\(perSection / 2)" : "i\(mid)_2"
    return #"{"source":"big","ops":[{"op":"moveItem","id":"\#(from)","before":"\#(to)"}]}"#
}
measure("setContent (1 item)") { r in #"{"source":"big","ops":[{"op":"setContent","items":[{"id":"i\#(mid)_3","content":\#(r)}]}]}"# }
measure("appendItems (last section)") { r in #"{"source":"big","ops":[{"op":"appendItems","items":["a\#(r)"]}]}"# }
measure("moveSection") { r in #"{"source":"big","ops":[{"op":"moveSection","id":"s\#(mid)","\#(r % 2 == 0 ? "after" : "before")":"s\#(mid + 1)"}]}"# }
