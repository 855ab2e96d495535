/// An Android backup (`adb backup`, `bmgr`; `*.ab`), the one way to take an app's
/// `shared_prefs` and files off a device that is not rooted: a text header, then a tar archive
/// (ustar with pax headers, `apps/<package>/sp/…`), deflated in the zlib format when the header
/// says so. As Android's `PerformAdbBackupTask` writes it:
///
///     ANDROID BACKUP\n <version>\n <1 when compressed, else 0>\n <none | AES-256>\n …
///
/// An encrypted backup cannot be read without its password: a `read` error of the backup.
struct AndroidBackup: ArchiveWalk {
    static let magic = Array("ANDROID BACKUP\n".utf8)

    private var tar: TarStream?
    /// What the tar is read from: the rest of the backup, inflated.
    private var tarWindow: ByteWindow?
    private var failure: ArchiveError?

    init(_ window: ByteWindow) {
        let malformed = "an Android backup whose header is cut or malformed"
        var lines: [String] = []
        var at = window.start + Self.magic.count
        // The version, the compression flag and the encryption, each a short line.
        while lines.count < 3 {
            var end = at
            while window.ensure(end, keeping: window.start) && window[end] != 0x0A && end - at < 64 { end += 1 }
            guard window.end > end, window[end] == 0x0A else {
                failure = ArchiveError(kind: .parse, reason: malformed, offset: at)
                return
            }
            lines.append(String(decoding: (at..<end).map { window[$0] }, as: UTF8.self))
            at = end + 1
        }
        guard lines[0].utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }), !lines[0].isEmpty,
              lines[1] == "0" || lines[1] == "1" else {
            failure = ArchiveError(kind: .parse, reason: malformed, offset: window.start)
            return
        }
        guard lines[2] == "none" else {
            failure = ArchiveError(kind: .read, reason: "an encrypted Android backup (\(lines[2])) cannot be scanned without its password",
                                   offset: window.start)
            return
        }
        let rest = WindowSliceSource(window, from: at, count: nil)
        let tarWindow = ByteWindow(source: lines[1] == "1" ? DecompressingSource(inner: rest, coding: .deflate) : rest)
        self.tarWindow = tarWindow
        tar = TarStream(tarWindow)
    }

    mutating func next() -> Result<ArchiveEntry?, ArchiveError> {
        if let failure {
            self.failure = nil
            tar = nil
            return .failure(failure)
        }
        guard let next = tar?.next() else { return .success(nil) }
        guard case .success(nil) = next, let tarWindow else { return next }
        // After the tar's end, the rest of the zlib stream is read too: a backup cut in its
        // checksum is cut.
        tar = nil
        while tarWindow.extend(keeping: tarWindow.end) {}
        return tarWindow.failure.map { .failure(ArchiveError(kind: .read, reason: $0, offset: nil)) } ?? .success(nil)
    }
}
