import DiffableEngine

extension EditRequest {
    /// Decodes an `edit` from its bytes: every `edit` is read here, whatever
    /// its size (`init(params:context:)` hands its params over as bytes).
    /// The items of flat `appendItems` ops and the usual `patchContent` ops
    /// are read from the bytes (items as `apply` reads them, written into
    /// one arena of their size); any other op, or one of those in a shape
    /// the byte reader does not take, is parsed alone and decoded by the
    /// codec (`EditCodec.decodeOutlineOp`), which names its problem; every
    /// other member is parsed and checked by `Params`. The members are
    /// checked in the order of `init(checked:ops:)`, and the first failing
    /// op is reported after them.
    /// - Complexity: O(bytes).
    package static func decode(_ lazy: LazyParams, context: any DecodingContext) throws(RPCError) -> EditRequest {
        let read = lazy.withReleasableBytes { bytes in Self.read(lazy.range, bytes) }
        guard let read else {
            throw RPCError(code: ErrorCode.internalError,
                           message: "Internal error: the edit's params passed validation but could not be read; nothing was changed.")
        }
        try read.params.checkMembers(Self.members)
        return try EditRequest(checked: read.params, ops: read.ops)
    }

    /// The params (`ops` standing in as an empty array when it is one) and
    /// what reading the ops gave: the ops, or the first failing op's error
    /// (nil when `ops` is not an array: the member itself is kept, and
    /// checking it names the problem). nil only for bytes that are not
    /// valid JSON, which never reach here.
    private static func read(_ range: Range<Int>, _ bytes: UnsafeMutableBufferPointer<UInt8>)
    -> (params: Params, ops: Result<[OutlineEditOperation], RPCError>?)? {
        var s = ByteScanner(UnsafeBufferPointer(bytes), range: range)
        var members: [(String, JSON)] = []
        var ops: Result<[OutlineEditOperation], RPCError>?
        // A repeated member: the last one counts, as in `JSONObject`.
        let readAll = ByteScanner.readNamedObject(&s) { s, _, name in
            if name == "ops", s.byte(s.pos) == UInt8(ascii: "[") {
                guard let read = readOps(&s, bytes) else { return false }
                ops = read
                members.append((name, .array([])))
            } else {
                guard let value = s.skipValue(), let tree = s.tree(value.range) else { return false }
                if name == "ops" { ops = nil }
                members.append((name, tree))
            }
            return true
        }
        guard readAll else { return nil }
        return (Params(object: JSONObject(members), path: "params"), ops)
    }

    /// The ops of the array at the cursor, or the first failing op's error
    /// (the rest of the array skipped); nil only for bytes that are not
    /// valid JSON.
    private static func readOps(_ s: inout ByteScanner, _ bytes: UnsafeMutableBufferPointer<UInt8>)
    -> Result<[OutlineEditOperation], RPCError>? {
        s.pos += 1  // [
        var ops: [OutlineEditOperation] = []
        var failure: RPCError?
        var isFirst = true
        while true {
            guard let more = s.nextElement(isFirst: isFirst) else { return nil }
            if !more { return failure.map { .failure($0) } ?? .success(ops) }
            isFirst = false
            let start = s.pos
            if failure == nil {
                if let append = readAppendItems(&s, bytes) {
                    ops.append(.op(.appendItems(append.items, toSection: append.section)))
                    continue
                }
                s.pos = start
                if let transform = readPatchContent(&s) {
                    ops.append(.op(.transformContent(transform)))
                    continue
                }
                s.pos = start
            }
            guard let value = s.skipValue() else { return nil }
            guard failure == nil else { continue }
            guard let tree = s.tree(value.range) else { return nil }
            let index = ops.count
            do throws(RPCError) {
                ops.append(try EditCodec.decodeOutlineOp(tree, path: "params.ops[\(index)]"))
            } catch {
                failure = error
            }
        }
    }

    /// A flat `appendItems` op (`op`, `items`, and `section` a string, each
    /// once); nil for any other op.
    private static func readAppendItems(_ s: inout ByteScanner, _ bytes: UnsafeMutableBufferPointer<UInt8>)
    -> (items: [Item], section: String?)? {
        var isAppend = false, section: String?, items: [Item]?
        let read = ByteScanner.readObject(&s) { s, key in
            if s.bytes(key, equal: "op") {
                guard !isAppend, let token = s.stringToken(), !token.escaped,
                      s.bytes(token.inner, equal: "appendItems") else { return false }
                isAppend = true
            } else if s.bytes(key, equal: "section") {
                guard section == nil, let value = s.skipValue(), case .string(let id)? = s.tree(value.range) else { return false }
                section = id
            } else if s.bytes(key, equal: "items") {
                guard items == nil, let read = readItems(&s, bytes) else { return false }
                items = read
            } else {
                return false
            }
            return true
        }
        guard read, isAppend, let items else { return nil }
        return (items, section)
    }

