import AuditCore
import AuditInputs

/// Scans a JSON or NDJSON input. In `auto` mode one document followed by more documents, each
/// on a line of its own, is NDJSON; anything else after the first document is an error.
struct JSONInputScanner {
    let scan: ArtifactScan
    let format: InputFormat
    /// Absolute offset of the first byte to read.
    let start: Int
    let defaultContext: ScanContext
    /// The value is wrapped in a JSONP call, whose `)` and `;` follow it.
    var closesJSONP = false

    private var window: ByteWindow { scan.window }

    /// Scans the input; returns the format actually read (`json` or `ndjson`).
    func run() -> InputFormat {
        if format == .ndjson {
            scanLines(from: start)
            return .ndjson
        }
        var reader = JSONReader(window: window, start: start, maxDepth: scan.options.maxDepth, longStringBytes: JSONReader.defaultLongStringBytes)
        var visitor = JSONScanVisitor(scan: scan, layer: .input(path: scan.rootPath))
        let documentStart: Int
        let startLine: Int
        do {
            try reader.skipByteOrderMark()
            try reader.skipWhitespace()
            if reader.atEnd { throw JSONSyntaxError(.emptyInput, at: reader.position) }
            documentStart = reader.position
            startLine = window.position(of: documentStart).line
            if let share = scan.share, !share.owns(documentAt: documentStart, ordinal: 0) {
                try reader.skipValue()
            } else {
                try reader.readValue(&visitor)
            }
        } catch {
            report(error)
            scan.finishDocument(defaultContext: defaultContext)
            return .json
        }
        scan.finishDocument(defaultContext: defaultContext)
        let endLine = window.position(of: reader.position).line
        if closesJSONP {
            do {
                try reader.skipJSONPClosing()
            } catch {
                report(error)
                return .json
            }
        }
        try? reader.skipWhitespace()
        if reader.atEnd { return .json }
        let rest = reader.position
        if format == .auto && startLine == endLine && window.position(of: rest).line > endLine {
            scanLines(from: rest, documentsBefore: 1)
            return .ndjson
        }
        scan.fail(.parse, at: rest, JSONSyntaxReason.trailingContent.message)
        return .json
    }

    /// Scans NDJSON lines from absolute offset `from`, after `documentsBefore` documents: one
    /// document per line, blank lines allowed, at least one document. The window keeps only the
    /// current line. A worker of a parallel scan skips the lines of the others unread. One
    /// visitor reads the lines one after another: a document read in full leaves it as it began,
    /// with its stacks' room kept (a visitor per line cost some 4 % of an NDJSON scan).
    private func scanLines(from: Int, documentsBefore: Int = 0) {
        var lineStart = from
        // Read or skipped.
        var documents = 0
        defer { if documents == 0 { scan.fail(.parse, at: from, "empty input: no JSON document") } }
        if lineStart == 0 && window.ensure(2, keeping: 0) && window[0] == 0xEF && window[1] == 0xBB && window[2] == 0xBF {
            lineStart = 3
        }
        var visitor = JSONScanVisitor(scan: scan, layer: .input(path: scan.rootPath))
        while true {
            guard let lineEnd = findLineEnd(from: lineStart) else { break }
            defer { lineStart = lineEnd + 1 }
            var reader = JSONReader(window: window, start: lineStart, limit: lineEnd, maxDepth: scan.options.maxDepth)
            try? reader.skipWhitespace()
            if !reader.atEnd {
                documents += 1
                if let share = scan.share, !share.owns(documentAt: lineStart, ordinal: documentsBefore + documents - 1) { continue }
                do {
                    do {
                        try reader.readValue(&visitor)
                    } catch {
                        // A document that broke off leaves the visitor inside it: the next
                        // line gets a new one.
                        visitor = JSONScanVisitor(scan: scan, layer: .input(path: scan.rootPath))
                        throw error
                    }
                    try reader.skipWhitespace()
                    if !reader.atEnd { throw JSONSyntaxError(.trailingContent, at: reader.position) }
                } catch let error as JSONSyntaxError where error.reason == .unexpectedEnd {
                    report(JSONSyntaxError(.documentSpansLines, at: error.offset))
                } catch {
                    report(error)
                }
                scan.finishDocument(defaultContext: defaultContext)
            }
        }
    }

    /// The absolute offset of the LF ending the line at `lineStart` (or of the input's end),
    /// reading more as needed; nil when no byte is left.
    private func findLineEnd(from lineStart: Int) -> Int? {
        var i = lineStart
        while true {
            if i < window.end, let found = memchr(window.base + (i - window.start), 0x0A, window.end - i) {
                return window.start + (UnsafeRawPointer(found) - UnsafeRawPointer(window.base))
            }
            i = window.end
            if !window.extend(keeping: lineStart) {
                return lineStart < window.end ? window.end : nil
            }
        }
    }

    private func report(_ error: Error) {
        if let failure = window.failure {
            scan.fail(.read, at: nil, failure)
        } else if let error = error as? JSONSyntaxError {
            let kind: InputError.Kind = if case .nestingTooDeep = error.reason { .limit } else { .parse }
            scan.fail(kind, at: error.offset, error.reason.message)
        } else if let limit = error as? DocumentLimit {
            scan.fail(.limit, at: limit.offset, limit.message)
        } else {
            scan.fail(.parse, at: nil, "cannot read the JSON input: \(error)")
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
