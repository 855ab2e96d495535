@testable import AuditCore
import Foundation
import TestHelpers
import Testing

/// Numbers taken from the input (lengths, sizes, counts) never trap (issue 18): a length past
/// the end or beyond what an `Int` holds is a `parse` error with its position and exit status 2.
/// The first two cases died with SIGILL (exit 132) on `bodyStart + length - 1`.
@Suite struct InputArithmeticTests {
    static let cases: [(name: String, bytes: [UInt8], error: String)] = [
        ("length.http", Array("HTTP/1.1 200 OK\r\nContent-Length: 9223372036854775807\r\n\r\nx".utf8),
         "length.http:4:2: the body is shorter than its Content-Length"),
        ("chunk.http", Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n7FFFFFFFFFFFFFFF\r\nx\r\n".utf8),
         "chunk.http:6:1: chunk is shorter than its size"),
        ("wide.http", Array("HTTP/1.1 200 OK\r\nContent-Length: 18446744073709551615\r\n\r\nx".utf8),
         "wide.http:2:17: Content-Length is too large to represent"),
        ("wide-chunk.http", Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFFF\r\nx\r\n".utf8),
         "wide-chunk.http:4:1: chunk size is too large to represent"),
        ("float.http", Array("POST /x HTTP/1.1\r\nContent-Length: 1e23\r\n\r\nx".utf8),
         "float.http:2:17: Content-Length is not a decimal number"),
        // A map entry, then a key whose length varint is 2^64 - 1.
        ("huge.preferences_pb", [0x0A, 0x0C, 0x0A, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01, 0x12],
         "huge.preferences_pb:1:4: a length of 18446744073709551615 bytes runs past the end of a preferences map entry (1 left)"),
        ("entry.preferences_pb", [0x0A, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F, 0x0A],
         "entry.preferences_pb:1:2: a length of 9223372036854775807 bytes runs past the end of the input (1 left)"),
    ]

    @Test(arguments: cases.map(\.name))
    func aHugeNumberIsAParseErrorAtItsPosition(_ name: String) throws {
        let testCase = try #require(Self.cases.first { $0.name == name })
        let directory = TestSupport.temporaryDirectory()
        let file = directory.appendingPathComponent(testCase.name)
        try Data(testCase.bytes).write(to: file)
        let result = TestSupport.runCLI(["scan", "--no-config", "--format", "json", file.path])
        #expect(result.status == ExitStatus.inputError)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let errors = try #require(report["errors"] as? [[String: Any]])
        #expect(errors.map { $0["kind"] as? String } == ["parse"])
        let outcome = TestSupport.scan(bytes: testCase.bytes, name: testCase.name)
        #expect(outcome.errors.map(\.description) == [testCase.error])
    }
}
