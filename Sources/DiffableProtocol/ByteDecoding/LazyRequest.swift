import Dispatch

/// The `params` object of a large request, validated but not parsed: the
/// whole body and where the params lie in it. The method decodes it straight
/// from the bytes (see `ApplyScanner`), or asks for the JSON tree.
package struct LazyParams: Sendable {
    /// The request's bytes, until `releaseBody()`.
    package var body: [UInt8] { storage.bytes }
    private let storage: RequestBytes
    package let range: Range<Int>
    /// The params' `workDoneToken`, found while validating, so progress can
    /// begin before the params are decoded (clients often send it last).
    package var workDoneToken: JSON? = nil
    /// Array elements noted while validating, where a decoder may start a
    /// part of a large array (see `JSONValidator.splitHints`).
    package var splitHints: [JSONValidator.SplitHint] = []
    /// What a decoder may give back of the bytes it has read (see
    /// `ReleasedRuns`): whole pages in the daemon, zeros in tests.
    package var release: ReleasedRuns.Mode

    package init(body: [UInt8], range: Range<Int>, workDoneToken: JSON? = nil, splitHints: [JSONValidator.SplitHint] = [],
         release: ReleasedRuns.Mode = .keep) {
        storage = RequestBytes(body)
        self.range = range
        self.workDoneToken = workDoneToken
        self.splitHints = splitHints
        self.release = release
    }

    /// Params that came parsed (a small request, or one in a batch), written
    /// back as bytes for a method read only from its bytes, after the
    /// checks of every method (an object, no member outside `members`).
    /// No params (absent, null, `[]`) are an empty object, as `Params`
    /// takes them. - Complexity: O(size of the params)
    package init(writingBack params: JSON?, accepting members: [String]) throws(RPCError) {
        _ = try Params(params, accepting: members)
        let object: JSON = if case .object? = params, let params { params } else { .object(JSONObject()) }
        let body = JSONWriter.bytes(object)
        self.init(body: body, range: 0..<body.count)
    }

    /// Calls `body` with the request's bytes, which it may release and must
    /// restore before anyone else reads them (see `ReleasedRuns`).
    package func withReleasableBytes<R>(_ body: (UnsafeMutableBufferPointer<UInt8>) -> R) -> R {
        storage.withReleasableBytes(body)
    }

    /// Whether `withReleasableBytes` had to copy the bytes because another
    /// reference to them was alive (the framer hands them over, so only
    /// tests, which keep their bodies, should see this).
    package var bytesWereCopied: Bool { storage.wasCopied }

    /// Frees the request's bytes (the last reference to them: the framer
    /// hands them over, the queue passes them on) once the method has read
    /// what it needs, so that a large request and the response it produces
    /// are not held at the same time. `body` and `tree()` are empty after.
    package func releaseBody() {
        storage.release()
    }

    /// The params as a JSON tree (the general path).
    package func tree() throws(RPCError) -> JSON {
        let parsed: Result<JSON, JSONParseError> = body.withUnsafeBufferPointer { buffer in
            do throws(JSONParseError) {
                return .success(try JSONParser.parse(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: buffer[range]))))
            } catch {
                return .failure(error)
            }
        }
        switch parsed {
        case .success(let tree):
            return tree
        case .failure(let error):
            // The bytes were validated when the request arrived; what the
            // validator does not check is the memory the parsed form takes.
            throw RPCError(code: ErrorCode.parseError,
                           message: "Parse error: the params \(error.message). The message was ignored; the server is still running.")
        }
    }
}

