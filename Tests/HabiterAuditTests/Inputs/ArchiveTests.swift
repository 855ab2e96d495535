@testable import AuditCore
@testable import AuditInputs
@testable import AuditRedact
@testable import AuditScan
import Foundation
import Testing

/// ZIP and tar archives: each member is scanned as the file itself would be, under the name
/// `archive!member`; a broken archive or an unreadable member is an error, never a skip.
///
/// The fixtures in `Fixtures/archives` were written by the tools themselves, from
/// `corpus/payload/support-export.json` and `corpus/prefs/FlutterSecureStorage-encrypted-prefs.xml`
/// (the latter under a 142-byte path): Info-ZIP 3.0's `zip -r` (deflate, a directory entry),
/// `zip -fz` (ZIP64 fields in the central directory) and `cat | zip a.zip -` (a ZIP64 end record,
/// the member named `-`); Python 3.11's `zipfile` writing to a pipe (data descriptors) and with
/// bzip2; GNU tar 1.34 with `--format=gnu` (a long name in an `L` header), `--format=pax -z` (pax
/// `x` headers) and `--format=ustar -J` (the name's prefix field).
@Suite struct ArchiveTests {
    static let archives = TestSupport.repoRoot.appendingPathComponent("Tests/HabiterAuditTests/Fixtures/archives")
    static let longPath = "backups/2026-11-30/a-directory-name-long-enough-that-the-path-passes-one-hundred-bytes/shared_prefs/"
    static let export = ("support-export.json", "corpus/payload/support-export.json")
    static let prefs = (longPath + "FlutterSecureStorage-encrypted-prefs.xml", "corpus/prefs/FlutterSecureStorage-encrypted-prefs.xml")

    static let fixtures: [(file: String, format: String, members: [(name: String, source: String)])] = [
        ("info-zip.zip", "zip", [prefs, export]),
        ("forced-zip64.zip", "zip", [export]),
        ("stdin-zip64.zip", "zip", [("-", export.1)]),
        ("python-streamed.zip", "zip", [export]),
        ("python-bzip2.zip", "zip", [export]),
        ("gnu.tar", "tar", [prefs, export]),
        ("pax.tar.gz", "tar+gzip", [prefs, export]),
        ("ustar.tar.xz", "tar+xz", [prefs, export]),
    ]

    /// What a scan reports of an artifact, without its name: findings at their places, errors.
    static func report(_ outcome: ArtifactOutcome) -> [String] {
        outcome.findings.map { "\($0.ruleId) \($0.position.line):\($0.position.column) \($0.pathText) \($0.key ?? "")" }
            + outcome.errors.map { "error \($0.kind) \($0.reason)" }
    }

    static func scan(_ bytes: [UInt8], name: String) -> [ArtifactOutcome] {
        let scanner = Scanner(rules: TestSupport.builtinPack)
        return bytes.withUnsafeBytes { scanner.scan(bytes: $0, name: name) }.expanded
    }

    static func bytes(_ file: String) throws -> [UInt8] {
        Array(try Data(contentsOf: archives.appendingPathComponent(file)))
    }

    @Test(arguments: fixtures.map(\.file))
    func eachToolsArchiveIsScannedMemberByMemberAsTheFilesThemselves(_ file: String) throws {
        let fixture = Self.fixtures.first { $0.file == file }!
        let outcomes = Self.scan(try Self.bytes(file), name: file)
        #expect(outcomes.map(\.summary.name) == [file] + fixture.members.map { "\(file)!\($0.name)" })
        #expect(outcomes[0].summary.format == fixture.format)
        #expect(outcomes[0].errors.isEmpty && outcomes[0].findings.isEmpty)
        for (outcome, member) in zip(outcomes.dropFirst(), fixture.members) {
            let original = Array(try Data(contentsOf: TestSupport.repoRoot.appendingPathComponent(member.source)))
            let alone = Self.scan(original, name: (member.source as NSString).lastPathComponent)
            #expect(Self.report(outcome) == Self.report(alone[0]), "\(outcome.summary.name)")
            #expect(outcome.summary.format == alone[0].summary.format && outcome.summary.byteCount == original.count)
            #expect(!outcome.findings.isEmpty || !outcome.sightings.isEmpty, "the member holds what the corpus file does")
        }
    }

