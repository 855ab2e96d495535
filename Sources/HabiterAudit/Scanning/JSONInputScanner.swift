/// Scans a JSON or NDJSON input. In `auto` mode one document followed by more documents, each
/// on a line of its own, is NDJSON; anything else after the first document is an error.
struct JSONInputScanner {
    let scan: ArtifactScan
    let bytes: UnsafeRawBufferPointer
    let format: InputFormat
    let defaultContext: ScanContext

    /// The format actually read (`json` or `ndjson`).
    func run() -> InputFormat {
        if format == .ndjson {
            scanLines(from: 0)
            return .ndjson
        }
        var reader = JSONReader(bytes, maxDepth: scan.options.maxDepth)
        var visitor = JSONScanVisitor(scan: scan, buffer: bytes, layer: .input())
        let documentStart: Int
        do {
            try reader.skipByteOrderMark()
            reader.skipWhitespace()
            if reader.atEnd { throw JSONSyntaxError(.emptyInput, at: reader.position) }
            documentStart = reader.position
            try reader.readValue(&visitor)
        } catch {
            report(error)
            scan.finishDocument(defaultContext: defaultContext)
            return .json
        }
        scan.finishDocument(defaultContext: defaultContext)
        let documentEnd = reader.position
        reader.skipWhitespace()
        if reader.atEnd { return .json }
        let rest = reader.position
        if format == .auto && !containsNewline(documentStart..<documentEnd) && containsNewline(documentEnd..<rest) {
            scanLines(from: lineStart(before: rest))
            return .ndjson
        }
        scan.fail(.parse, at: rest, JSONSyntaxReason.trailingContent.message)
        return .json
    }

    /// Scans NDJSON lines starting at byte `start`: one document per line, blank lines allowed.
    private func scanLines(from start: Int) {
        let n = bytes.count
        var lineStart = start
        if lineStart == 0, n >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { lineStart = 3 }
        while lineStart < n {
            var lineEnd = lineStart
            while lineEnd < n && bytes[lineEnd] != 0x0A { lineEnd += 1 }
            var reader = JSONReader(bytes, range: lineStart..<lineEnd, maxDepth: scan.options.maxDepth)
            reader.skipWhitespace()
            if !reader.atEnd {
                var visitor = JSONScanVisitor(scan: scan, buffer: bytes, layer: .input())
                do {
                    try reader.readValue(&visitor)
                    reader.skipWhitespace()
                    if !reader.atEnd { throw JSONSyntaxError(.trailingContent, at: reader.position) }
                } catch let error as JSONSyntaxError where error.reason == .unexpectedEnd {
                    report(JSONSyntaxError(.documentSpansLines, at: error.offset))
                } catch {
                    report(error)
                }
                scan.finishDocument(defaultContext: defaultContext)
            }
            lineStart = lineEnd + 1
        }
    }

    private func report(_ error: Error) {
        if let error = error as? JSONSyntaxError {
            let kind: InputError.Kind = if case .nestingTooDeep = error.reason { .limit } else { .parse }
            scan.fail(kind, at: error.offset, error.reason.message)
        } else {
            scan.fail(.parse, at: nil, "cannot read the JSON input")
        }
    }

    private func containsNewline(_ range: Range<Int>) -> Bool {
        range.contains { bytes[$0] == 0x0A }
    }

    private func lineStart(before offset: Int) -> Int {
        var i = offset
        while i > 0 && bytes[i - 1] != 0x0A { i -= 1 }
        return i
    }
}
