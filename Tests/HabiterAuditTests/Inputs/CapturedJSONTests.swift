@testable import AuditInputs
import Testing

/// A flat capture holds what a `JSONValue` tree of the same text holds, built from the reader's
/// events as the contract checks build it (keys and strings unescaped first), by one builder
/// reused from tree to tree, past the room it starts with.
@Suite struct CapturedJSONTests {
    /// Forwards the reader's events to a builder, as `ContractDrafts` does.
    struct Capture: JSONVisitor {
        var builder: CapturedJSON.Builder

        mutating func objectStart(at offset: Int) { builder.containerStart(isObject: true, at: offset) }
        mutating func objectEnd(at offset: Int) { builder.containerEnd() }
        mutating func arrayStart(at offset: Int) { builder.containerStart(isObject: false, at: offset) }
        mutating func arrayEnd(at offset: Int) { builder.containerEnd() }
        mutating func key(_ raw: UnsafeBufferPointer<UInt8>, escaped: Bool, at offset: Int) {
            unescaped(raw, escaped) { builder.key($0, at: offset) }
        }
        mutating func string(_ raw: UnsafeBufferPointer<UInt8>, escaped: Bool, at offset: Int) {
            unescaped(raw, escaped) { builder.scalar(.string, $0, at: offset) }
        }
        mutating func number(_ raw: UnsafeBufferPointer<UInt8>, at offset: Int) { builder.scalar(.number, raw, at: offset) }
        mutating func literal(_ value: JSONLiteral, at offset: Int) { builder.literal(value, at: offset) }

        private func unescaped(_ raw: UnsafeBufferPointer<UInt8>, _ escaped: Bool, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
            guard escaped else { return body(raw) }
            JSONString.unescaped(raw).withUnsafeBufferPointer(body)
        }
    }

