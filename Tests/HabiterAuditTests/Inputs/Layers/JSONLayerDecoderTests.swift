@testable import AuditInputs
import Testing

@Suite struct JSONLayerDecoderTests {
    let decoder = JSONLayerDecoder()

    @Test(arguments: [
        #"{"a": 1}"#, "{}", "{ }", "  {\n\"a\": 1}", "[]", "[ ]", "[1]", "[-1]", #"[ "x" ]"#, "[true]", "[false]", "[null]",
        "[{}]", "[[1]]", #"{"a": 1} trailing"#, "[1, 2",
    ])
    func offeredToTheReader(_ text: String) {
        // Whether it is JSON is the reader's to say: the decoder only turns away what cannot be.
        #expect(LayerTesting.isValueJSON(LayerTesting.decode(decoder, text)))
    }

    @Test(arguments: [
        "{{token}}", "{{ token }}", "{name}", "{ name }", "[REDACTED]", "[redacted:github-token]", "[x]", "{", "[", "  [  ",
        "{'a': 1}", "[+1]", "[.5]", "plain text", "", "  ",
    ])
    func turnedAway(_ text: String) {
        #expect(LayerTesting.decode(decoder, text) == nil)
    }

    @Test func everyTurnedAwayValueFailsTheReaderToo() {
        // The early rejection changes no result: the reader refuses each of these as well.
        for text in ["{{token}}", "{name}", "[REDACTED]", "[x]", "{'a': 1}", "[+1]", "[.5]"] {
            #expect(throws: JSONSyntaxError.self) { try JSONValue.parse(Array(text.utf8), maxDepth: 16) }
        }
    }
}