    /// Every cut of a ZIP loses its central directory, and every cut of a tar before its
    /// end-of-archive block loses a header or a member: each is an error, none a clean scan
    /// (once the cut keeps the archive's magic: ZIP's first 4 bytes, the tar's first 262).
    @Test(arguments: ["info-zip.zip", "gnu.tar"])
    func everyCutOfAnArchiveIsAnError(_ file: String) throws {
        let bytes = try Self.bytes(file)
        let endBlock = file.hasSuffix(".tar") ? Self.tarEndBlock(bytes) : bytes.count
        TestSupport.withinSeconds(120) {
            for length in stride(from: file.hasSuffix(".tar") ? 262 : 4, to: endBlock, by: 3) {
                let outcomes = Self.scan(Array(bytes[..<length]), name: "cut-" + file)
                #expect(!outcomes.flatMap(\.errors).isEmpty, "\(file) cut at \(length) scanned without an error")
            }
        }
        // Cut after its end-of-archive block, a tar is whole.
        if endBlock < bytes.count { #expect(Self.scan(Array(bytes[..<(endBlock + 512)]), name: file).flatMap(\.errors).isEmpty) }
    }

    /// The offset of a tar's first zero block.
    static func tarEndBlock(_ bytes: [UInt8]) -> Int {
        var at = 0
        while !bytes[at..<at + 512].allSatisfy({ $0 == 0 }) {
            let size = Int(String(decoding: bytes[at + 124..<at + 135], as: UTF8.self), radix: 8)!
            at += 512 + (size + 511) / 512 * 512
        }
        return at
    }

    @Test func aTarCutInsideAMemberIsOneErrorOnTheMember() throws {
        let bytes = try Self.bytes("gnu.tar")
        let cut = Self.tarEndBlock(bytes) - 600
        let outcomes = Self.scan(Array(bytes[..<cut]), name: "logs.tar")
        #expect(outcomes.flatMap(\.errors).map { "\($0.artifact): \($0.reason)" } == ["logs.tar!support-export.json: the archive ends inside this member"])
    }

    @Test func aBrokenTarHeaderIsAParseErrorAtItsOffset() throws {
        var bytes = try Self.bytes("gnu.tar")
        bytes[5] ^= 0x01
        let errors = Self.scan(bytes, name: "a.tar").flatMap(\.errors)
        #expect(errors.map { "\($0.kind) \($0.position?.byteOffset ?? -1) \($0.reason)" } == ["parse 0 a tar header's checksum does not match"])
    }

    // MARK: ZIP archives built field by field

    /// A member as a ZIP writer lays it out.
    struct ZipMember {
        var name: String
        var content: [UInt8]
        var method: UInt16 = 0
        var flags: UInt16 = 0
        /// The data as stored (the content, compressed by `method`).
        var stored: [UInt8]? = nil
        /// The size the central directory records, when not the content's.
        var recordedSize: Int? = nil
    }

    /// A ZIP archive of `members`, local headers then the central directory; `localOffset`
    /// overrides where an entry's local header is said to be.
    static func zipArchive(_ members: [ZipMember], localOffset: ((Int, Int) -> Int)? = nil) -> [UInt8] {
        func le(_ value: Int, _ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        var out: [UInt8] = []
        var central: [UInt8] = []
        for (index, member) in members.enumerated() {
            let data = member.stored ?? member.content
            let crc = Int(member.content.withUnsafeBytes { Zlib.crc32($0) })
            let fields = le(Int(member.flags), 2) + le(Int(member.method), 2) + le(0, 4) + le(crc, 4) + le(data.count, 4)
                + le(member.recordedSize ?? member.content.count, 4) + le(member.name.utf8.count, 2) + le(0, 2)
            let offset = localOffset?(index, out.count) ?? out.count
            out += [0x50, 0x4B, 0x03, 0x04] + le(20, 2) + fields + Array(member.name.utf8) + data
            central += [0x50, 0x4B, 0x01, 0x02] + le(20, 2) + le(20, 2) + fields + le(0, 2) + le(0, 2) + le(0, 2) + le(0, 4)
                + le(offset, 4) + Array(member.name.utf8)
        }
        let start = out.count
        out += central
        out += [0x50, 0x4B, 0x05, 0x06] + le(0, 4) + le(members.count, 2) + le(members.count, 2) + le(central.count, 4) + le(start, 4) + le(0, 2)
        return out
    }

    static let document = Array(try! Data(contentsOf: TestSupport.repoRoot.appendingPathComponent("corpus/payload/support-export.json")))

    @Test func zstdAndXzMembersAreScannedAndStoredOnesChecked() throws {
        let zstd = try #require(Self.document.withUnsafeBytes(Zstd.compress))
        let xz = try #require(Self.document.withUnsafeBytes(Xz.compress))
        let archive = Self.zipArchive([ZipMember(name: "a.json", content: Self.document),
                                ZipMember(name: "b.json", content: Self.document, method: 93, stored: zstd),
                                ZipMember(name: "c.json", content: Self.document, method: 95, stored: xz)])
        let outcomes = Self.scan(archive, name: "x.zip")
        let alone = Self.report(Self.scan(Self.document, name: "a.json")[0])
        #expect(outcomes.dropFirst().map(Self.report) == [alone, alone, alone])
        // A stored byte changed: the CRC-32 tells.
        var flipped = archive
        flipped[30 + 6 + 100] ^= 0x01
        #expect(Self.scan(flipped, name: "x.zip").flatMap(\.errors).map(\.reason) == ["the member's CRC-32 does not match the one its archive records"])
        // A size the directory gets wrong.
        let lying = Self.zipArchive([ZipMember(name: "a.json", content: Self.document, recordedSize: 100)])
        #expect(Self.scan(lying, name: "x.zip").flatMap(\.errors).map(\.reason) == ["the member holds more than the 100 bytes its archive records"])
    }

    @Test func anEncryptedOrUnknownMethodMemberIsAnErrorAndTheOthersAreScanned() {
        let archive = Self.zipArchive([ZipMember(name: "secret.json", content: Self.document, flags: 1),
                                ZipMember(name: "lzma.json", content: Self.document, method: 14),
                                ZipMember(name: "plain.json", content: Self.document)])
        let outcomes = Self.scan(archive, name: "x.zip")
        #expect(outcomes.flatMap(\.errors).map { "\($0.kind) \($0.artifact): \($0.reason)" } == [
            "read x.zip!secret.json: an encrypted ZIP member cannot be scanned",
            "read x.zip!lzma.json: ZIP compression method 14 (LZMA) is not supported",
        ])
        #expect(!outcomes[3].findings.isEmpty)
    }