    static let texts = [#"{"id": "a", "customDays": [1, 2, {"x": null}], "source": {"kind": "local"}}"#, #"[true, "s", -1.5e3]"#,
                        #""only a string""#, #"{}"#, #"[[[]], {"k": [{}]}]"#, #"{"k\u00e9y": "caf\u00e9 \"q\"", "": "", "k": 1, "k": 2}"#,
                        // Past the builder's first room: many entries, long text, deep nesting.
                        "[" + (0..<300).map { #"{"n\#($0)": \#($0)}"# }.joined(separator: ",") + "]",
                        #"{"long": ""# + String(repeating: "x", count: 5000) + #"", "after": true}"#,
                        String(repeating: "[", count: 70) + "1" + String(repeating: "]", count: 70),
                        // Far larger than a payload: the tree takes the builder's memory, which starts again.
                        "[" + (0..<5000).map(String.init).joined(separator: ",") + "]",
                        #"["# + String(repeating: #""0123456789", "#, count: 7000) + #""end"]"#]

    static func capture(_ text: String, with builder: CapturedJSON.Builder, reusing spares: CapturedJSON.SpareStorages? = nil) throws -> CapturedJSON? {
        var visitor = Capture(builder: builder)
        var bytes = Array(text.utf8)
        try bytes.withUnsafeMutableBytes { buffer in
            var reader = JSONReader(UnsafeRawBufferPointer(buffer), maxDepth: 100)
            try reader.readText(&visitor)
        }
        return visitor.builder.takeResult(reusing: spares)
    }

    /// The whole tree as a `JSONValue`, read through its view.
    static func node(_ tree: CapturedJSON) -> JSONValue.Node {
        tree.withView { $0.jsonNode($0.root) }
    }

    @Test func holdsWhatTheParsedTreeHolds() throws {
        let builder = CapturedJSON.Builder()
        for text in Self.texts + Self.texts.reversed() {
            let parsed = try JSONValue.parse(Array(text.utf8), maxDepth: 100)
            let tree = try #require(try Self.capture(text, with: builder), "\(text.prefix(40))")
            #expect(Self.node(tree) == parsed, "\(text.prefix(40))")
            // The converse: a parsed tree made flat.
            let flat = CapturedJSON(parsed)
            #expect(Self.node(flat) == parsed, "\(text.prefix(40))")
        }
    }

    @Test func readsMembersAsParsersDo() throws {
        let captured = try #require(try Self.capture(Self.texts[5], with: CapturedJSON.Builder()))
        try captured.withView { tree in try readMembers(of: tree) }
        // A member's own members are not the object's: the look-up passes over them.
        let captureNested = try #require(try Self.capture(#"{"a": {"k": 1, "b": [{"k": 2}]}, "b": 3, "c": {"k": 4}}"#, with: CapturedJSON.Builder()))
        try captureNested.withView { nested in
            #expect(nested.member("k", of: nested.root) == nil)
            let b = try #require(nested.member("b", of: nested.root))
            #expect(nested.withText(b) { Array($0) } == Array("3".utf8))
            let c = try #require(nested.member("c", of: nested.root))
            #expect(nested.member("k", of: c).map { i in nested.withText(i) { Array($0) } } == Array("4".utf8))
        }
    }

    private func readMembers(of tree: CapturedJSON.View) throws {
        let root = tree.root
        #expect(tree.kind(root) == .object && tree.count(root) == 4)
        // The last of two members of one name, as `JSONValue`'s subscript reads it.
        let k = try #require(tree.member("k", of: root))
        #expect(tree.kind(k) == .number && tree.withText(k) { Array($0) } == Array("2".utf8))
        let first = try #require(tree.children(root).first { _ in true })
        #expect(tree.key(first) == "k\u{e9}y" && tree.keyIs(first, "k\u{e9}y") && !tree.keyIs(first, "key"))
        #expect(tree.isString(first, "caf\u{e9} \"q\"") && !tree.isString(first, "cafe\u{301} \"q\""))
        #expect(tree.isMember(first) && !tree.isMember(root))
        #expect(tree.member("missing", of: root) == nil && tree.member("k", of: k) == nil)
        #expect(tree.descendants(root).count == 4 && tree.keyOffset(first) == 1)
    }

    /// `allChildren` reads what `children`, `kind` and `withText` read, in order, and stops at
    /// the first element the predicate refuses.
    @Test func allChildrenReadsWhatChildrenRead() throws {
        let builder = CapturedJSON.Builder()
        for text in Self.texts {
            let captured = try #require(try Self.capture(text, with: builder), "\(text.prefix(40))")
            let tree = captured.view
            defer { withExtendedLifetime(captured) {} }
            for i in [tree.root] + Array(tree.descendants(tree.root)) where tree.isContainer(i) {
                let expected = tree.children(i).map { (tree.kind($0), tree.withText($0) { Array($0) }) }
                var seen: [(CapturedJSON.Kind, [UInt8])] = []
                #expect(tree.allChildren(of: i) { seen.append(($0, Array($1))); return true })
                #expect(seen.map(\.0) == expected.map(\.0) && seen.map(\.1) == expected.map(\.1), "\(text.prefix(40))")
                guard !expected.isEmpty else { continue }
                let refused = expected.count / 2
                var calls = 0
                #expect(!tree.allChildren(of: i) { _, _ in calls += 1; return calls <= refused })
                #expect(calls == refused + 1)
            }
        }
    }

    /// The size the capture limit's memory is reckoned with (`CapturedJSON.Entry`'s doc).
    @Test func anEntryTakes32Bytes() {
        #expect(MemoryLayout<CapturedJSON.Entry>.stride == 32)
    }

    /// A tree far larger than a payload is built in the builder's own blocks; dropped, it gives
    /// them back, and the next large tree grows into them (not into fresh memory). A tree still
    /// held keeps its blocks: the one built meanwhile gets new ones.
    @Test func aLargeTreeGivesItsBlocksBackWhenDropped() throws {
        let builder = CapturedJSON.Builder()
        let large = { (n: Int) in "[" + (0..<n).map { #"{"k\#($0)": "v\#($0)"}"# }.joined(separator: ",") + "]" }
        var first = try #require(try Self.capture(large(6000), with: builder))
        let firstBlocks = (first.storage.entries, first.storage.bytes)
        #expect(Self.node(first) == (try JSONValue.parse(Array(large(6000).utf8), maxDepth: 100)))
        first = try #require(try Self.capture("[1]", with: builder))
        let second = try #require(try Self.capture(large(5500), with: builder))
        #expect(second.storage.entries == firstBlocks.0 && second.storage.bytes == firstBlocks.1, "grown into the blocks given back")
        let third = try #require(try Self.capture(large(5000), with: builder))
        #expect(third.storage.entries != second.storage.entries, "the blocks of a tree still held are its own")
        #expect(Self.node(second) == (try JSONValue.parse(Array(large(5500).utf8), maxDepth: 100)))
        #expect(Self.node(third) == (try JSONValue.parse(Array(large(5000).utf8), maxDepth: 100)))
        #expect(Self.node(first) == (try JSONValue.parse(Array("[1]".utf8), maxDepth: 100)))
    }

    /// A tree given back once its holder is done with it (`CapturedJSON.giveBack`) takes the
    /// next tree's copy; a tree held elsewhere too is not given back, and keeps what it holds.
    @Test func aTreeGivenBackTakesTheNextOnesCopy() throws {
        let builder = CapturedJSON.Builder()
        let spares = CapturedJSON.SpareStorages()
        var given = try Self.capture(#"{"a": [1, "b"]}"#, with: builder, reusing: spares)
        CapturedJSON.giveBack(&given, to: spares)
        #expect(given == nil && spares.count == 1)
        let next = try #require(try Self.capture(#"{"c": "d", "e": {"f": null}}"#, with: builder, reusing: spares))
        #expect(spares.count == 0, "copied into the storage given back")
        #expect(Self.node(next) == (try JSONValue.parse(Array(#"{"c": "d", "e": {"f": null}}"#.utf8), maxDepth: 100)))

        var shared: CapturedJSON? = next
        CapturedJSON.giveBack(&shared, to: spares)
        #expect(shared == nil && spares.count == 0, "a tree still held elsewhere is not given back")
        let other = try #require(try Self.capture("[true]", with: builder, reusing: spares))
        #expect(other.storage !== next.storage)
        #expect(Self.node(next) == (try JSONValue.parse(Array(#"{"c": "d", "e": {"f": null}}"#.utf8), maxDepth: 100)))

        // Every text, each tree given back but every third, which is held: all read as parsed,
        // whatever storage they were copied into (large trees are lent, never given back).
        var held: [(CapturedJSON, String)] = []
        for (i, text) in (Self.texts + Self.texts.reversed()).enumerated() {
            var tree = try Self.capture(text, with: builder, reusing: spares)
            if i % 3 == 0 { held.append((try #require(tree), text)) }
            CapturedJSON.giveBack(&tree, to: spares)
        }
        for (tree, text) in held {
            #expect(Self.node(tree) == (try JSONValue.parse(Array(text.utf8), maxDepth: 100)), "\(text.prefix(40))")
        }
    }

    @Test func anUnfinishedTreeIsNotTaken() throws {
        var builder = CapturedJSON.Builder()
        builder.containerStart(isObject: true, at: 0)
        builder.containerStart(isObject: false, at: 1)
        #expect(builder.takeResult() == nil)
        #expect(!builder.isComplete)
    }
}
