import Foundation
import Testing

/// Replays every conformance transcript in protocol/transcripts against the
/// built binary, in both framings, and compares the exact response lines.
struct TranscriptTests {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("protocol/transcripts")

    static var names: [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return files.filter { $0.hasSuffix(".transcript") }.sorted()
    }

    struct Transcript {
        var sent: [String] = []
        var expected: [String] = []
    }

    static func load(_ name: String) throws -> Transcript {
        let text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
        var transcript = Transcript()
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            if line.hasPrefix("> ") { transcript.sent.append(String(line.dropFirst(2))) }
            else if line.hasPrefix("< ") { transcript.expected.append(String(line.dropFirst(2))) }
        }
        return transcript
    }

    @Test func transcriptsExist() {
        #expect(Self.names.count >= 5, "expected the conformance transcripts in \(Self.directory.path)")
    }

    @Test(arguments: names)
    func replayNewlineDelimited(_ name: String) throws {
        let transcript = try Self.load(name)
        let output = try DaemonProcess.run(lines: transcript.sent)
        #expect(output.lines.count == transcript.expected.count, "\(name): response count")
        for (index, (actual, expected)) in zip(output.lines, transcript.expected).enumerated() {
            #expect(actual == expected, "\(name): response \(index + 1)")
        }
    }

    @Test(arguments: names)
    func replayContentLength(_ name: String) throws {
        let transcript = try Self.load(name)
        let output = try DaemonProcess.run(DaemonProcess.lspFramed(transcript.sent, vimStyle: true))
        let bodies = try DaemonProcess.lspBodies(output.stdout)
        #expect(bodies.count == transcript.expected.count, "\(name): response count")
        for (index, (actual, expected)) in zip(bodies, transcript.expected).enumerated() {
            #expect(actual == expected, "\(name): response \(index + 1)")
        }
    }
}

/// The decoding transcripts again, each request of the method they pin
/// padded with whitespace past the size from which the daemon reads that
/// method's params from their bytes (`apply`: 64 KiB): the same answers.
/// (`edit-decoding-large.transcript` is the padded form of the edits.)
struct PaddedTranscriptTests {
    static func padded(_ request: String, method: String, past size: Int) -> String {
        guard request.contains(#""method":"\#(method)""#), let params = request.range(of: #""params":"#) else { return request }
        var at = params.upperBound
        if request[at...].hasPrefix("{") { at = request.index(after: at) }
        return String(request[..<at]) + String(repeating: " ", count: size) + String(request[at...])
    }

    @Test func appliesReadFromTheirBytesAnswerAlike() throws {
        let transcript = try TranscriptTests.load("apply-decoding.transcript")
        let sent = transcript.sent.map { Self.padded($0, method: "apply", past: 64 * 1024) }
        #expect(sent.filter { $0.utf8.count > 64 * 1024 }.count >= 150)
        let output = try DaemonProcess.run(lines: sent)
        #expect(output.lines.count == transcript.expected.count, "response count")
        for (index, (actual, expected)) in zip(output.lines, transcript.expected).enumerated() {
            #expect(actual == expected, "response \(index + 1) to \(sent[index].prefix(300))")
        }
    }
}
