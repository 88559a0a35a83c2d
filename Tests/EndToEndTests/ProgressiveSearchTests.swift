import Foundation
import Testing

/// `search {progressive: true}` through the binary: partial answers, the
/// `searchRefined` that follows, a next keystroke that drops it, and a
/// request of another kind that waits for it. A frontend that applies
/// every answer and notification in arrival order ends with exactly the
/// window of a plain search.
struct ProgressiveSearchTests {
    /// `count` path-like items (12,000: more than the partial sample) in
    /// one section.
    static func applyParams(count: Int = 12_000) -> String {
        let dirs = ["src", "lib", "share", "doc", "swift", "conf.d", "etc", "python3"]
        let files = ["README", "readme.md", "__init__.py", "main.swift", "config.json", "init.c"]
        var state: UInt64 = 42
        func next(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(n))
        }
        let items = (0..<count).map { i -> String in
            var path = ""
            for _ in 0...next(5) { path += "/" + dirs[next(dirs.count)] }
            return #"{"id":"f\#(i)","content":"\#(path)/\#(files[next(files.count)])"}"#
        }
        return #"{"source":"f","sections":[{"id":"s","items":[\#(items.joined(separator: ","))]}]}"#
    }

    static func search(_ id: Int, _ query: String, progressive: Bool) -> String {
        #"{"jsonrpc":"2.0","id":\#(id),"method":"search","params":{"source":"f","query":"\#(query)","mode":"fuzzy","progressive":\#(progressive)}}"#
    }

    /// The window a frontend holds after applying `messages` in order (ids
    /// of the rows), and the answers by id.
    static func replay(_ messages: [[String: Any]]) throws -> (window: [String], answers: [Int: [String: Any]], refined: [String]) {
        var window: [String] = []
        var answers: [Int: [String: Any]] = [:]
        var refined: [String] = []
        for message in messages {
            var diff: [String: Any]?
            if let id = message["id"] as? Int, let result = message["result"] as? [String: Any] {
                answers[id] = result
                diff = result["window"] as? [String: Any]
            } else if message["method"] as? String == "searchRefined", let params = message["params"] as? [String: Any] {
                refined.append((params["search"] as? [String: Any])?["query"] as? String ?? "?")
                diff = params["window"] as? [String: Any]
            }
            for step in diff?["steps"] as? [[String: Any]] ?? [] {
                let at = step["at"] as? Int ?? 0
                let ids = (step["rows"] as? [[String: Any]] ?? []).map { $0["id"] as? String ?? "?" }
                switch step["op"] as? String {
                case "delete": window.removeSubrange(at..<at + (step["count"] as? Int ?? 0))
                case "insert": window.insert(contentsOf: ids, at: at)
                case "update": window.replaceSubrange(at..<at + ids.count, with: ids)
                case "move":
                    let row = window.remove(at: step["from"] as? Int ?? 0)
                    window.insert(row, at: step["to"] as? Int ?? 0)
                default: Issue.record("unknown window step \(step)")
                }
            }
        }
        return (window, answers, refined)
    }

    static func session(progressive: Bool) throws -> [[String: Any]] {
        let keys = ["r", "re", "rea", "read", "readm", "readme"]
        let output = try DaemonProcess.run(lines: [
            #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"initializationOptions":{"progressiveBudget":0,"supersedeSearches":false}}}"#,
            ApplyTests.request(2, "apply", applyParams()),
            #"{"jsonrpc":"2.0","id":3,"method":"search","params":{"source":"f","query":"","mode":"fuzzy","viewport":{"start":0,"count":20}}}"#,
        ] + keys.enumerated().map { Self.search(10 + $0.offset, $0.element, progressive: progressive) } + [
            // Another kind of request: answered after the last refinement.
            ApplyTests.request(20, "viewport", #"{"source":"f","start":3,"count":20}"#),
            ApplyTests.request(21, "snapshot", #"{"source":"f"}"#),
        ])
        return try output.lines.map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    @Test func partialAnswersAndRefinementsEndWithThePlainWindow() throws {
        let plain = try Self.replay(Self.session(progressive: false))
        let messages = try Self.session(progressive: true)
        let progressive = try Self.replay(messages)
        #expect(plain.refined.isEmpty, "no refinement without progressive")
        #expect(progressive.window == plain.window, "the same final window")
        #expect(progressive.window.count == 20)
        // The snapshot's rows 3..<23 are the window.
        let snapshot = try #require(progressive.answers[21]?["sections"] as? [[String: Any]])
        let ids = (snapshot.first?["items"] as? [[String: Any]] ?? []).map { $0["id"] as? String ?? "" }
        #expect(Array(ids.dropFirst(3).prefix(20)) == progressive.window)
        // Every keystroke was answered partially (budget 0), the last one refined
        // before the viewport's answer.
        for id in 10...15 {
            let search = try #require(progressive.answers[id]?["search"] as? [String: Any])
            #expect(search["partial"] as? Bool == true, "answer \(id) is partial")
        }
        #expect(progressive.refined.last == "readme")
        let order = messages.map { ($0["id"] as? Int).map(String.init) ?? ($0["method"] as? String ?? "?") }
        let refinedAt = try #require(order.lastIndex(of: "searchRefined"))
        #expect(order.firstIndex(of: "15").map { $0 < refinedAt } == true && order.firstIndex(of: "20").map { refinedAt < $0 } == true,
                "the refinement comes between the last keystroke's answer and the next request's: \(order)")
        // The exact counts arrive with the refinement.
        let last = try #require(messages[refinedAt]["params"] as? [String: Any])
        let exact = try #require(plain.answers[15]?["search"] as? [String: Any])
        #expect((last["search"] as? [String: Any])?["matches"] as? Int == exact["matches"] as? Int)
        #expect((last["search"] as? [String: Any])?["partial"] == nil)
        #expect(last["version"] as? Int == (progressive.answers[15]?["version"] as? Int).map { $0 + 1 })
    }

    /// Keys typed while the index of a large list is still being built in
    /// the background: each key's exact pass waits for the index, and the
    /// next key drops it. The dropped passes end once the index is there;
    /// the daemon goes on answering (a pass's thread that ended after a
    /// parallel scan once corrupted the heap, and the daemon aborted), and
    /// the last key still ends exact.
    @Test func keysTypedWhileTheIndexIsBuiltLeaveTheDaemonWhole() throws {
        let queries = ["readme", "init.py", "conf.d/etc"]
        var lines = [
            #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"initializationOptions":{"progressiveBudget":0,"supersedeSearches":false}}}"#,
            // More items than `BackgroundBuilds.minimumItems`: the index is
            // built in the background once the search field is declared.
            ApplyTests.request(2, "apply", Self.applyParams(count: 60_000)),
            #"{"jsonrpc":"2.0","id":3,"method":"search","params":{"source":"f","query":"","mode":"fuzzy","viewport":{"start":0,"count":20}}}"#,
        ]
        var id = 10
        for query in queries {
            for k in 1...query.count {
                lines.append(Self.search(id, String(query.prefix(k)), progressive: true))
                id += 1
            }
            // Waits for the last key's refinement.
            lines.append(ApplyTests.request(id, "rows", #"{"source":"f","start":0,"count":20}"#))
            id += 1
        }
        let output = try DaemonProcess.run(lines: lines, timeout: 300)
        #expect(output.status == 0, "the daemon exits normally; stderr: \(output.stderr.suffix(600))")
        let messages = try output.lines.map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        let answered = Set(messages.compactMap { $0["id"] as? Int })
        #expect(answered.isSuperset(of: Set(10..<id)), "every request answered: missing \(Set(10..<id).subtracting(answered).sorted())")
        let refined = messages.compactMap { message -> String? in
            guard message["method"] as? String == "searchRefined" else { return nil }
            return ((message["params"] as? [String: Any])?["search"] as? [String: Any])?["query"] as? String
        }
        // Each query's last key is refined (the `rows` after it waits for
        // that); the keys before it may have been dropped.
        for query in queries { #expect(refined.contains(query), "\(query) refined: \(refined)") }
    }
}
