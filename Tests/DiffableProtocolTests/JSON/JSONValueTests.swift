import Testing
@testable import DiffableProtocol
import DiffableTestSupport

@Suite struct JSONValueTests {
    @Test func literalsBuildExpectedCases() {
        let value: JSON = ["id": 1, "name": "x", "ok": true, "none": nil, "list": [1.5, "a"]]
        guard case .object(let o) = value else {
            Issue.record("not an object")
            return
        }
        #expect(o.keys == ["id", "name", "ok", "none", "list"])
        #expect(o["id"] == .number("1"))
        #expect(o["name"] == .string("x"))
        #expect(o["ok"] == .bool(true))
        #expect(o["none"] == .null)
        #expect(o["list"] == .array([.number("1.5"), .string("a")]))
        #expect(value["missing"] == nil)
    }

    @Test func accessors() {
        #expect(JSON.string("s").stringValue == "s")
        #expect(JSON.int(-7).intValue == -7)
        #expect(JSON.bool(false).boolValue == false)
        #expect(JSON.null.isNull)
        #expect(!JSON.bool(false).isNull)
        #expect(JSON.array([1]).arrayValue == [1])
        #expect(JSON.number("1").stringValue == nil)
        #expect(JSON.string("1").intValue == nil)
        #expect(JSON.double(.infinity) == .null)
        #expect(JSON.double(0.25) == .number("0.25"))
        #expect(JSON.number("2.5").doubleValue == 2.5)
    }

    @Test(arguments: [
        ("0", 0), ("-0", 0), ("123", 123), ("-9223372036854775808", Int.min), ("9223372036854775807", Int.max),
    ])
    func intValueOfIntegers(lexeme: String, expected: Int) {
        #expect(JSON.number(lexeme).intValue == expected)
    }

    @Test(arguments: ["1.0", "1e2", "1E2", "9223372036854775808", "-9223372036854775809", "0.5"])
    func intValueRejectsNonIntegers(lexeme: String) {
        #expect(JSON.number(lexeme).intValue == nil)
    }

    @Test func duplicateKeysLastWinsAndOrderIsKept() {
        let o = JSONObject([("a", 1), ("b", 2), ("a", 3)])
        #expect(o["a"] == 3)
        #expect(o.count == 3)
        #expect(o.keys == ["a", "b", "a"])
    }

    @Test func largeObjectsUseIndexWithSameSemantics() {
        var members: [(String, JSON)] = (0..<100).map { ("k\($0)", .int($0)) }
        members.append(("k5", "last"))
        var o = JSONObject(members)
        #expect(o["k5"] == "last")
        #expect(o["k99"] == 99)
        #expect(o["nope"] == nil)
        o["k100"] = 100
        #expect(o["k100"] == 100)
        o["k5"] = nil
        #expect(o["k5"] == nil)
        #expect(o.count == 100)
        o.append(key: "k0", value: "again")
        #expect(o["k0"] == "again")
    }

    @Test func subscriptSetOnSmallObject() {
        var o: JSONObject = ["a": 1]
        o["b"] = 2
        o["a"] = 5
        #expect(o.members.map(\.key) == ["a", "b"])
        #expect(o["a"] == 5)
        o["a"] = nil
        #expect(o.keys == ["b"])
    }

    @Test func objectEqualityIsOrdered() {
        #expect(JSONObject([("a", 1), ("b", 2)]) == ["a": 1, "b": 2])
        #expect(JSONObject([("a", 1), ("b", 2)]) != ["b": 2, "a": 1])
        #expect(JSONObject([("a", 1)]) != ["a": 2])
    }
}
