import AuditBytes
import AuditCore
import AuditDetection
import AuditInputs

/// Scans an input that is none of the structured formats (source code, Markdown, YAML, `.env`,
/// shell) as text: the pattern rules run over it, and each hit is reported at the secret's own
/// line and column. The text is read in chunks that overlap, so memory stays bounded by a chunk
/// however large the file: each hit is taken from the chunk where it has at least half the
/// overlap of text around it (a keyword a context rule looks for, a PEM block). Each chunk is a
/// document: one secret repeated in it is one finding.
///
/// The kind of text (code, markup, prose) is the one the file's name declares, else the one its
/// first chunk reads as: in code, `password = cfg.get(…)` is no credential, a quoted literal is.
enum TextInputScanner {
    /// The bytes of one chunk (the pattern engine reports at most 64 matches of a rule in one).
    static let chunkBytes = 128 << 10
    /// How far consecutive chunks overlap: twice the longest secret found across a chunk's end.
    static let overlapBytes = 16 << 10

    static func scan(_ scan: ArtifactScan, start: Int, name: String) {
        let window = scan.window
        var kind = TextKind(fileName: name)
        var chunkStart = start
        // Hits before this offset were the previous chunk's.
        var taken = start
        window.pin(at: chunkStart)
        defer { window.unpin() }
        while true {
            _ = window.ensure(chunkStart + chunkBytes, keeping: chunkStart)
            let isLast = window.isComplete && window.end <= chunkStart + chunkBytes
            let chunkEnd = isLast ? window.end : lineEnd(in: window, from: chunkStart + chunkBytes / 2, before: chunkStart + chunkBytes)
            let value = UnsafeRawBufferPointer(start: window.base + (chunkStart - window.start), count: chunkEnd - chunkStart)
            if kind == nil { kind = TextKind.sniff(value) }
            // Hits from here on are the next chunk's, which starts `overlapBytes` earlier.
            let nextStart = isLast ? chunkEnd : lineEnd(in: window, from: chunkEnd - 2 * overlapBytes, before: chunkEnd - overlapBytes)
            let boundary = isLast ? chunkEnd : nextStart + overlapBytes / 2
            scan.scanTextPatterns(value, offset: chunkStart, kind: kind!, in: taken..<boundary)
            scan.scanBase64Runs(value, offset: chunkStart, in: taken..<boundary)
            scan.finishDocument(defaultContext: .payload)
            if isLast { return }
            _ = window.position(of: nextStart)
            window.pin(at: nextStart)
            chunkStart = nextStart
            taken = boundary
        }
    }

    /// The offset after the last line break in `[from, before)` (visible), or `before` when a
    /// line runs through all of it (minified code).
    private static func lineEnd(in window: ByteWindow, from: Int, before: Int) -> Int {
        var i = before - 1
        while i >= from {
            let b = window[i]
            if b == 0x0A || b == 0x0D { return i + 1 }
            i -= 1
        }
        return before
    }
}

extension ArtifactScan {
    /// Runs the pattern rules over `text` (at absolute `offset`) and records a hit, at the
    /// secret's own position, for each match that starts in `taken` (absolute offsets).
    func scanTextPatterns(_ text: UnsafeRawBufferPointer, offset: Int, kind: TextKind, in taken: Range<Int>) {
        if text.count < rules.patterns.minimumValueLength { return }
        var hits: [PatternHit] = []
        do {
            try rules.patterns.scan(text, kind: kind, matcher: matcher, scratch: &patternScratch) { hits.append($0) }
        } catch {
            fail(.limit, at: offset, "rule '\(rules.patterns.rules[error.ruleIndex].id)': \(error.error.message)")
        }
        for hit in hits where taken.contains(offset + hit.secret.lowerBound) {
            let rule = rules.patterns.rules[hit.ruleIndex]
            let secret = UnsafeRawBufferPointer(rebasing: text[hit.secret])
            pending.append(PendingHit(
                detail: .pattern(ruleIndex: hit.ruleIndex, confidence: hit.confidence,
                                 preview: Redaction.preview(secret, publicPrefix: rule.previewPrefixLength)),
                location: HitLocation(key: nil, path: rootPath, ancestry: []), position: position(of: offset + hit.secret.lowerBound),
                secretHash: PendingHit.secretHash(of: secret), valueDigest: options.valueDigester?.digest(secret)))
        }
    }

    /// Offers each run of base64 symbols in `text` (at absolute `offset`) that starts in `taken`
    /// to the base64 layer decoder, as a string value is: base64 of text, JSON or compressed
    /// data (a log line's `body=eyJ…`, a token encoded once more) is opened and scanned, each hit
    /// at the run's line and column, its path `!base64…`. The decoder's checks (16 symbols or
    /// more, canonical padding, decoding to printable UTF-8 or compressed data) pass over paths,
    /// identifiers and hashes, which decode to binary after a few bytes.
    ///
    /// Base64 wrapped into lines (`base64`'s and MIME's 76 symbols, PEM's and OpenSSL's 64) is
    /// offered whole, line breaks and all, as the decoder reads MIME: its lines one by one would
    /// cut a JSON document, and a token, at every break (`WrappedBase64`). A block that opens
    /// nothing is offered line by line, as any run.
    func scanBase64Runs(_ text: UnsafeRawBufferPointer, offset: Int, in taken: Range<Int>) {
        // The block is passed along, not captured by a nested function: a captured variable is
        // boxed and checked for exclusive access at every use (+1.0 % on 4 MB of JavaScript).
        var block = WrappedBase64()
        Base64Runs.forEach(in: text, minLength: Base64LayerDecoder.minLength) { run in
            guard taken.contains(offset + run.lowerBound) else { return }
            if !block.continues(with: run, in: text) { openBase64(&block, in: text, offset: offset) }
            block.lines.append(run)
        }
        openBase64(&block, in: text, offset: offset)
    }

    /// Offers `block` whole to the base64 decoder, or, when that opens nothing, each of its
    /// lines; then empties it.
    private func openBase64(_ block: inout WrappedBase64, in text: UnsafeRawBufferPointer, offset: Int) {
        func open(_ run: Range<Int>) -> Bool {
            openLayers(UnsafeRawBufferPointer(rebasing: text[run]), at: offset + run.lowerBound, depth: 0, excluding: ~base64Decoder) {
                HitLocation(key: nil, path: rootPath, ancestry: [])
            }.any
        }
        if !(block.whole(in: text, minRun: Base64LayerDecoder.minLength).map(open) ?? false) {
            for line in block.lines { _ = open(line) }
        }
        block.lines.removeAll(keepingCapacity: true)
    }
}
