import AuditCore

/// A tar archive (POSIX.1-2001 ustar and pax, GNU), streamed: each regular file's content is
/// read out of the archive as the scan reads it, so a `.tar.gz` of any size takes the memory of
/// a window or two. Names come from a pax `path` record, a GNU long name or the ustar prefix and
/// name; a pax `size` record gives a member's size beyond the header's 8 GiB.
///
/// Refused, as `parse` errors of the archive: a header whose checksum does not match, a size that
/// is no number, a pax record that does not parse, and an archive cut inside a header or a
/// member. A GNU sparse member, whose stored bytes are not its content, is an error of the
/// member. Directories, links and devices hold nothing to scan. The archive ends at its first
/// zero block, which every tar writes: an input that ends between two members without one was
/// cut short, and is an error rather than a shorter archive.
struct TarStream: ArchiveWalk {
    static let blockSize = 512
    /// The most a pax header's records or a GNU long name may take: they are read whole.
    static let maxHeaderData = 1 << 20

    private let window: ByteWindow
    /// The absolute offset of the next header.
    private var position = 0
    /// Where the last member's content ended: an archive cut before there was reported as the
    /// member's read failure.
    private var lastContentEnd = 0
    private var ended = false

    init(_ window: ByteWindow) {
        self.window = window
        position = window.start
    }

    mutating func next() -> Result<ArchiveEntry?, ArchiveError> {
        guard !ended else { return .success(nil) }
        // What a pax header or a GNU long name says of the header after it.
        var longName: String?
        var paxSize: Int?
        var sparse = false
        while true {
            if !window.ensure(position + Self.blockSize - 1, keeping: position) {
                // An archive cut (or failing) inside a member was reported as the member's read failure.
                if window.end < lastContentEnd {
                    ended = true
                    return .success(nil)
                }
                if let failure = window.failure { return stop(kind: .read, reason: failure, offset: nil) }
                return stop(kind: .parse, reason: window.end == position
                    ? "the tar archive ends without its end-of-archive block (cut short?)" : "the tar archive is cut inside a header",
                            offset: min(position, window.end))
            }
            let header = UnsafeRawBufferPointer(start: window.base + (position - window.start), count: Self.blockSize)
            if header.allSatisfy({ $0 == 0 }) {
                ended = true
                return .success(nil)
            }
            guard Self.checksumMatches(header) else {
                return stop(kind: .parse, reason: "a tar header's checksum does not match", offset: position)
            }
            guard let headerSize = Self.number(UnsafeRawBufferPointer(rebasing: header[124..<136])) else {
                return stop(kind: .parse, reason: "a tar header's size is not a number", offset: position)
            }
            let type = header[156]
            let size = [UInt8(ascii: "0"), 0, UInt8(ascii: "7"), UInt8(ascii: "S")].contains(type) ? paxSize ?? headerSize : headerSize
            let dataStart = position + Self.blockSize
            guard size <= Int.max - dataStart - Self.blockSize else {
                return stop(kind: .parse, reason: "a tar member's size is too large", offset: position)
            }
            let headerAt = position
            position = dataStart + (size + Self.blockSize - 1) / Self.blockSize * Self.blockSize
            switch type {
            case UInt8(ascii: "x"), UInt8(ascii: "L"):
                guard size <= Self.maxHeaderData else {
                    return stop(kind: .limit, reason: "a tar extended header larger than 1 MiB is not read", offset: headerAt)
                }
                guard size == 0 || window.ensure(dataStart + size - 1, keeping: dataStart) else {
                    return stop(kind: window.failure == nil ? .parse : .read,
                                reason: window.failure ?? "the tar archive is cut inside an extended header", offset: headerAt)
                }
                let data = UnsafeRawBufferPointer(start: window.base + (dataStart - window.start), count: size)
                if type == UInt8(ascii: "L") {
                    longName = String(decoding: data.prefix { $0 != 0 }, as: UTF8.self)
                } else {
                    guard let records = Self.paxRecords(data) else {
                        return stop(kind: .parse, reason: "a pax extended header record does not parse", offset: headerAt)
                    }
                    if let path = records["path"] { longName = path }
                    if let value = records["size"] {
                        guard let parsed = Int(value), parsed >= 0 else {
                            return stop(kind: .parse, reason: "a pax size record is not a number", offset: headerAt)
                        }
                        paxSize = parsed
                    }
                    sparse = records.keys.contains { $0.hasPrefix("GNU.sparse.") }
                }
            case UInt8(ascii: "0"), 0, UInt8(ascii: "7"):
                let name = longName ?? Self.headerName(header)
                lastContentEnd = dataStart + size
                if sparse { return .success(.unreadable(name: name, reason: "a sparse tar member (GNU.sparse) is not supported")) }
                return .success(.member(name: name, window: ByteWindow(source: WindowSliceSource(window, from: dataStart, count: size))))
            case UInt8(ascii: "S"):
                return .success(.unreadable(name: longName ?? Self.headerName(header), reason: "a sparse tar member (GNU) is not supported"))
            case UInt8(ascii: "g"), UInt8(ascii: "K"):
                // A pax global header, a GNU long link name: passed, and what came before kept.
                break
            default:
                // A directory, a link, a device: passed.
                (longName, paxSize, sparse) = (nil, nil, false)
            }
        }
    }

