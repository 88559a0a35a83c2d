import DiffableEngine
import Testing
@testable import DiffableServer
import DiffableTestSupport

/// `search ""` with `progressive` declares a field for progressive keys:
/// the source prepares the sample partial answers rank while nothing is
/// typed (see `PartialSearchTests`); without `progressive` it does not.
@Suite struct ProgressiveDeclarationTests {
    static func declared(_ search: String) -> Bool? {
        let server = Server()
        _ = server.handle(body: utf8(#"{"jsonrpc":"2.0","id":0,"method":"initialize"}"#))
        _ = server.handle(body: utf8(#"{"jsonrpc":"2.0","id":1,"method":"apply","params":{"source":"files","viewport":{"start":0,"count":20},"sections":[{"id":"s","items":[{"id":"a","content":{"text":"src/main.swift"}},{"id":"b","content":{"text":"README.md"}}]}]}}"#))
        let answer = server.handle(body: utf8(#"{"jsonrpc":"2.0","id":2,"method":"search","params":{"source":"files","mode":"fuzzy","order":"score",\#(search)"query":""}}"#))
        guard let text = answer.map({ String(decoding: $0, as: UTF8.self) }), text.contains(#""result""#) else { return nil }
        return server.sources["files"]?.expectsProgressiveAnswers
    }

    @Test func anEmptyProgressiveSearchDeclaresTheField() {
        #expect(Self.declared(#""progressive":true,"#) == true)
        #expect(Self.declared(#""progressive":false,"#) == false)
        #expect(Self.declared("") == false)
    }
}