/// Splits a large request body into its envelope (parsed) and its `params`
/// (validated only), so that a big `apply` never becomes a JSON tree.
///
/// The split is an optimization with no visible effect: it only happens when
/// the whole body is valid JSON (checked as strictly as `JSONParser` does), is
/// a single request object whose last `params` member is an object, and names
/// a method that decodes lazily. Anything else goes the ordinary way.
package enum LazyRequest {
    /// Smaller bodies are parsed into a tree; that is cheap for them.
    package static let minimumBodySize = 64 * 1024
    /// Split hints noted per body (enough to balance a few threads), at
    /// least this many bytes apart (a part smaller than that is not worth a
    /// thread).
    package static let hintsPerBody = 32
    package static let minimumHintSpacing = 256 * 1024
    /// Bodies this large are mapped for themselves (glibc maps blocks over
    /// 32 MiB at any setting) and unmapped when freed: their pages may go
    /// back while they are read at no cost to the next request (see
    /// `ReleasedRuns`); a million-item `apply` is well above this.
    package static let minimumReleasedBodySize = 32 << 20

    /// The envelope, with `params` standing in as an empty object, and the
    /// lazy params; nil when the body must be parsed the ordinary way.
    /// - Complexity: O(body size), without allocating per value of `params`.
    /// `hintSpacing`: bytes between split hints (default: `hintsPerBody`
    /// per body, at least `minimumHintSpacing` apart); `release`: what the
    /// decoder gives back as it reads (default: whole pages of bodies of at
    /// least `minimumReleasedBodySize`).
    /// `methods`: the methods whose params may stay bytes (the server's
    /// `Server.lazyParamsMethods`; the transport knows no method), each for
    /// bodies of at least `minimumSizes[method]` bytes.
    package static func split(_ body: [UInt8], methods: Set<String>, minimumSizes: [String: Int] = [:],
                      hintSpacing: Int? = nil, release: ReleasedRuns.Mode? = nil)
    -> (envelope: JSON, params: LazyParams)? {
        body.withUnsafeBufferPointer { buffer -> (envelope: JSON, params: LazyParams)? in
            var v = JSONValidator(buffer)
            v.hintSpacing = hintSpacing ?? max(buffer.count / hintsPerBody, minimumHintSpacing)
            v.skipWhitespace()
            guard v.byte(v.pos) == UInt8(ascii: "{") else { return nil }
            v.pos += 1
            var members: [(String, JSON)] = []
            var paramsRange: Range<Int>?
            var token: JSON?
            while true {
                guard let (name, escaped) = v.memberName(), !escaped else { return nil }
                let key = String(decoding: UnsafeBufferPointer(rebasing: buffer[name]), as: UTF8.self)
                let valueStart = v.pos
                var tokenRange: Range<Int>?
                if key == "params", v.byte(valueStart) == UInt8(ascii: "{") {
                    guard skipParams(&v, buffer, tokenRange: &tokenRange) else { return nil }
                } else {
                    guard v.skipValue(depth: 1) else { return nil }
                }
                let range = valueStart..<v.pos
                if key == "params" {
                    paramsRange = range
                    token = tokenRange.flatMap { range in
                        try? JSONParser.parse(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: buffer[range])))
                    }
                    members.append((key, .object(JSONObject())))
                } else {
                    let slice = UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: buffer[range]))
                    guard let value = try? JSONParser.parse(slice) else { return nil }
                    // Another method's body is parsed the ordinary way: stop
                    // before validating the rest of it (clients write
                    // `method` before `params`).
                    if key == "method", case .string(let method) = value,
                       !methods.contains(method) || buffer.count < minimumSizes[method] ?? 0 { return nil }
                    members.append((key, value))
                }
                v.skipWhitespace()
                guard let separator = v.byte(v.pos) else { return nil }
                v.pos += 1
                if separator == UInt8(ascii: "}") { break }
                guard separator == UInt8(ascii: ",") else { return nil }
            }
            v.skipWhitespace()
            guard v.pos == v.end, let paramsRange, buffer[paramsRange.lowerBound] == UInt8(ascii: "{") else { return nil }
            let envelope = JSONObject(members)
            guard case .string(let method)? = envelope["method"], methods.contains(method),
                  buffer.count >= minimumSizes[method] ?? 0 else { return nil }
            // Smaller requests' memory is reused by the heap: giving it
            // back would only make the next one fault it in again.
            let releasing = release ?? (buffer.count >= minimumReleasedBodySize
                                        ? .pages(chunk: ReleasedRuns.Mode.daemonChunk) : .keep)
            return (.object(envelope), LazyParams(body: body, range: paramsRange, workDoneToken: token,
                                                  splitHints: v.splitHints, release: releasing))
        }
    }

    /// Validates the params object at `v.pos` member by member (as strictly
    /// as `skipValue`, at the same cost) and notes where its
    /// `workDoneToken` value lies.
    private static func skipParams(
        _ v: inout JSONValidator, _ buffer: UnsafeBufferPointer<UInt8>, tokenRange: inout Range<Int>?
    ) -> Bool {
        v.pos += 1  // {
        v.skipWhitespace()
        if v.byte(v.pos) == UInt8(ascii: "}") {
            v.pos += 1
            return true
        }
        let tokenName = Array("workDoneToken".utf8)
        while true {
            guard let (name, escaped) = v.memberName() else { return false }
            let isToken = !escaped && buffer[name].elementsEqual(tokenName)
            let valueStart = v.pos
            guard v.skipValue(depth: 2) else { return false }
            if isToken { tokenRange = valueStart..<v.pos }
            v.skipWhitespace()
            guard let separator = v.byte(v.pos) else { return false }
            v.pos += 1
            if separator == UInt8(ascii: "}") { return true }
            guard separator == UInt8(ascii: ",") else { return false }
        }
    }
}

/// The bytes of a request, shared by the copies of its `LazyParams` and
/// dropped by the handler (one thread at a time: the one handling it).
private final class RequestBytes: @unchecked Sendable {
    private(set) var bytes: [UInt8]
    package init(_ bytes: [UInt8]) { self.bytes = bytes }

    private(set) var wasCopied = false

    /// `bytes`, taken out for the call so that they are not copied when
    /// written (the framer has passed them on: this is their one reference).
    package func withReleasableBytes<R>(_ body: (UnsafeMutableBufferPointer<UInt8>) -> R) -> R {
        var taken = bytes
        bytes = []
        defer { bytes = taken }
        let shared = taken.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
        return taken.withUnsafeMutableBufferPointer { buffer in
            if UnsafeRawPointer(buffer.baseAddress) != shared { wasCopied = true }
            return body(buffer)
        }
    }

    /// Unmapping a request of a hundred MB takes noticeable time: another
    /// thread does it while the handler goes on to the diff.
    package func release() {
        let dropped = Dropped(bytes)
        bytes = []
        DispatchQueue.global(qos: .utility).async { withExtendedLifetime(dropped) {} }
    }

    private final class Dropped: @unchecked Sendable {
        package let bytes: [UInt8]
        package init(_ bytes: [UInt8]) { self.bytes = bytes }
    }
}
