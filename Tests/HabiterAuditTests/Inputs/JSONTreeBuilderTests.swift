@testable import AuditInputs
import Testing

/// One builder reused through `takeResult` builds the trees fresh builders build, also after a
/// tree left unfinished.
@Suite struct JSONTreeBuilderTests {
    static let texts = [#"{"id": "a", "customDays": [1, 2, {"x": null}], "source": {"kind": "local"}}"#, #"[true, "s", -1.5e3]"#,
                        #""only a string""#, #"{}"#, #"[[[]], {"k": [{}]}]"#]

    static func read(_ text: String, into builder: inout JSONTreeBuilder) throws {
        var bytes = Array(text.utf8)
        try bytes.withUnsafeMutableBytes { buffer in
            var reader = JSONReader(UnsafeRawBufferPointer(buffer))
            try reader.readText(&builder)
        }
    }

    @Test func reusedBuilderBuildsTheSameTrees() throws {
        var reused = JSONTreeBuilder()
        for text in Self.texts + Self.texts.reversed() {
            var fresh = JSONTreeBuilder()
            try Self.read(text, into: &fresh)
            try Self.read(text, into: &reused)
            let tree = reused.takeResult()
            #expect(tree != nil && tree == fresh.result, "\(text)")
            #expect(reused.result == nil)
        }
    }

    @Test func unfinishedTreeLeavesNothingBehind() throws {
        var builder = JSONTreeBuilder()
        builder.objectStart(at: 0)
        builder.arrayStart(at: 1)
        #expect(builder.takeResult() == nil)
        try Self.read(Self.texts[0], into: &builder)
        var fresh = JSONTreeBuilder()
        try Self.read(Self.texts[0], into: &fresh)
        #expect(builder.takeResult() == fresh.result)
    }
}