    /// Ends the walk with why the archive cannot be read on.
    private mutating func stop(kind: InputError.Kind, reason: String, offset: Int?) -> Result<ArchiveEntry?, ArchiveError> {
        ended = true
        return .failure(ArchiveError(kind: kind, reason: reason, offset: offset))
    }

    /// The ustar name: the prefix (POSIX ustar only; GNU keeps times there), a slash, the name.
    private static func headerName(_ header: UnsafeRawBufferPointer) -> String {
        func field(_ range: Range<Int>) -> String { String(decoding: header[range].prefix { $0 != 0 }, as: UTF8.self) }
        let name = field(0..<100)
        let posix = header[257..<263].elementsEqual(Array("ustar".utf8) + [0])
        let prefix = posix ? field(345..<500) : ""
        return prefix.isEmpty ? name : prefix + "/" + name
    }

    /// Whether the header's checksum field holds the sum of its bytes, the field read as spaces
    /// (unsigned, as POSIX says; signed, as some old tars wrote it; or unsigned in 16 bits, as
    /// Android's backup writer sums into a `uint16_t`).
    private static func checksumMatches(_ header: UnsafeRawBufferPointer) -> Bool {
        guard let recorded = number(UnsafeRawBufferPointer(rebasing: header[148..<156])) else { return false }
        var unsigned = 8 * 0x20, signed = 8 * 0x20
        for (i, byte) in header.enumerated() where !(148..<156).contains(i) {
            unsigned += Int(byte)
            signed += Int(Int8(bitPattern: byte))
        }
        return recorded == unsigned || recorded == signed || recorded == unsigned & 0xFFFF
    }

    /// A numeric header field: octal digits after optional spaces, ended by a space or NUL (or
    /// the field's end), or GNU's base-256 (its first byte 0x80, big-endian after it). Nil when
    /// it is neither, negative or too large.
    private static func number(_ field: UnsafeRawBufferPointer) -> Int? {
        if field.first == 0x80 {
            var value = 0
            for byte in field.dropFirst() {
                guard value <= (Int.max >> 8) else { return nil }
                value = value << 8 | Int(byte)
            }
            return value
        }
        var digits = field.drop { $0 == 0x20 }
        if let end = digits.firstIndex(where: { $0 == 0 || $0 == 0x20 }) { digits = digits[..<end] }
        var value = 0
        for byte in digits {
            guard (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(byte), value <= (Int.max >> 3) else { return nil }
            value = value << 3 | Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    /// A pax header's records (`length key=value\n`, the length counting the whole record), or
    /// nil when they do not parse.
    private static func paxRecords(_ data: UnsafeRawBufferPointer) -> [String: String]? {
        var records: [String: String] = [:]
        var at = 0
        while at < data.count {
            guard let space = data[at...].firstIndex(of: 0x20), space > at, space - at <= 20,
                  let length = Int(String(decoding: data[at..<space], as: UTF8.self)), length > space - at + 1,
                  length <= data.count - at, data[at + length - 1] == 0x0A,
                  let equals = data[(space + 1)..<(at + length - 1)].firstIndex(of: UInt8(ascii: "=")) else {
                return nil
            }
            records[String(decoding: data[(space + 1)..<equals], as: UTF8.self)] =
                String(decoding: data[(equals + 1)..<(at + length - 1)], as: UTF8.self)
            at += length
        }
        return records
    }
}