    /// A `patchContent` op (`op`, `id` and `patch`, each once) whose patch
    /// ops are well formed; nil for anything else.
    static func readPatchContent(_ s: inout ByteScanner) -> ContentTransform? {
        var isPatch = false, id: String?, patch: [JSONPatch.Operation]?
        let read = ByteScanner.readObject(&s) { s, key in
            if s.bytes(key, equal: "op") {
                guard !isPatch, let token = s.stringToken(), !token.escaped,
                      s.bytes(token.inner, equal: "patchContent") else { return false }
                isPatch = true
            } else if s.bytes(key, equal: "id") {
                guard id == nil, s.byte(s.pos) == UInt8(ascii: "\""), let token = s.stringToken(),
                      let text = s.string(token) else { return false }
                id = text
            } else if s.bytes(key, equal: "patch") {
                guard patch == nil, let read = readPatchOps(&s) else { return false }
                patch = read
            } else {
                return false
            }
            return true
        }
        guard read, isPatch, let id, let patch else { return nil }
        return EditCodec.patchContent(id: id, patch)
    }

    /// A JSON Patch array whose ops are each well formed, with their
    /// members each once; nil for anything else.
    private static func readPatchOps(_ s: inout ByteScanner) -> [JSONPatch.Operation]? {
        guard s.byte(s.pos) == UInt8(ascii: "[") else { return nil }
        s.pos += 1
        var ops: [JSONPatch.Operation] = []
        var isFirst = true
        while true {
            guard let more = s.nextElement(isFirst: isFirst) else { return nil }
            if !more { return ops }
            isFirst = false
            var name: String?, path: JSONPointer?, from: JSONPointer?, value: JSON?
            let read = ByteScanner.readObject(&s) { s, key in
                if s.bytes(key, equal: "op") {
                    guard name == nil, let token = s.stringToken(), !token.escaped else { return false }
                    name = s.text(token.inner)
                } else if s.bytes(key, equal: "path") || s.bytes(key, equal: "from") {
                    let isPath = s.bytes(key, equal: "path")
                    guard (isPath ? path : from) == nil, s.byte(s.pos) == UInt8(ascii: "\""),
                          let token = s.stringToken(), let text = s.string(token),
                          let pointer = JSONPointer(text) else { return false }
                    if isPath { path = pointer } else { from = pointer }
                } else if s.bytes(key, equal: "value") {
                    guard value == nil, let range = s.skipValue()?.range, let tree = s.tree(range) else { return false }
                    value = tree
                } else {
                    return false
                }
                return true
            }
            guard read, let name, let path else { return nil }
            // Each op with exactly the members it takes (RFC 6902). `.none`
            // spelled out: `JSON` is nil-literal expressible, and a `value`
            // of null is a member all the same.
            switch (name, value, from) {
            case ("add", .some(let value), .none): ops.append(.add(path, value))
            case ("replace", .some(let value), .none): ops.append(.replace(path, value))
            case ("test", .some(let value), .none): ops.append(.test(path, value))
            case ("remove", .none, .none): ops.append(.remove(path))
            case ("move", .none, .some(let from)): ops.append(.move(from: from, to: path))
            case ("copy", .none, .some(let from)): ops.append(.copy(from: from, to: path))
            default: return nil
            }
        }
    }

    /// The items of an array of flat items, in one arena of their size.
    private static func readItems(_ s: inout ByteScanner, _ bytes: UnsafeMutableBufferPointer<UInt8>) -> [Item]? {
        guard s.byte(s.pos) == UInt8(ascii: "[") else { return nil }
        // One arena as large as the rest of the params: more than the
        // array's bytes (usually about all of them), so more than its
        // items' bytes, which are parts of them, without a pass to find
        // where the array ends. Pages it does not fill are never touched.
        let bound = s.end - s.pos
        s.pos += 1
        var arenas = ByteArena.Writer(chunkSize: bound)
        var items: [Item] = []
        var nesting: ApplyScanner.Nesting?
        var released = ReleasedRuns(bytes, mode: .keep)
        let read = ItemList().withRecycler { recycler in
            ApplyScanner.decodeItems(&s, arenas: &arenas, into: &items, nesting: &nesting, parent: -1,
                                     recycler: &recycler, released: &released, checkpoint: { _ in true })
        }
        // Items with `children` or `expanded` make a tree op.
        guard read, nesting == nil else { return nil }
        // The syntax around them (or the ops after them) took a share of the
        // arena: the items are kept in one of their own size (the source
        // holds them long).
        let size = items.reduce(0) { $0 + $1.idByteCount + $1.contentByteCount }
        guard size < bound - bound / 8 else { return items }
        var builder = ByteArena.Builder(chunkSize: size)
        return items.map { $0.rebased(into: &builder) }
    }
}
