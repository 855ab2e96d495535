/// A ZIP archive (PKWARE's APPNOTE 6.3.10), read whole and walked by its central directory, the
/// listing unzip and every peer trust: members in the order listed, ZIP64 sizes and offsets,
/// names in UTF-8. A member's data is found through its local header, decompressed (stored,
/// deflate, bzip2, zstd, xz) and checked against the listed size and CRC-32.
///
/// Refused, as `parse` errors of the archive: a listing that is cut, lies outside the archive or
/// spans disks, and members whose data overlap (the non-recursive ZIP bomb, many entries over
/// one compressed stream). Encrypted members and other methods are errors of the member.
struct ZipArchive: ArchiveWalk {
    private let window: ByteWindow
    private let memoryLimit: Int?
    private var members: [Member] = []
    private var nextMember = 0
    /// The listing is read at the first `next()`.
    private var listed = false

    /// What the central directory says of a member.
    private struct Member {
        var name: String
        var flags: UInt16
        var method: UInt16
        var crc: UInt32
        var compressedSize: Int
        var size: Int
        var localHeader: Int
        /// Where its data starts, once its local header is read.
        var dataStart = 0
    }

    init(_ window: ByteWindow, memoryLimit: Int?) {
        self.window = window
        self.memoryLimit = memoryLimit
    }

    mutating func next() -> Result<ArchiveEntry?, ArchiveError> {
        if !listed {
            listed = true
            if let error = readListing() { return .failure(error) }
        }
        guard nextMember < members.count else { return .success(nil) }
        let member = members[nextMember]
        nextMember += 1
        if member.flags & 1 != 0 { return .success(.unreadable(name: member.name, reason: "an encrypted ZIP member cannot be scanned")) }
        let data = UnsafeRawBufferPointer(start: window.base + member.dataStart, count: member.compressedSize)
        let compressed = BufferSource(data, owner: window)
        let content: any ByteSource
        switch member.method {
        case 0:
            content = compressed
        case 8:
            content = DecompressingSource(inner: compressed, decompressor: Zlib.Inflater(.raw), name: "deflate", allowsMembers: false)
        case 12:
            content = DecompressingSource(inner: compressed, decompressor: Bzip2.Decompressor(), name: "bzip2", allowsMembers: false)
        case 93:
            content = DecompressingSource(inner: compressed, decompressor: Zstd.Decompressor(), name: "zstd", allowsMembers: true)
        case 95:
            content = DecompressingSource(inner: compressed, decompressor: Xz.Decompressor(), name: "xz", allowsMembers: true)
        default:
            return .success(.unreadable(name: member.name, reason: "ZIP compression method \(member.method)\(Self.methodNames[member.method].map { " (\($0))" } ?? "") is not supported"))
        }
        return .success(.member(name: member.name, window: ByteWindow(source: CheckedMemberSource(content, size: member.size, crc: member.crc))))
    }

    private static let methodNames: [UInt16: String] = [1: "shrink", 6: "implode", 9: "deflate64", 14: "LZMA", 98: "PPMd", 99: "AES encryption"]