    /// David Fifield's non-recursive bomb: many entries whose data is one compressed stream.
    @Test func membersWhoseDataOverlapAreRefused() {
        let archive = Self.zipArchive([ZipMember(name: "a.json", content: Self.document), ZipMember(name: "b.json", content: Self.document)],
                               localOffset: { _, _ in 0 })
        let outcomes = Self.scan(archive, name: "bomb.zip")
        #expect(outcomes.count == 1)
        #expect(outcomes[0].errors.map { "\($0.kind) \($0.reason)" } == ["parse ZIP members overlap (a ZIP bomb, or a broken archive)"])
    }

    @Test func archivesInsideArchivesAreOpenedToADepth() {
        var archive = Self.zipArchive([ZipMember(name: "export.json", content: Self.document)])
        var names = ["export.json"]
        for depth in 2...ArchiveFormat.maxDepth {
            archive = Self.zipArchive([ZipMember(name: "l\(depth).zip", content: archive)])
            names.insert("l\(depth).zip", at: 0)
        }
        let outcomes = Self.scan(archive, name: "top.zip")
        #expect(outcomes.last?.summary.name == "top.zip!" + names.joined(separator: "!"))
        #expect(outcomes.last?.findings.isEmpty == false && outcomes.flatMap(\.errors).isEmpty)
        let deeper = Self.scan(Self.zipArchive([ZipMember(name: "l.zip", content: archive)]), name: "top.zip")
        #expect(deeper.flatMap(\.errors).map { "\($0.kind) \($0.reason)" } == ["limit an archive nested more than 3 deep is not opened"])
    }

