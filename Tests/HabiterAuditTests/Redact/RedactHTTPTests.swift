@testable import AuditInputs
@testable import AuditRedact
import Foundation
import Testing

private typealias F = RedactFixtures

/// Decodes a chunked body at the start of `text`; nil when the framing is invalid.
private func dechunk(_ text: [UInt8]) -> (body: [UInt8], sizes: [Int])? {
    var i = 0
    var body: [UInt8] = []
    var sizes: [Int] = []
    while true {
        guard let lf = text[i...].firstIndex(of: 0x0A), lf > i, text[lf - 1] == 0x0D else { return nil }
        guard let size = Int(String(decoding: text[i..<(lf - 1)], as: UTF8.self), radix: 16) else { return nil }
        i = lf + 1
        if size == 0 { return text[i...].starts(with: [0x0D, 0x0A]) ? (body, sizes) : nil }
        guard i + size + 2 <= text.count, text[i + size] == 0x0D, text[i + size + 1] == 0x0A else { return nil }
        body += text[i..<i + size]
        sizes.append(size)
        i += size + 2
    }
}

/// Splits a raw HTTP message at its first blank line.
private func split(_ message: [UInt8]) -> (head: String, body: [UInt8])? {
    guard let blank = message.firstRange(of: Array("\r\n\r\n".utf8)) else { return nil }
    return (String(decoding: message[..<blank.lowerBound], as: UTF8.self), Array(message[blank.upperBound...]))
}

/// Raw HTTP keeps its framing: Content-Length follows a changed body, a chunked body stays
/// valid chunked encoding, header values and request targets are rewritten where they stand.
@Suite struct RedactHTTPTests {
    @Test func contentLengthFollowsTheRedactedBody() throws {
        let body = #"{"operations": [{"document": {"payload": {"note": "key id \#(F.aws) for the backup"}}}]}"#
        let input = "POST /v1/sync/push HTTP/1.1\r\nHost: sync.example.com\r\nAuthorization: Bearer \(F.jwt)\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
        let result = try F.redact(input, name: "push.txt")
        #expect(result.format == "http")
        let message = try #require(split(result.output))
        let newBody = #"{"operations": [{"document": {"payload": {"note": "key id [REDACTED:aws-access-key-id] for the backup"}}}]}"#
        expectText(message.body, equals: newBody, "the body")
        expectText(message.head, equals: "POST /v1/sync/push HTTP/1.1\r\nHost: sync.example.com\r\nAuthorization: Bearer [REDACTED:jwt]\r\nContent-Type: application/json\r\nContent-Length: \(newBody.utf8.count)", "the head")
        expectClean(result, leaking: [F.aws, F.jwt])
    }

