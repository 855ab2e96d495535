import AuditCore

/// An archive the scan opens, so that a support bundle (a ZIP of a backup and a `shared_prefs`
/// dump, a `.tar.gz` of logs, an `adb backup`) is scanned member by member as the files
/// themselves would be, not skipped as a binary file. Each member is an artifact of its own, named
/// `archive!member` (`support.zip!shared_prefs/FlutterSharedPreferences.xml`), as gitleaks names
/// a file inside an archive.
public enum ArchiveFormat: String, Sendable, Equatable {
    /// ZIP (and JAR, APK, AAR, IPA): `ZipArchive`.
    case zip
    /// tar in the ustar, GNU or pax formats: `TarStream`.
    case tar
    /// An Android backup (`adb backup`): `AndroidBackup`.
    case androidBackup = "android-backup"

    /// Archives inside archives are opened this deep (an archive at the top is depth 1); deeper
    /// is a `limit` error, as trufflehog and kingfisher bound their depth.
    public static let maxDepth = 3

    /// The archive `bytes` (an input's first bytes) start, if any: a ZIP by its first local
    /// header or its end record (an empty archive), a tar by the `ustar` magic of its first
    /// header, an Android backup by its first line.
    public static func of(_ bytes: UnsafeRawBufferPointer) -> ArchiveFormat? {
        if bytes.starts(with: AndroidBackup.magic) { return .androidBackup }
        if bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) || bytes.starts(with: [0x50, 0x4B, 0x05, 0x06]) { return .zip }
        if bytes.count >= 262, UnsafeRawBufferPointer(rebasing: bytes[257..<262]).elementsEqual("ustar".utf8) {
            return .tar
        }
        return nil
    }

    /// The reader of the archive `window` holds, from its first byte. `memoryLimit`: how large a
    /// ZIP, which is read whole, may be (nil for an input at the top, whose size it is).
    public static func walk(_ format: ArchiveFormat, _ window: ByteWindow, memoryLimit: Int?) -> any ArchiveWalk {
        switch format {
        case .zip: ZipArchive(window, memoryLimit: memoryLimit)
        case .tar: TarStream(window)
        case .androidBackup: AndroidBackup(window)
        }
    }
}

/// One member of an archive.
public enum ArchiveEntry {
    /// A file, and a window that reads its content (decompressed, its size and CRC checked
    /// where the archive records them: a mismatch is the window's failure).
    case member(name: String, window: ByteWindow)
    /// A file whose content cannot be read (encrypted, compressed by a method the scan does not
    /// know), and why: an error on the member, never a skipped file.
    case unreadable(name: String, reason: String)
}

/// Why an archive cannot be read on: its structure is broken at `offset` (`parse`), reading it
/// failed (`read`), or it is larger than the scan holds (`limit`).
public struct ArchiveError: Error, Equatable, Sendable {
    public var kind: InputError.Kind
    public var reason: String
    public var offset: Int?
}

/// Reads an archive's members one after another. A member's window must be read to its end (or
/// dropped) before the next is asked for: a tar's members stream from one input.
public protocol ArchiveWalk {
    /// The next member, nil after the last, or why the archive cannot be read on.
    mutating func next() -> Result<ArchiveEntry?, ArchiveError>
}