    /// A ZIP is read whole; inside another archive, where its size is not the input's, only up
    /// to a limit (`Scanner.nestedZipLimit`, 64 MiB): beyond it, a `limit` error.
    @Test func aZipReadWholeStopsAtItsMemoryLimit() throws {
        let archive = Self.zipArchive([ZipMember(name: "export.json", content: Self.document)])
        let held = UnsafeMutableRawBufferPointer.allocate(byteCount: archive.count, alignment: 1)
        defer { held.deallocate() }
        held.copyBytes(from: archive)
        // Read as a stream, as a member of another archive is.
        func first(_ limit: Int?) -> Result<ArchiveEntry?, ArchiveError> {
            var walk = ArchiveFormat.walk(.zip, ByteWindow(source: BufferSource(UnsafeRawBufferPointer(held), owner: NSObject())), memoryLimit: limit)
            return walk.next()
        }
        guard case .failure(let error) = first(archive.count - 1) else { Issue.record("read past its limit"); return }
        #expect(error.kind == .limit)
        guard case .success(.member(let name, _)?) = first(archive.count) else { Issue.record("not read at its size"); return }
        #expect(name == "export.json")
        #expect(Scanner.nestedZipLimit == 64 << 20)
    }

    @Test func anArchiveIsNoLongerSkippedAndRedactRefusesIt() throws {
        let bytes = try Self.bytes("info-zip.zip")
        #expect(bytes.withUnsafeBytes { FormatDetector.detect(ByteWindow(whole: $0)) } == .success(.archive(.zip)))
        let redactor = Redactor(rules: TestSupport.builtinPack)
        #expect(throws: RedactError.self) { try redactor.redact(bytes, name: "bundle.zip") }
        do {
            _ = try redactor.redact(try Self.bytes("pax.tar.gz"), name: "logs.tar.gz")
        } catch let error as RedactError {
            guard case .input(let errors) = error else { Issue.record("\(error)"); return }
            #expect(errors.map(\.reason) == ["redact does not rewrite tar archives; extract it and redact its members"])
        }
    }

    // MARK: Android backups

    /// `android-backup.ab`, written by `make-android-backup.py` beside it as Android's `adb backup`
    /// writes one: its app's manifest, shared_prefs file and a file under a pax header.
    @Test func anAndroidBackupIsScannedMemberByMember() throws {
        let bytes = try Self.bytes("android-backup.ab")
        let outcomes = Self.scan(bytes, name: "habiter.ab")
        let app = "habiter.ab!apps/com.habiter.app/"
        let outbox = "f/app_flutter/habiter-sync/outbox/" + String(repeating: "pending-operations-", count: 4) + "2025-11-28.ndjson"
        #expect(outcomes.map(\.summary.name) == ["habiter.ab", app + "_manifest", app + "sp/FlutterSharedPreferences.xml", app + outbox])
        #expect(outcomes.map { $0.summary.format ?? "-" } == ["android-backup", "text", "prefs-xml", "ndjson"])
        #expect(outcomes.flatMap(\.errors).isEmpty)
        for (outcome, source) in zip(outcomes.dropFirst(2), ["corpus/prefs/FlutterSharedPreferences.xml", "corpus/sync/oplog-2025-11-28.ndjson"]) {
            let original = Array(try Data(contentsOf: TestSupport.repoRoot.appendingPathComponent(source)))
            let alone = Self.scan(original, name: (source as NSString).lastPathComponent)[0]
            #expect(Self.report(outcome) == Self.report(alone) && !outcome.findings.isEmpty, "\(source)")
        }
        // Not compressed (the header's "0"): the tar follows the header as it is.
        let header = Array("ANDROID BACKUP\n5\n1\nnone\n".utf8)
        let tar = try Array(bytes[header.count...]).withUnsafeBytes { try ContentCoding.deflate.decode($0).get() }
        let plain = Self.scan(Array("ANDROID BACKUP\n5\n0\nnone\n".utf8) + tar, name: "habiter.ab")
        #expect(plain.dropFirst().map(Self.report) == outcomes.dropFirst().map(Self.report))
    }