    /// A body coded deflate is inflated, redacted and compressed again as it came (zlib or
    /// raw deflate), its Content-Length following.
    @Test(arguments: [Zlib.Wrapper.zlib, .raw])
    func aDeflateBodyIsCompressedAgainAsItCame(_ wrapper: Zlib.Wrapper) throws {
        let json = Array(#"{"access_token": "\#(F.github)"}"#.utf8)
        var compressed: [UInt8] = []
        #expect(json.withUnsafeBytes { Zlib.Deflater(wrapper).compress($0, final: true, onto: &compressed) })
        let input = Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: deflate\r\nContent-Length: \(compressed.count)\r\n\r\n".utf8) + compressed
        let result = try F.redact(input, name: "token.http")
        let message = try #require(split(result.output))
        #expect(message.head.hasSuffix("Content-Length: \(message.body.count)"))
        #expect(DeflateLayerDecoder.hasZlibHeader(message.body) == (wrapper == .zlib))
        // Compared first, so that a failure prints no secret.
        let redactedInside = DeflateLayerDecoder.inflate(message.body) == .success(Array(#"{"access_token": "[REDACTED:github-token]"}"#.utf8))
        #expect(redactedInside, "the inflated body is not the redacted JSON")
        expectClean(result, leaking: [F.github])
    }

    @Test func aMessageAfterAContentLengthBodyStillReads() throws {
        // Two exchanges in one file: the second starts where the corrected length says.
        let body = #"{"description": "\#(F.stripe)"}"#
        let first = "POST /a HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
        let input = first + "\r\n\r\n###\r\n\r\nGET /b?access_token=oQJyIjjetuB3xuiW3FFlnKTsSUsKnXazSnmnCDBp HTTP/1.1\r\nHost: example.com\r\n"
        let result = try F.redact(input, name: "two.http")
        expectHolds(result.output, "GET /b?access_token=%5BREDACTED%3Atoken%5D HTTP/1.1\r\n")
        let redactedBody = #"{"description": "[REDACTED:stripe-secret-key]"}"#
        expectHolds(result.output, "Content-Length: \(redactedBody.utf8.count)\r\n\r\n\(redactedBody)")
        expectClean(result, leaking: [F.stripe, "oQJyIjjetuB3xuiW3FFlnKTsSUsKnXazSnmnCDBp"])
    }

    @Test func aChunkedBodyStaysValidChunkedEncoding() throws {
        // The secret straddles the two chunks.
        let json = ##"{"changes": [{"document": {"payload": {"description": "payouts need \##(F.stripe) (read-only)", "color": "#FF9800"}}}]}"##
        let bytes = Array(json.utf8)
        let cut = json.utf8.count / 2 + 8
        let chunks = [bytes[..<cut], bytes[cut...]]
        var body = ""
        for chunk in chunks { body += String(chunk.count, radix: 16) + "\r\n" + String(decoding: chunk, as: UTF8.self) + "\r\n" }
        body += "0\r\n\r\n"
        let input = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n" + body
        let result = try F.redact(input, name: "pull-chunked.txt")
        let message = try #require(split(result.output))
        expectText(message.head, equals: "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked", "the head")
        let decoded = try #require(dechunk(message.body), "the body is no longer valid chunked encoding")
        expectText(decoded.body, equals: json.replacingOccurrences(of: F.stripe, with: "[REDACTED:stripe-secret-key]"), "the body")
        #expect(decoded.sizes.count == 2)
        expectClean(result, leaking: [F.stripe])
    }

    @Test func chunkBoundariesOutsideTheChangeStay() {
        let old = Array("aaaaSECRETbbbbcccc".utf8)
        let new = Array("aaaa[X]bbbbcccc".utf8)
        let framed = Array("2\r\naa\r\n4\r\naaSE\r\n8\r\nCRETbbbb\r\n4\r\ncccc\r\n0\r\n\r\n".utf8)
        let chunked = framed.withUnsafeBufferPointer { ChunkedBody($0, at: 0) }
        #expect(chunked?.boundaries == [2, 6, 14, 18])
        #expect(chunked?.lastChunkStart == framed.count - 5)
        let written = chunked.map { String(decoding: $0.reencode(old: old, new: new), as: UTF8.self) }
        #expect(written == "2\r\naa\r\n5\r\naa[X]\r\n4\r\nbbbb\r\n4\r\ncccc\r\n")
    }

    @Test func aFoldedHeaderIsWrittenBackOnOneLine() throws {
        let input = "GET /x HTTP/1.1\r\nHost: example.com\r\nAuthorization: Bearer\r\n \(F.jwt)\r\nAccept: */*\r\n\r\n"
        let result = try F.redact(input, name: "folded.http")
        expectText(result.output, equals: "GET /x HTTP/1.1\r\nHost: example.com\r\nAuthorization: Bearer [REDACTED:jwt]\r\nAccept: */*\r\n\r\n")
        expectClean(result, leaking: [F.jwt])
    }

    @Test func curlVerboseDumpsKeepTheirPrefixesAndNotes() throws {
        let body = #"{"changes": [{"document": {"payload": {"value": "\#(F.google)"}}}]}"#
        let input = """
        * Connected to sync.example.com (203.0.113.7) port 443
        * [HTTP/2] [1] [authorization: Bearer \(F.jwt)]
        > GET /v1/sync/pull HTTP/2
        > Host: sync.example.com
        > Authorization: Bearer \(F.jwt)
        >
        < HTTP/2 200
        < content-type: application/json
        < content-length: \(body.utf8.count)
        <
        \(body)
        * Connection #0 left intact

        """
        let result = try F.redact(input, name: "curl.txt")
        let text = F.text(result)
        expectHolds(text, "* [HTTP/2] [1] [authorization: Bearer [REDACTED:jwt]]\n")
        expectHolds(text, "> Authorization: Bearer [REDACTED:jwt]\n")
        let newBody = #"{"changes": [{"document": {"payload": {"value": "[REDACTED:google-api-key]"}}}]}"#
        expectHolds(text, "< content-length: \(newBody.utf8.count)\n<\n\(newBody)\n")
        expectClean(result, leaking: [F.jwt, F.google])
    }

    @Test func everyTextPlaceIsRewrittenWhereItStands() throws {
        let input = "### deploy with \(F.stripe)\n@key = \(F.aws)\nGET /x HTTP/1.1\n\(F.github): 1\n\n"
            + "HTTP/1.1 403 \(F.github2)\nTransfer-Encoding: chunked\n\n3;sig=\(F.google)\nabc\n0\nX-Trace: \(F.slack)\n\n"
        let result = try F.redact(input, name: "places.http")
        expectText(result.output, equals: "### deploy with [REDACTED:stripe-secret-key]\n@key = [REDACTED:aws-access-key-id]\nGET /x HTTP/1.1\n"
                   + "-REDACTED-github-token-: 1\n\nHTTP/1.1 403 [REDACTED:github-token]\nTransfer-Encoding: chunked\n\n"
                   + "3;sig=[REDACTED:google-api-key]\nabc\n0\nX-Trace: [REDACTED:slack-token]\n\n")
        expectClean(result, leaking: [F.stripe, F.aws, F.github, F.github2, F.google, F.slack])
    }

    /// Burp Suite's export: each message is rewritten as raw HTTP (a changed body's
    /// Content-Length corrected) and base64-encoded again; the rest of the file is kept byte for
    /// byte. The fixture is a real capture's calls as Burp writes them (`Fixtures/burp`).
    @Test func aBurpExportsMessagesAreRewrittenAndEncodedAgain() throws {
        let url = TestSupport.repoRoot.appendingPathComponent("Tests/HabiterAuditTests/Fixtures/burp/proxy-capture-burp.xml")
        let input = Array(try Data(contentsOf: url))
        let result = try F.redact(input, name: "proxy-capture-burp.xml")
        #expect(result.format == "xml")
        let github = "ghp_" + "Wd4Hs8Bf2Jg6Ua0EiZ3Qk7vTLm9Xc2Vb5Nz1", slack = "xoxb-" + "123456789012-1234567890123-" + "AbCdEfGhIjKlMnOpQrStUvWx"
        // The secrets are inside base64: decoded, no message holds one.
        let messages = String(decoding: result.output, as: UTF8.self).split(separator: "\n").compactMap { line -> [UInt8]? in
            guard line.contains("base64=\"true\">"), let start = line.firstIndex(of: ">"), let end = line.lastIndex(of: "<") else { return nil }
            return Data(base64Encoded: String(line[line.index(after: start)..<end]).replacingOccurrences(of: "<![CDATA[", with: "").replacingOccurrences(of: "]]>", with: "")).map(Array.init)
        }
        #expect(messages.count == 6)
        #expect(!messages.contains { F.holds($0, github) || F.holds($0, slack) || F.holds($0, "client_secret=Qz") })
        #expect(messages.contains { F.holds($0, "Authorization: Bearer [REDACTED:github-token]") })
        // Up to the first message, the file is as it was.
        let head = input.firstRange(of: Array("<request".utf8))!.lowerBound
        #expect(result.output.starts(with: input[..<head]))
        expectClean(result, leaking: [github, slack])
    }

    /// An HTTP message held in a string is rewritten as raw HTTP, inside its string.
    @Test func anHTTPMessageInAStringIsRewrittenInPlace() throws {
        let input = #"{"raw": "GET /v1/pull HTTP/1.1\r\nHost: sync.example.com\r\nX-Api-Key: \#(F.stripe)\r\n\r\n", "n": 1}"#
        let result = try F.redact(input, name: "ticket.json")
        expectText(F.text(result), equals: #"{"raw": "GET /v1/pull HTTP/1.1\r\nHost: sync.example.com\r\nX-Api-Key: [REDACTED:stripe-secret-key]\r\n\r\n", "n": 1}"#, "the copy")
        expectClean(result, leaking: [F.stripe])
    }
}
