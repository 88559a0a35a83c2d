import Foundation
import Testing

/// Regression (found by protocol/clients/python/diffable_client.py --selftest):
/// in the steps form, `moveItem.to` is an intermediate position (before the
/// row inserts that follow), so the `item` of a moved row whose content
/// changed must be the moved row itself, not whatever row ends up at `to`.
struct StepsMoveItemTests {
    @Test func movedItemWithNewContentIsTheMovedRow() throws {
        let output = try DaemonProcess.run(lines: [
            #"{"jsonrpc":"2.0","id":1,"method":"initialize"}"#,
            #"{"jsonrpc":"2.0","id":2,"method":"apply","params":{"source":"s","sections":[{"id":"a","items":["x","y"]}]}}"#,
            #"{"jsonrpc":"2.0","id":3,"method":"apply","params":{"source":"s","form":"steps","sections":[{"id":"a","items":["n",{"id":"y","content":"Y"},"x","m"]}]}}"#,
        ])
        #expect(output.lines.count == 3)
        #expect(output.lines.last == #"{"jsonrpc":"2.0","id":3,"result":{"source":"s","version":2,"steps":[{"op":"moveItem","from":[0,1],"to":[0,0],"item":{"id":"y","content":"Y"}},{"op":"insertItems","section":0,"at":0,"items":[{"id":"n"}]},{"op":"insertItems","section":0,"at":3,"items":[{"id":"m"}]}]}}"#)
    }
}
