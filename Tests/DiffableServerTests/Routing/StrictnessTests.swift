import Testing
@testable import DiffableServer
@testable import DiffableProtocol
import DiffableTestSupport

/// Lenient where clients differ (params null, absent, {} or [] for methods
/// without params; LSP's many initialize members; malformed notifications
/// are never answered), strict where users err (unknown members).
@Suite struct StrictnessTests {
    static func server() -> Server {
        let server = Server()
        _ = server.handle(body: utf8(#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"processId":null,"rootUri":null,"capabilities":{},"trace":"off","clientInfo":{"name":"pygls"}}}"#))
        return server
    }

    static func send(_ server: Server, _ body: String) -> String? {
        server.handle(body: utf8(body)).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test(arguments: [nil, "null", "{}", "[]"])
    func parameterlessMethodsTakeAbsentNullOrEmptyParams(_ params: String?) {
        let server = Self.server()
        let member = params.map { #","params":\#($0)"# } ?? ""
        #expect(Self.send(server, #"{"jsonrpc":"2.0","id":1,"method":"sources"\#(member)}"#) == #"{"jsonrpc":"2.0","id":1,"result":{"sources":[]}}"#)
        #expect(Self.send(server, #"{"jsonrpc":"2.0","id":2,"method":"shutdown"\#(member)}"#) == #"{"jsonrpc":"2.0","id":2,"result":null}"#)
        #expect(Self.send(server, #"{"jsonrpc":"2.0","method":"exit"\#(member)}"#) == nil)
        #expect(server.exitCode == 0)
    }

    @Test func parameterlessMethodsRefuseMembers() {
        let server = Self.server()
        let answer = Self.send(server, #"{"jsonrpc":"2.0","id":1,"method":"shutdown","params":{"force":true}}"#) ?? ""
        #expect(answer.contains(#""code":-32602"#) && answer.contains(#""unknown":["force"]"#))
        #expect(server.exitCode == nil)
    }

    @Test(arguments: [
        #"{"jsonrpc":"2.0","method":"exit","params":5}"#,
        #"{"jsonrpc":"1.0","method":"initialized"}"#,
        #"{"method":7}"#,
        #"{"jsonrpc":"2.0"}"#,
        #"{"jsonrpc":"2.0","method":"$/cancelRequest","params":"x"}"#,
    ])
    func malformedNotificationsAreNeverAnswered(_ body: String) {
        #expect(Self.send(Self.server(), body) == nil)
        #expect(Self.send(Self.server(), "[\(body)]") == nil, "in a batch too")
    }

    @Test func malformedRequestsAreStillAnswered() {
        #expect(Self.send(Self.server(), #"{"jsonrpc":"2.0","id":3,"method":"sources","params":5}"#)?.contains("-32600") == true)
    }

    /// Every method refuses a member it does not know, names it and lists
    /// the accepted ones; the source is untouched.
    @Test(arguments: [
        ("apply", #""source":"s","sections":[]"#), ("edit", #""source":"s","ops":[]"#),
        ("search", #""source":"s","query":"a""#), ("select", #""source":"s","ids":["a"]"#),
        ("setSelectionMode", #""source":"s","sections":{}"#), ("selection", #""source":"s""#),
        ("highlights", #""source":"s","section":0"#), ("snapshot", #""source":"s""#),
        ("drop", #""source":"s""#), ("sources", nil),
    ] as [(String, String?)])
    func unknownMembersAreRefused(_ method: String, _ members: String?) {
        let server = Self.server()
        _ = Self.send(server, #"{"jsonrpc":"2.0","id":1,"method":"apply","params":{"source":"s","sections":[{"id":"a","items":["a"]}]}}"#)
        let params = [members, #""bogus":1"#].compactMap { $0 }.joined(separator: ",")
        let answer = Self.send(server, #"{"jsonrpc":"2.0","id":2,"method":"\#(method)","params":{\#(params)}}"#) ?? ""
        #expect(answer.contains(#""code":-32602"#), "\(method): \(answer)")
        #expect(answer.contains(#""unknown":["bogus"]"#), "\(method): \(answer)")
        #expect(answer.contains(#""accepted":["#), "\(method): \(answer)")
        #expect(Self.send(server, #"{"jsonrpc":"2.0","id":3,"method":"snapshot","params":{"source":"s"}}"#)?.contains(#""version":1"#) == true)
    }

    /// A malformed request is an invalid-params error whichever source it
    /// names: params are checked before the source is looked up, so a
    /// client sees the mistake it can fix, not "unknown source".
    @Test(arguments: [
        ("edit", #""ops":5"#), ("search", #""query":5"#), ("select", #""ids":[1]"#),
        ("select", #""action":"pick""#), ("setSelectionMode", #""sections":[]"#),
        ("snapshot", #""full":"yes""#), ("viewport", #""start":"x""#), ("rows", #""count":-1"#), ("expand", #""ids":"a""#), ("highlights", #""section":"0""#), ("outline", #""id":3"#), ("drop", #""bogus":1"#),
    ])
    func paramsAreCheckedBeforeTheSource(_ method: String, _ members: String) {
        let answer = Self.send(Self.server(), #"{"jsonrpc":"2.0","id":2,"method":"\#(method)","params":{"source":"nowhere",\#(members)}}"#) ?? ""
        #expect(answer.contains(#""code":-32602"#), "\(method): \(answer)")
    }

    @Test(arguments: [
        ("apply", #"{"source":"s","sections":[],"frm":"steps"}"#, "frm", "form"),
        ("search", #"{"source":"s","query":"a","limt":50}"#, "limt", "limit"),
        ("search", #"{"source":"s","query":"a","Sections":["a"]}"#, "Sections", "sections"),
        ("search", #"{"source":"s","querry":"a"}"#, "querry", "query"),
        ("edit", #"{"source":"s","ops":[{"op":"insertItems","items":["b"],"befor":"a"}]}"#, "befor", "before"),
        ("initialize", #"{"initializationOptions":{"supersedeSearch":false}}"#, "supersedeSearch", "supersedeSearches"),
    ])
    func typosGetASuggestion(_ method: String, _ params: String, _ typo: String, _ meant: String) {
        let server = method == "initialize" ? Server() : Self.server()
        _ = Self.send(server, #"{"jsonrpc":"2.0","id":1,"method":"apply","params":{"source":"s","sections":[{"id":"a","items":["a"]}]}}"#)
        let answer = Self.send(server, #"{"jsonrpc":"2.0","id":2,"method":"\#(method)","params":\#(params)}"#) ?? ""
        #expect(answer.contains(#"did you mean \"\#(meant)\"?"#), "\(answer)")
        #expect(answer.contains(#""suggestions":{"\#(typo)":"\#(meant)"}"#), "\(answer)")
    }

    @Test func noSuggestionForAFarName() {
        #expect(Params.closest(to: "zzzzzz", in: ["source", "query"]) == nil)
        #expect(Params.closest(to: "src", in: ["source", "sections"]) == nil)
        #expect(Params.closest(to: "sourc", in: ["source", "sections"]) == "source")
    }

    @Test func initializeTakesLSPMembersAndProcessID() {
        let server = Server()
        let answer = Self.send(server, #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":4242,"rootUri":"file:///x","capabilities":{"general":{}},"workspaceFolders":null,"locale":"en"}}"#)
        #expect(answer?.contains(#""serverInfo""#) == true)
        #expect(server.parentProcessID == 4242)
        #expect(Self.send(Server(), #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":-3}}"#)?.contains("-32602") == true)
    }

    /// An `initialize` refused for one member sets none of the others: the
    /// session keeps its defaults and may send `initialize` again.
    @Test func refusedInitializeChangesNothing() {
        let server = Server()
        let refused = Self.send(server, #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":-3,"initializationOptions":{"form":"steps","echo":"ids","updates":"patch","supersedeSearches":false,"progressiveBudget":5}}}"#)
        #expect(refused?.contains(#""path":"params.processId""#) == true)
        #expect(server.defaultForm == .batch && server.echoContent && !server.patchUpdates && server.supersedeSearches)
        #expect(server.progressiveBudget == 0.008 && server.parentProcessID == nil)
        let accepted = Self.send(server, #"{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"processId":77,"initializationOptions":{"form":"steps","echo":"ids","updates":"patch","supersedeSearches":false,"progressiveBudget":5}}}"#)
        #expect(accepted?.contains(#""defaultForm":"steps""#) == true)
        #expect(server.defaultForm == .steps && !server.echoContent && server.patchUpdates && !server.supersedeSearches)
        #expect(server.progressiveBudget == 0.005 && server.parentProcessID == 77)
        #expect(Self.send(server, #"{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"processId":-3}}"#)?.contains("already received") == true)
    }

    @Test func resultsCarryNoEmptySelection() {
        let server = Self.server()
        _ = Self.send(server, #"{"jsonrpc":"2.0","id":1,"method":"apply","params":{"source":"s","sections":[{"id":"a","selection":"multiple","items":[{"id":"x","content":"xa"},{"id":"y","content":"yb"}]}]}}"#)
        _ = Self.send(server, #"{"jsonrpc":"2.0","id":2,"method":"select","params":{"source":"s","ids":["x"]}}"#)
        // The search hides the selected row: nothing about the selection changed.
        let answer = Self.send(server, #"{"jsonrpc":"2.0","id":3,"method":"search","params":{"source":"s","query":"yb"}}"#) ?? ""
        #expect(answer.contains(#""batch""#) && !answer.contains(#""selection":{}"#), "\(answer)")
    }
}
