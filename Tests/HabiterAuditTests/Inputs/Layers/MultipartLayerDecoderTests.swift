@testable import AuditInputs
import Testing

@Suite struct MultipartLayerDecoderTests {
    let decoder = MultipartLayerDecoder()
    func pairs(_ text: String) -> [[String]]? { LayerTesting.pairs(decoder, text) }

    /// A body as Chrome sends it: CRLF line breaks, a file part with its own type.
    static let browserBody = "------WebKitFormBoundary7MA4YWxkTrZu0gW\r\n"
        + "Content-Disposition: form-data; name=\"username\"\r\n\r\nmira\r\n"
        + "------WebKitFormBoundary7MA4YWxkTrZu0gW\r\n"
        + "Content-Disposition: form-data; name=\"password\"\r\n\r\nfake-pass-0123\r\n"
        + "------WebKitFormBoundary7MA4YWxkTrZu0gW\r\n"
        + "Content-Disposition: form-data; name=\"backup\"; filename=\"habits.json\"\r\nContent-Type: application/json\r\n\r\n{\"habits\": []}\r\n"
        + "------WebKitFormBoundary7MA4YWxkTrZu0gW--\r\n"

    @Test func browserFormPost() {
        #expect(pairs(Self.browserBody) == [["username", "mira"], ["password", "fake-pass-0123"], ["backup", "{\"habits\": []}"]])
        let layer = LayerTesting.decode(decoder, Self.browserBody)
        #expect(layer?.replacesValue == false)
        #expect(decoder.name == "multipart")
        // Read part by part: no range of the value holds the pairs.
        #expect(LayerTesting.encodedPairsText(decoder, Self.browserBody) == nil)
    }

    @Test(arguments: [
        // LF line breaks, as a tool that rewrote them leaves a body.
        ("--b1\nContent-Disposition: form-data; name=\"token\"\n\nabc\n--b1--\n", [["token", "abc"]]),
        // A token name, parameters in any case, blanks around them, transport padding after a boundary.
        ("--b1  \r\ncontent-disposition:FORM-DATA ;  NAME=token ; x=1\r\n\r\nabc\r\n--b1 \r\nContent-Disposition: form-data; name=\"n2\"\r\n\r\nv2\r\n--b1--",
         [["token", "abc"], ["n2", "v2"]]),
        // A quoted name holding `;` and an escaped quote; `filename` is not the name.
        (#"--b1"# + "\r\nContent-Disposition: form-data; filename=\"a;b.txt\"; name=\"x;y\\\"z\"\r\n\r\ndata\r\n--b1--\r\n", [[#"x;y\"z"#, "data"]]),
        // Empty bodies, a part without a name, and a body starting with the boundary's prefix.
        ("--b1\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n\r\n--b1\r\nContent-Disposition: form-data\r\n\r\nv\r\n--b1\r\nContent-Disposition: form-data; name=\"c\"\r\n\r\n--b1x is not a delimiter\r\n--b1--\r\nepilogue",
         [["a", ""], ["", "v"], ["c", "--b1x is not a delimiter"]]),
        // Lines of a body that are not the delimiter stay in it.
        ("--b1\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nline one\r\n--b2\r\nline three\r\n--b1--\r\n", [["note", "line one\r\n--b2\r\nline three"]]),
        // Cut short: the last part runs to the end, or is cut off in its headers.
        ("--b1\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nfirst\r\n--b1\r\nContent-Disposition: form-data; name=\"b\"\r\n\r\ncut off he",
         [["a", "first"], ["b", "cut off he"]]),
        ("--b1\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nfirst\r\n--b1\r\nContent-Disposition: form-data; name=\"b\"\r\nContent-Ty",
         [["a", "first"], ["b", ""]]),
        // A delimiter at the very end of the value, without its closing `--`.
        ("--b1\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nfirst\r\n--b1", [["a", "first"]]),
    ])
    func accepted(_ body: String, _ expected: [[String]]) {
        #expect(pairs(body) == expected)
    }

    @Test(arguments: [
        "--verbose --password=fake-pass-0123 --output file.txt and more flags",
        "-- an SQL comment\nSELECT * FROM users WHERE password = 'x';\n",
        "--b1\r\nContent-Disposition: attachment; name=\"a\"\r\n\r\nvalue\r\n--b1--\r\n",  // not form-data
        "--b1\r\nContent-Type: text/plain\r\n\r\nvalue\r\n--b1--\r\n",                       // no disposition
        "--b1\r\nX-Content-Disposition: form-data; name=\"a\"\r\n\r\nv\r\n--b1--\r\n",
        "--\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nvalue\r\n----\r\n",           // no boundary
        "--b1;x\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nvalue\r\n--b1;x--\r\n", // not a boundary character
        "--" + String(repeating: "b", count: 71) + "\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nv\r\n",
        "-b1\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nvalue\r\n",
        "\r\n--b1\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nvalue\r\n--b1--\r\n",   // a preamble: not a body as browsers send it
        "",
    ])
    func rejected(_ text: String) {
        #expect(LayerTesting.decode(decoder, text) == nil)
    }

    /// A boundary of 70 characters, the most RFC 2046 allows, is one.
    @Test func longestBoundary() {
        let boundary = String(repeating: "b", count: 70)
        #expect(pairs("--\(boundary)\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nv\r\n--\(boundary)--\r\n") == [["a", "v"]])
    }

    /// The parts are read one at a time from the value, each body a range of it: what the scan
    /// and the redactor both read.
    @Test func partsAreRangesOfTheValue() {
        let body = Array(Self.browserBody.utf8)
        let read = body.withUnsafeBytes { value -> (boundary: String, parts: [MultipartPart])? in
            guard let boundary = MultipartParts.boundary(of: value) else { return nil }
            return (String(decoding: value[boundary], as: UTF8.self), Array(MultipartParts(value, boundary: boundary)))
        }
        #expect(read?.boundary == "----WebKitFormBoundary7MA4YWxkTrZu0gW")
        let parts = read?.parts ?? []
        #expect(parts.map { String(decoding: body[$0.name], as: UTF8.self) } == ["username", "password", "backup"])
        #expect(parts.map { String(decoding: body[$0.body], as: UTF8.self) } == ["mira", "fake-pass-0123", "{\"habits\": []}"])
        #expect(parts.allSatisfy { $0.isFormData })
    }

    /// The pairs' iterator gives what the scan's pass in place gives, and names only where asked.
    @Test func iteratorAgreesWithThePassInPlace() {
        let body = Array(Self.browserBody.utf8)
        let read = body.withUnsafeBytes { value -> (inPlace: [[String]], names: [String?])? in
            guard let layer = (try? decoder.decode(value)) ?? nil, case .pairs(let list) = layer.content else { return nil }
            var inPlace: [[String]] = []
            list.pairs(in: value).forEachInPlace { name, value, _ in
                inPlace.append([String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self)])
            }
            var names: [String?] = []
            var iterator = list.pairs(in: value).makeIterator()
            while let (name, _) = iterator.nextName(decodingOnlyIf: { $0 == UInt8(ascii: "p") }) {
                names.append(name.map { String(decoding: $0, as: UTF8.self) })
            }
            return (inPlace, names)
        }
        #expect(read?.inPlace == pairs(Self.browserBody))
        #expect(read?.names == [nil, "password", nil])
    }
}
