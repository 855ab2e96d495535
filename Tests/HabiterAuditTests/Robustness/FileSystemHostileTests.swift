@testable import AuditCore
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// What the file system can do to a scan (issue 8): loops, unreadable files, FIFOs, special
/// files in a walk, files that change while they are read. Each ends in exit status 2 with the
/// file named, or a correct scan; never a hang.
@Suite struct FileSystemHostileTests {
    private func scan(_ arguments: [String]) -> (status: Int32, stdout: String, stderr: String) {
        TestSupport.withinSeconds(30) { TestSupport.runCLI(["scan", "--no-config"] + arguments) }
    }

    @Test func aSymlinkLoopIsReportedNotFollowedForever() throws {
        let root = TestSupport.temporaryDirectory()
        let inner = root.appendingPathComponent("captures/inner")
        try FileManager.default.createDirectory(at: inner, withIntermediateDirectories: true)
        try Data(#"{"gh": "\#(HostileInputTests.token)"}"#.utf8).write(to: inner.appendingPathComponent("push.json"))
        try FileManager.default.createSymbolicLink(atPath: inner.appendingPathComponent("up").path, withDestinationPath: "..")
        // Two links that point at each other: opening either fails.
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("a.json").path, withDestinationPath: "b.json")
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("b.json").path, withDestinationPath: "a.json")
        let result = scan(["--format", "json", root.path])
        #expect(result.status == ExitStatus.inputError)
        let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
        let errors = (report["errors"] as! [[String: Any]]).map { "\($0["artifact"]!): \($0["reason"]!)" }
        #expect(errors.contains { $0.hasSuffix("captures/inner/up: symbolic link loop: leads back to \(root.path)/captures") })
        #expect(errors.contains { $0.contains("a.json") && $0.contains("symbolic links") })
        #expect((report["findings"] as! [Any]).count == 1)  // push.json, once
    }

    @Test func aSymlinkedDirectoryIsWalkedOnce() throws {
        let root = TestSupport.temporaryDirectory()
        let real = root.appendingPathComponent("real")
        try FileManager.default.createDirectory(at: real, withIntermediateDirectories: true)
        try Data(#"{"gh": "\#(HostileInputTests.token)"}"#.utf8).write(to: real.appendingPathComponent("push.json"))
        let outside = TestSupport.temporaryDirectory()
        try Data(#"{"gh": "\#(HostileInputTests.token)"}"#.utf8).write(to: outside.appendingPathComponent("elsewhere.json"))
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("alias").path, withDestinationPath: real.path)
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("linked").path, withDestinationPath: outside.path)
        let result = scan(["--format", "json", root.path])
        #expect(result.status == ExitStatus.findings)
        let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
        let files = Set((report["findings"] as! [[String: Any]]).map { ($0["artifact"] as! String).split(separator: "/").last.map(String.init)! })
        #expect(files == ["push.json", "elsewhere.json"])
        #expect((report["findings"] as! [Any]).count == 2)
    }

    @Test func anUnreadableFileIsAReadError() throws {
        let path: String
        if getuid() == 0 {
            // root reads any mode; /proc/self/mem is a regular file whose first page cannot be read.
            path = "/proc/self/mem"
        } else {
            let file = TestSupport.temporaryDirectory().appendingPathComponent("locked.json")
            try Data("{}".utf8).write(to: file)
            chmod(file.path, 0)
            path = file.path
        }
        let result = scan([path])
        #expect(result.status == ExitStatus.inputError)
        #expect(result.stdout.contains(path) || result.stderr.contains(path))
    }

    @Test func aFIFONamedOnTheCommandLineIsRead() throws {
        let fifo = TestSupport.temporaryDirectory().appendingPathComponent("capture.json").path
        #expect(mkfifo(fifo, 0o600) == 0)
        // The pipe holds the bytes while a read end is open: no race with a writer thread.
        let holder = open(fifo, O_RDONLY | O_NONBLOCK)
        let writer = open(fifo, O_WRONLY)
        let bytes = Array(#"{"gh": "\#(HostileInputTests.token)"}"#.utf8)
        #expect(write(writer, bytes, bytes.count) == bytes.count)
        close(writer)
        defer { close(holder) }
        let result = scan([fifo])
        #expect(result.status == ExitStatus.findings)
        #expect(result.stdout.contains("secret.github-token"))
    }

    @Test func aFIFOWithoutAWriterIsAnErrorNotAHang() throws {
        let fifo = TestSupport.temporaryDirectory().appendingPathComponent("nobody.json").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let result = scan([fifo])
        #expect(result.status == ExitStatus.inputError)
        #expect(result.stdout.contains("nobody.json:1:1: empty input"))
    }

    @Test func aFIFOInADirectoryWalkIsAnErrorNotAHang() throws {
        let root = TestSupport.temporaryDirectory()
        #expect(mkfifo(root.appendingPathComponent("pipe").path, 0o600) == 0)
        try Data(#"{"ok": true}"#.utf8).write(to: root.appendingPathComponent("clean.json"))
        let result = scan([root.path])
        #expect(result.status == ExitStatus.inputError)
        #expect(result.stdout.contains("pipe: not a regular file (a FIFO, socket or device)"))
    }

    /// The file shrinks or grows while it is read: the reader notices (a read error), or the
    /// parser meets the cut (a parse error at its position); it never crashes (the input is
    /// read, not memory-mapped, so there is no page to fault on).
    @Test(arguments: ["shrink", "grow"])
    func aFileThatChangesWhileItIsRead(_ change: String) throws {
        let file = TestSupport.temporaryDirectory().appendingPathComponent("changing.json")
        let record = #"{"title": "Walk the dog", "note": "Small steps every day."}"#
        let body = "[" + Array(repeating: record, count: 400_000).joined(separator: ",\n") + "]"
        try Data(body.utf8).write(to: file)
        let changer = Thread {
            usleep(20_000)
            let handle = FileHandle(forUpdatingAtPath: file.path)!
            if change == "shrink" {
                handle.truncateFile(atOffset: 1_000_000)
            } else {
                handle.seekToEndOfFile()
                handle.write(Data(String(repeating: " ", count: 1_000_000).utf8))
            }
            handle.closeFile()
        }
        changer.start()
        let result = scan(["--format", "json", file.path])
        let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
        let errors = report["errors"] as! [[String: Any]]
        if result.status == ExitStatus.inputError {
            // The reader notices the change, or the parser the cut (at its position).
            #expect(!errors.isEmpty)
            for error in errors {
                let reason = error["reason"] as? String ?? ""
                #expect((error["kind"] as? String == "read" && reason == "the file changed size while it was read")
                        || error["line"] as? Int != nil, "\(reason)")
            }
        } else {
            #expect(result.status == ExitStatus.pass)  // read before (or after, grown by whitespace) the change
            #expect(errors.isEmpty)
        }
    }
}