    @Test func anEncryptedCutOrMalformedAndroidBackupIsAnError() throws {
        let bytes = try Self.bytes("android-backup.ab")
        let encrypted = Array("ANDROID BACKUP\n5\n1\nAES-256\n0A1B2C\n".utf8) + bytes.dropFirst(24)
        #expect(Self.scan(encrypted, name: "a.ab").flatMap(\.errors).map { "\($0.kind) \($0.reason)" }
                == ["read an encrypted Android backup (AES-256) cannot be scanned without its password"])
        for malformed in ["ANDROID BACKUP\n5\n1\n", "ANDROID BACKUP\nfive\n1\nnone\n", "ANDROID BACKUP\n5\n2\nnone\n"] {
            #expect(Self.scan(Array(malformed.utf8), name: "a.ab").flatMap(\.errors).map(\.reason)
                    == ["an Android backup whose header is cut or malformed"], "\(malformed)")
        }
        TestSupport.withinSeconds(60) {
            for length in stride(from: 24, to: bytes.count - 1, by: 7) {
                #expect(!Self.scan(Array(bytes[..<length]), name: "a.ab").flatMap(\.errors).isEmpty, "cut at \(length)")
            }
        }
    }

    /// Android's backup writer sums a tar header into a `uint16_t`: a header whose bytes sum past
    /// 65,535 (a name of many non-ASCII bytes) records the sum's low 16 bits.
    @Test func aTarHeaderWithAndroidsSixteenBitChecksumIsRead() {
        var header = [UInt8](repeating: 0, count: 512)
        let name = Array(String(repeating: "é", count: 40).utf8) + Array(".json".utf8)
        header.replaceSubrange(0..<name.count, with: name)
        header.replaceSubrange(157..<257, with: [UInt8](repeating: 0xFF, count: 100))
        header.replaceSubrange(345..<345 + 150, with: [UInt8](repeating: 0xC3, count: 150))
        header.replaceSubrange(124..<135, with: Array(String(format: "%011o", 2).utf8))
        header[156] = UInt8(ascii: "0")
        header.replaceSubrange(257..<265, with: Array("ustar".utf8) + [0] + Array("00".utf8))
        header.replaceSubrange(148..<156, with: [UInt8](repeating: 0x20, count: 8))
        let sum = header.reduce(0) { $0 + Int($1) }
        #expect(sum > 0xFFFF)
        func tar(checksum: Int) -> [UInt8] {
            var block = header
            block.replaceSubrange(148..<155, with: Array(String(format: "%06o", checksum).utf8) + [0])
            return block + Array("{}".utf8) + [UInt8](repeating: 0, count: 510 + 1024)
        }
        #expect(Self.scan(tar(checksum: sum & 0xFFFF), name: "a.tar").flatMap(\.errors).isEmpty)
        #expect(Self.scan(tar(checksum: (sum + 1) & 0xFFFF), name: "a.tar").flatMap(\.errors).map(\.reason)
                == ["a tar header's checksum does not match"])
    }

    /// `--format github` annotates the archive, which is in the repository, not the member.
    @Test func githubAnnotationsOfAMemberGoOnTheArchive() {
        let path = Self.archives.appendingPathComponent("pax.tar.gz").path
        let run = TestSupport.runCLI(["scan", "--format", "github", "--no-config", path])
        let lines = run.stdout.split(separator: "\n").filter { $0.hasPrefix("::") }
        #expect(!lines.isEmpty && lines.allSatisfy { $0.contains("file=\(path),") && !$0.contains("line=") })
        #expect(lines.contains { $0.contains("::support-export.json:") })
    }

    /// A directory of archives gives the same report for any `--jobs`, members in archive order.
    @Test func theReportDoesNotDependOnJobs() {
        let scanner = Scanner(rules: TestSupport.builtinPack)
        let one = scanner.scan(paths: [Self.archives.path], jobs: 1)
        let three = scanner.scan(paths: [Self.archives.path], jobs: 3)
        #expect(one.artifacts == three.artifacts && one.findings == three.findings && one.errors.isEmpty)
        // The fixtures and their members, the Android backup and its three, the script that writes it.
        #expect(one.artifacts.count == Self.fixtures.count + Self.fixtures.map(\.members.count).reduce(0, +) + 5)
    }
}