    /// Reads the archive whole and its central directory; nil when both are sound.
    private mutating func readListing() -> ArchiveError? {
        if let memoryLimit {
            while window.count <= memoryLimit && window.extend(keeping: 0) {}
            if window.count > memoryLimit {
                return ArchiveError(kind: .limit, reason: "a ZIP archive inside another larger than \(memoryLimit >> 20) MiB is not read", offset: nil)
            }
        } else {
            _ = window.readWhole()
        }
        if let failure = window.failure { return ArchiveError(kind: .read, reason: failure, offset: nil) }
        let bytes = UnsafeRawBufferPointer(start: window.base, count: window.count)
        guard let end = Self.endRecord(in: bytes) else {
            return ArchiveError(kind: .parse, reason: "a ZIP archive without its end of central directory record (cut short?)", offset: bytes.count)
        }
        let cursor = ZipCursor(bytes)
        guard cursor.u16(end + 4) == 0, cursor.u16(end + 6) == 0 else {
            return ArchiveError(kind: .parse, reason: "a ZIP archive split over several disks is not supported", offset: end)
        }
        var count = Int(cursor.u16(end + 10))
        var listingSize = Int(cursor.u32(end + 12))
        var listingStart = Int(cursor.u32(end + 16))
        if count == 0xFFFF || listingSize == 0xFFFF_FFFF || listingStart == 0xFFFF_FFFF {
            // ZIP64: a locator just before the end record points at the ZIP64 end record.
            guard end >= 20, cursor.u32(end - 20) == 0x0706_4B50, let record = cursor.offset(at: end - 12),
                  end >= 56, record <= end - 56, cursor.u32(record) == 0x0606_4B50,
                  let count64 = cursor.offset(at: record + 32), let size64 = cursor.offset(at: record + 40),
                  let start64 = cursor.offset(at: record + 48) else {
                return ArchiveError(kind: .parse, reason: "a ZIP64 archive whose ZIP64 end record cannot be found", offset: end)
            }
            (count, listingSize, listingStart) = (count64, size64, start64)
        }
        guard listingStart <= bytes.count, listingSize <= bytes.count - listingStart else {
            return ArchiveError(kind: .parse, reason: "the ZIP central directory lies outside the archive", offset: end)
        }
        var at = listingStart
        members.reserveCapacity(min(count, listingSize / 46))
        for _ in 0..<count {
            guard at + 46 <= listingStart + listingSize, cursor.u32(at) == 0x0201_4B50 else {
                return ArchiveError(kind: .parse, reason: "a ZIP central directory entry is missing or cut", offset: at)
            }
            let nameLength = Int(cursor.u16(at + 28)), extraLength = Int(cursor.u16(at + 30)), commentLength = Int(cursor.u16(at + 32))
            let entryEnd = at + 46 + nameLength + extraLength + commentLength
            guard entryEnd <= listingStart + listingSize else {
                return ArchiveError(kind: .parse, reason: "a ZIP central directory entry is cut", offset: at)
            }
            var member = Member(name: String(decoding: bytes[at + 46..<at + 46 + nameLength], as: UTF8.self),
                                flags: cursor.u16(at + 8), method: cursor.u16(at + 10), crc: cursor.u32(at + 16),
                                compressedSize: Int(cursor.u32(at + 20)), size: Int(cursor.u32(at + 24)),
                                localHeader: Int(cursor.u32(at + 42)))
            if let error = Self.readZip64Extra(&member, extra: at + 46 + nameLength, length: extraLength, cursor: cursor) {
                return ArchiveError(kind: .parse, reason: error, offset: at)
            }
            let entryStart = at
            at = entryEnd
            // A directory holds nothing to scan.
            if member.name.hasSuffix("/") && member.size == 0 { continue }
            let header = member.localHeader
            guard header <= bytes.count - 30, cursor.u32(header) == 0x0403_4B50 else {
                // At the directory entry that points outside: the place it names may not exist.
                return ArchiveError(kind: .parse, reason: "a ZIP member's local header is missing", offset: entryStart)
            }
            member.dataStart = header + 30 + Int(cursor.u16(header + 26)) + Int(cursor.u16(header + 28))
            guard member.dataStart <= bytes.count, member.compressedSize <= bytes.count - member.dataStart else {
                return ArchiveError(kind: .parse, reason: "a ZIP member's data runs past the end of the archive", offset: header)
            }
            members.append(member)
        }
        // Members whose data overlap: many entries inflating one stream is a bomb, not an archive.
        let byPlace = members.sorted { $0.localHeader < $1.localHeader }
        for (one, following) in zip(byPlace, byPlace.dropFirst()) where one.dataStart + one.compressedSize > following.localHeader {
            return ArchiveError(kind: .parse, reason: "ZIP members overlap (a ZIP bomb, or a broken archive)", offset: following.localHeader)
        }
        return nil
    }

    /// The ZIP64 extended information field (0x0001) of a central directory entry: the 64-bit
    /// size, compressed size and offset, each present only where the entry's own field is all
    /// ones. Nil when it is sound.
    private static func readZip64Extra(_ member: inout Member, extra start: Int, length: Int, cursor: ZipCursor) -> String? {
        var at = start
        let end = start + length
        while at + 4 <= end {
            let id = cursor.u16(at), size = Int(cursor.u16(at + 2))
            guard at + 4 + size <= end else { return "a ZIP extra field is cut" }
            if id == 0x0001 {
                var field = at + 4
                for keyPath in [\Member.size, \Member.compressedSize, \Member.localHeader] where member[keyPath: keyPath] == 0xFFFF_FFFF {
                    guard field + 8 <= at + 4 + size, let value = cursor.offset(at: field) else { return "a ZIP64 field is cut or too large" }
                    member[keyPath: keyPath] = value
                    field += 8
                }
            }
            at += 4 + size
        }
        return nil
    }

    /// The offset of the end of central directory record: the last signature whose comment
    /// ends the archive, within the 64 KiB a comment may take.
    private static func endRecord(in bytes: UnsafeRawBufferPointer) -> Int? {
        guard bytes.count >= 22 else { return nil }
        let cursor = ZipCursor(bytes)
        for at in stride(from: bytes.count - 22, through: max(0, bytes.count - 22 - 0xFFFF), by: -1)
        where cursor.u32(at) == 0x0605_4B50 && at + 22 + Int(cursor.u16(at + 20)) == bytes.count {
            return at
        }
        return nil
    }
}

/// Little-endian fields of a ZIP archive held whole; the caller keeps each read inside it.
private struct ZipCursor {
    let bytes: UnsafeRawBufferPointer

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    func u16(_ at: Int) -> UInt16 { UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8 }
    func u32(_ at: Int) -> UInt32 { UInt32(u16(at)) | UInt32(u16(at + 2)) << 16 }

    /// A 64-bit size or offset at `at` (inside the archive), nil when it cannot be one.
    func offset(at: Int) -> Int? {
        guard at >= 0, at + 8 <= bytes.count else { return nil }
        let value = UInt64(u32(at)) | UInt64(u32(at + 4)) << 32
        return value <= UInt64(Int.max) ? Int(value) : nil
    }
}
