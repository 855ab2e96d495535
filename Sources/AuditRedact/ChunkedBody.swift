import AuditInputs

/// A chunked body as written (`size CRLF data CRLF` … `0 CRLF` trailers `CRLF`).
struct ChunkedBody {
    /// Where each data chunk ends in the decoded body (the last one is the body's length).
    var boundaries: [Int] = []
    /// The offset of the `0` line that ends the chunks: it and the trailers stay as written.
    var lastChunkStart = 0
    var lineBreak: [UInt8] = [0x0D, 0x0A]
    var uppercaseHex = false

    /// Reads the chunk framing at `start`; nil when it is not chunked encoding.
    init?(_ input: UnsafeBufferPointer<UInt8>, at start: Int) {
        var i = start
        var total = 0
        var sawLineBreak = false
        while i < input.count {
            guard let lf = input[i...].firstIndex(of: 0x0A) else { return nil }
            let lineEnd = lf > i && input[lf - 1] == 0x0D ? lf - 1 : lf
            if !sawLineBreak {
                lineBreak = lineEnd < lf ? [0x0D, 0x0A] : [0x0A]
                sawLineBreak = true
            }
            // The reader's own rules (hex digits, an optional extension), so both frame alike.
            guard case .success(let parsed) = HTTPFraming.chunkSize(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: input[i..<lineEnd]))) else { return nil }
            let size = parsed.size
            if input[i..<(parsed.extensions.map { i + $0 } ?? lineEnd)].contains(where: { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "F") }) {
                uppercaseHex = true
            }
            if size == 0 {
                lastChunkStart = i
                return
            }
            // Checked against what is left, so that no sum can overflow.
            guard size <= input.count - (lf + 1) else { return nil }
            total += size
            boundaries.append(total)
            i = lf + 1 + size
            // The line break after the data.
            if i < input.count, input[i] == 0x0D { i += 1 }
            if i < input.count, input[i] == 0x0A { i += 1 }
        }
        return nil
    }

    /// `new` as chunks, for a body that was `old`: the boundaries before and after the changed
    /// region stay where they were, those inside it move to its end, and empty chunks (which
    /// would end the body) are dropped.
    func reencode(old: [UInt8], new: [UInt8]) -> [UInt8] {
        var prefix = 0
        while prefix < min(old.count, new.count) && old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < min(old.count, new.count) - prefix && old[old.count - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }
        let delta = new.count - old.count
        var cuts: [Int] = []
        for boundary in boundaries.dropLast() {
            if boundary <= prefix {
                cuts.append(boundary)
            } else if boundary >= old.count - suffix {
                cuts.append(boundary + delta)
            } else {
                cuts.append(new.count - suffix)
            }
        }
        cuts.append(new.count)
        var output: [UInt8] = []
        var start = 0
        for cut in cuts where cut > start {
            var size = String(cut - start, radix: 16)
            if uppercaseHex { size = size.uppercased() }
            output += Array(size.utf8) + lineBreak + new[start..<cut] + lineBreak
            start = cut
        }
        return output
    }
}
