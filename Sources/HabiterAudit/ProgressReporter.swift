import AuditInputs
import Foundation

/// A one-line progress display on stderr for long scans at a terminal: inputs and bytes done,
/// throughput, and the time left. Redrawn at most ten times a second; cleared at the end.
final class ProgressReporter: @unchecked Sendable {
    private let lock = NSLock()
    private let totalFiles: Int
    private let totalBytes: Int
    private let write: (String) -> Void
    private let start = Date()
    private var lastDraw = Date.distantPast
    private var drawn = false

    init(totalFiles: Int, totalBytes: Int, write: @escaping (String) -> Void) {
        self.totalFiles = totalFiles
        self.totalBytes = totalBytes
        self.write = write
    }

    /// A reporter for `items` when stderr is a terminal and the run is not quiet, else nil.
    static func forTerminal(_ items: [InputItem], quiet: Bool, environment: CLIEnvironment) -> ProgressReporter? {
        guard !quiet, environment.stderrIsTerminal else { return nil }
        let bytes = items.reduce(0) { total, item in
            guard case .file(let path) = item.source,
                  let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int else { return total }
            return total + size
        }
        return ProgressReporter(totalFiles: items.count, totalBytes: bytes, write: environment.drawProgress)
    }

    func update(filesDone: Int, bytesDone: Int) {
        lock.lock()
        defer { lock.unlock() }
        let now = Date()
        guard now.timeIntervalSince(lastDraw) >= 0.1 || filesDone == totalFiles else { return }
        lastDraw = now
        drawn = true
        write("\r\u{1B}[2K" + ProgressReporter.line(filesDone: filesDone, totalFiles: totalFiles, bytesDone: bytesDone,
                                                    totalBytes: totalBytes, elapsed: now.timeIntervalSince(start)))
    }

    /// Clears the line, so the report or summary that follows starts clean.
    func finish() {
        lock.lock()
        defer { lock.unlock() }
        if drawn { write("\r\u{1B}[2K") }
    }

    /// `12/40 inputs, 120.4 of 400.0 MB, 150.2 MB/s, 2 s left`.
    static func line(filesDone: Int, totalFiles: Int, bytesDone: Int, totalBytes: Int, elapsed: TimeInterval) -> String {
        let mb = { (bytes: Int) in String(format: "%.1f", Double(bytes) / 1_000_000) }
        var text = "\(filesDone)/\(totalFiles) inputs, \(mb(bytesDone)) of \(mb(max(totalBytes, bytesDone))) MB"
        if elapsed > 0 {
            let rate = Double(bytesDone) / elapsed
            text += ", " + String(format: "%.1f", rate / 1_000_000) + " MB/s"
            if rate > 0 && totalBytes > bytesDone {
                text += ", \(Int((Double(totalBytes - bytesDone) / rate).rounded(.up))) s left"
            }
        }
        return text
    }
}
