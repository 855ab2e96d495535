@testable import AuditInputs
@testable import AuditRedact
import Testing

/// The one wrapper around zlib: CRC-32 against its check value, and what the deflater writes
/// inflated back, whole and in chunks, raw and with the gzip wrapper.
@Suite struct ZlibTests {
    @Test func crc32HasTheCheckValueOfISO3309() {
        #expect(Array("123456789".utf8).withUnsafeBytes { Zlib.crc32($0) } == 0xCBF4_3926)
        #expect([UInt8]().withUnsafeBytes { Zlib.crc32($0) } == 0)
    }

    @Test(arguments: [1, 3, 40])
    func gzipOfChunksInflatesToTheirConcatenation(_ chunks: Int) throws {
        var rng = SeededGenerator(seed: UInt64(chunks))
        let parts = (0..<chunks).map { i in (0..<(1_000 * i + 17)).map { _ in UInt8(truncatingIfNeeded: rng.next() % 7) } }
        let gzip = LayerTesting.gzip(chunks: chunks) { parts[$0] }
        let roundTrips = GzipLayerDecoder.inflate(gzip) == .success(parts.flatMap { $0 })
        #expect(roundTrips)
    }

    @Test func aRawDeflateMemberWithItsHeaderAndTrailerInflates() throws {
        var rng = SeededGenerator(seed: 5)
        let words = ["habit ", "entry ", "streak ", "note "]
        let content = Array((0..<20_000).map { _ in words[Int(rng.next() % 4)] }.joined().utf8)
        let member = try #require(GzipEncoder.compress(content, headerFrom: []))
        #expect(member.count < content.count / 3)
        let roundTrips = GzipLayerDecoder.inflate(member) == .success(content)
        #expect(roundTrips)
    }

    @Test func anInflaterWithoutInputMakesNoProgress() {
        let inflater = Zlib.Inflater(.gzip)
        #expect(inflater.setupFailure == nil)
        var room = [UInt8](repeating: 0, count: 16)
        let (status, produced) = room.withUnsafeMutableBytes { inflater.inflate(into: $0) }
        #expect(status == .noProgress && produced == 0)
    }
}
