@testable import AuditInputs
import Foundation
import Testing

@Suite struct GzipLayerDecoderTests {
    let decoder = GzipLayerDecoder()
    static let json = Array(#"{"accessToken":"fake-access-token-0123456789","note":"gzip round trip"}"#.utf8)

    @Test func roundTrip() {
        let gzip = LayerTesting.gzip(Self.json)
        let layer = LayerTesting.decode(decoder, gzip)
        #expect(layer?.bytes == Self.json)
        #expect(LayerTesting.isText(layer))
        #expect(layer?.replacesValue == true)
        #expect(decoder.name == "gzip")
        #expect(GzipLayerDecoder.inflate(gzip) == .success(Self.json))
        #expect(GzipLayerDecoder.hasMagic(gzip))
        #expect(!GzipLayerDecoder.hasMagic(Self.json))
    }

    @Test func roundTripThroughTheGzipTool() throws {
        guard FileManager.default.isExecutableFile(atPath: "/bin/gzip") else { return }
        let directory = TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("body.json")
        var text: [UInt8] = []
        for i in 0..<2_000 { text += Array("{\"id\":\(i),\"token\":\"fake-\(i * 7919)\"}\n".utf8) }
        try Data(text).write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-9", "-n", file.path]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        let gzip = try [UInt8](Data(contentsOf: directory.appendingPathComponent("body.json.gz")))
        #expect(LayerTesting.decode(decoder, gzip)?.bytes == text)
    }

    @Test func concatenatedMembersAndTrailingBytes() {
        let first = Array("first member, ".utf8), second = Array("second member".utf8)
        let both = LayerTesting.gzip(first) + LayerTesting.gzip(second)
        #expect(GzipLayerDecoder.inflate(both) == .success(first + second))
        // Zero padding or other bytes after a complete member are ignored, as gzip(1) does.
        #expect(GzipLayerDecoder.inflate(both + [0, 0, 0, 0]) == .success(first + second))
        #expect(GzipLayerDecoder.inflate(both + Array("junk".utf8)) == .success(first + second))
        // But a member that starts and stops is truncated.
        #expect(GzipLayerDecoder.inflate(both + LayerTesting.gzip(first).dropLast(8)) == .failure(.truncated))
    }

    @Test func emptyAndLargeOutputs() {
        #expect(GzipLayerDecoder.inflate(LayerTesting.gzip([])) == .success([]))
        // Output larger than zlib's chunk, at a modest ratio.
        var generator = SeededGenerator(seed: 3)
        let text = (0..<300_000).map { _ in UInt8.random(in: 0x61...0x7A, using: &generator) }
        #expect(GzipLayerDecoder.inflate(LayerTesting.gzip(text)) == .success(text))
    }

    /// Small data is inflated a chunk of 16 times its size at a time (4 KiB at least): output
    /// many chunks long, from compressed data of every size around the chunk's steps, comes out
    /// whole and exact, members one after another too.
    @Test func outputManyChunksLongFromSmallData() {
        var generator = SeededGenerator(seed: 5)
        for size in [1, 40, 255, 256, 257, 1_000, 4_095, 4_096, 4_097, 20_000] {
            // Repeated words compress well: the output is many times the chunk.
            let words = (0..<size).map { _ in UInt8.random(in: 0x61...0x64, using: &generator) }
            let text = Array(words.lazy.map { [$0, 0x20] }.joined().prefix(size * 2)) + Array(repeating: 0x2E, count: size * 60)
            let gzip = LayerTesting.gzip(text)
            #expect(GzipLayerDecoder.inflate(gzip) == .success(text), "\(size)")
            #expect(GzipLayerDecoder.inflate(gzip + gzip) == .success(text + text), "\(size)")
        }
    }

    /// 10 MB of zeros compress to about 10 kB; inflating stops at 200 × that, long before the
    /// whole output exists.
    @Test func gzipBombIsRefusedQuickly() {
        let zeros = [UInt8](repeating: 0, count: 1 << 20)
        let bomb = LayerTesting.gzip(chunks: 10) { _ in zeros }
        #expect(bomb.count < 20_000)
        let clock = ContinuousClock()
        var result: Result<[UInt8], DecompressionError>?
        let elapsed = clock.measure { result = GzipLayerDecoder.inflate(bomb) }
        #expect(result == .failure(.bomb(ratio: 200)))
        #expect(elapsed < .seconds(5))
        #expect(LayerTesting.decode(decoder, bomb) == nil)
        #expect(LayerTesting.refusal(decoder, bomb)?.kind == .limit, "recognised, so refused: never passed over")
        #expect(DecompressionError.bomb(ratio: 200).message == "gzip bomb: decompresses beyond 200× its compressed size")
        // A higher ratio lets it through up to the byte limit.
        #expect(GzipLayerDecoder.inflate(bomb, maxOutput: 1 << 20, maxRatio: 10_000) == .failure(.tooLarge(limit: 1 << 20)))
        #expect(DecompressionError.tooLarge(limit: 1 << 20).message == "gzip data decompresses beyond 1048576 bytes")
        // Exactly at the limit is fine.
        let small = LayerTesting.gzip(zeros)
        #expect(GzipLayerDecoder.inflate(small, maxOutput: 1 << 20, maxRatio: 10_000) == .success(zeros))
    }

    @Test func truncatedStreams() {
        let gzip = LayerTesting.gzip(Self.json)
        for cut in [1, 4, 8, gzip.count / 2, gzip.count - 11] {
            #expect(GzipLayerDecoder.inflate(Array(gzip.dropLast(cut))) == .failure(.truncated), "cut \(cut)")
        }
        #expect(LayerTesting.decode(decoder, Array(gzip.dropLast(4))) == nil)
        #expect(DecompressionError.truncated.message == "truncated gzip stream")
    }

    @Test func corruptStreams() {
        let gzip = LayerTesting.gzip(Self.json)
        var badCRC = gzip
        badCRC[gzip.count - 6] ^= 0xFF
        #expect(GzipLayerDecoder.inflate(badCRC) == .failure(.corrupt(detail: "incorrect data check")))
        var badLength = gzip
        badLength[gzip.count - 2] ^= 0x01
        #expect(GzipLayerDecoder.inflate(badLength) == .failure(.corrupt(detail: "incorrect length check")))
        var badBlock = gzip
        badBlock[10] = 0xFF  // block type 3, reserved
        #expect(GzipLayerDecoder.inflate(badBlock) == .failure(.corrupt(detail: "invalid block type")))
        var badMethod = gzip
        badMethod[2] = 0x07
        #expect(GzipLayerDecoder.inflate(badMethod) == .failure(.corrupt(detail: "unknown compression method")))
        #expect(LayerTesting.decode(decoder, badCRC) == nil)
        #expect(DecompressionError.corrupt(detail: "incorrect data check").message == "corrupt gzip data (incorrect data check)")
        #expect(DecompressionError.corrupt(detail: nil).message == "corrupt gzip data")
    }

    @Test func notGzip() {
        #expect(GzipLayerDecoder.inflate(Self.json) == .failure(.notGzip))
        #expect(GzipLayerDecoder.inflate([0x1F]) == .failure(.notGzip))
        #expect(DecompressionError.notGzip.message == "not gzip data (no 1F 8B magic)")
        #expect(LayerTesting.decode(decoder, Self.json) == nil)
        #expect(LayerTesting.decode(decoder, [0x1F, 0x8B, 0x08]) == nil)
        // Reserved flag bits set: not a gzip header.
        var reserved = LayerTesting.gzip(Self.json)
        reserved[3] = 0x20
        #expect(LayerTesting.decode(decoder, reserved) == nil)
        // A zlib (not gzip) stream is not gzip.
        #expect(LayerTesting.decode(decoder, [0x78, 0x9C] + Array(repeating: 0, count: 30)) == nil)
    }
}
