import Foundation
import DiffableProtocol

/// `diffable replay FILE`: re-sends the incoming messages of a `--trace`
/// file to a fresh server, in order, and compares each response with the
/// recorded one.
///
/// Responses are compared as JSON values written canonically; outgoing
/// notifications (`$/progress`, whose timing varies) are not compared. A
/// request the recording answered with RequestCancelled (-32800) is not run
/// again: whether a request was cancelled or superseded depends on timing
/// (what had arrived while it waited), and such a request changed nothing.
public enum TraceReplay {
    struct Entry {
        var incoming: Bool
        /// The message body (JSON) or, for unparsable input, its text.
        var body: [UInt8]
        var isJSON: Bool
        var line: Int
        /// A message skipped for its size: its id, size and limit (`body` is empty).
        var tooLarge: (id: JSON, size: Int, limit: Int)? = nil
    }

    /// Exit code: 0 when every response matched, 1 at the first difference,
    /// 2 when the file cannot be read or holds no record. Reports on stderr
    /// (differences, a truncated last record) and stdout (the summary).
    public static func run(path: String) -> Int32 {
        guard let data = FileManager.default.contents(atPath: path) else {
            fail("cannot read \(path)")
            return 2
        }
        let entries: [Entry]
        do {
            let parsed = try parse([UInt8](data))
            entries = parsed.entries
            if let line = parsed.truncatedLine {
                // A daemon killed while writing its trace leaves half a record.
                fail("\(path): line \(line), the last, is a truncated record; replaying the \(entries.count) records before it")
            }
        } catch {
            fail("\(path): \(error.message)")
            return 2
        }
        guard entries.contains(where: \.incoming) else {
            fail("\(path) holds no incoming message to replay (is it a trace written by `diffable --trace`?)")
            return 2
        }
        let server = Server()
        var expected = entries.filter { !$0.incoming && !isNotification($0.body) }[...]
        var compared = 0
        for entry in entries where entry.incoming {
            let recorded = firstResponse(in: &expected, to: entry)
            if recorded == nil, expectsResponse(entry) {
                // The recording stops before this answer (a cut trace, a
                // daemon that was killed): what came before is replayed.
                fail("the trace ends before the answer to line \(entry.line); replayed up to it")
                break
            }
            if let recorded, isCancelled(recorded.body) {
                compared += 1
                continue
            }
            let response: [UInt8]?
            if let skipped = entry.tooLarge {
                response = JSONWriter.bytes(server.messageTooLarge(id: skipped.id, size: skipped.size, limit: skipped.limit))
            } else {
                response = entry.isJSON ? server.handle(body: entry.body) : server.parseErrorResponse("replayed")
            }
            if !sameJSON(response, recorded?.body, parseErrors: !entry.isJSON) {
                fail("""
                    line \(entry.line): the response differs from the recording.
                      request:  \(String(decoding: entry.body, as: UTF8.self).prefix(2000))
                      recorded: \(recorded.map { String(decoding: $0.body, as: UTF8.self).prefix(2000) } ?? "(no response)")
                      replayed: \(response.map { String(decoding: $0, as: UTF8.self).prefix(2000) } ?? "(no response)")
                    """)
                return 1
            }
            if response != nil { compared += 1 }
            if server.exitCode != nil { break }
        }
        print("replay: \(compared) responses matched the recording (\(path))")
        return 0
    }

    /// The recorded response to `request`: the next recorded output when the
    /// request expects one (see `expectsResponse`), else nil.
    private static func firstResponse(in outputs: inout ArraySlice<Entry>, to request: Entry) -> Entry? {
        guard expectsResponse(request) else { return nil }
        return outputs.popFirst()
    }

    /// Whether the daemon answers `request`: unparsable input and messages
    /// with an `id` are answered; a message without one is a notification,
    /// malformed or not, and a batch is answered when one of its elements
    /// has an id.
    static func expectsResponse(_ request: Entry) -> Bool {
        guard request.isJSON else { return true }
        switch try? JSONParser.parse(request.body, maxDepth: recordDepth) {
        case .object(let object)?: return object["id"] != nil
        case .array(let elements)?: return elements.contains { $0["id"] != nil }
        default: return true
        }
    }

    /// Records wrap a message one level deeper than the daemon reads it.
    static let recordDepth = JSONParser.defaultMaxDepth + 2

    /// The records of a trace, and the line of a truncated last record
    /// (one that does not parse and has no newline after it).
    static func parse(_ bytes: [UInt8]) throws(TraceError) -> (entries: [Entry], truncatedLine: Int?) {
        var entries: [Entry] = []
        let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() {
            guard !line.allSatisfy({ $0 == 0x20 || $0 == 0x0D }) else { continue }
            guard case .object(let object)? = try? JSONParser.parse(Array(line), maxDepth: recordDepth),
                  case .string(let direction)? = object["direction"] else {
                if index == lines.count - 1 { return (entries, index + 1) }
                throw TraceError(message: "line \(index + 1) is not a trace record")
            }
            if let message = object["message"] {
                entries.append(Entry(incoming: direction == "in", body: JSONWriter.bytes(message), isJSON: true, line: index + 1))
            } else if case .object(let skipped)? = object["tooLarge"], let id = skipped["id"],
                      let size = skipped["size"]?.intValue, let limit = skipped["limit"]?.intValue {
                entries.append(Entry(incoming: true, body: [], isJSON: true, line: index + 1, tooLarge: (id, size, limit)))
            } else if case .string(let text)? = object["text"] {
                entries.append(Entry(incoming: direction == "in", body: Array(text.utf8), isJSON: false, line: index + 1))
            } else {
                throw TraceError(message: "line \(index + 1) has neither message nor text")
            }
        }
        return (entries, nil)
    }

    /// An outgoing message that is not a response (`$/progress`).
    private static func isNotification(_ body: [UInt8]) -> Bool {
        guard case .object(let object)? = try? JSONParser.parse(body, maxDepth: recordDepth) else { return false }
        return object["id"] == nil && object["method"] != nil
    }

    private static func isCancelled(_ body: [UInt8]) -> Bool {
        guard case .object(let object)? = try? JSONParser.parse(body, maxDepth: recordDepth),
              case .object(let error)? = object["error"] else { return false }
        return error["code"]?.intValue == ErrorCode.requestCancelled
    }

    /// Equal as JSON values; parse errors compare by code only (their
    /// message quotes the parser's position, which the trace cannot restore).
    private static func sameJSON(_ a: [UInt8]?, _ b: [UInt8]?, parseErrors: Bool) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        guard let x = try? JSONParser.parse(a, maxDepth: recordDepth),
              let y = try? JSONParser.parse(b, maxDepth: recordDepth) else { return false }
        if parseErrors {
            return x["error"]?["code"] == y["error"]?["code"] && x["id"] == y["id"]
        }
        return JSONWriter.bytes(x) == JSONWriter.bytes(y)
    }

    private static func fail(_ message: String) {
        FileHandle.standardError.write(Data("diffable replay: \(message)\n".utf8))
    }
}
