/// UTF-16 text read as the UTF-8 text it is, so that a log, a capture or a JSON file that a
/// Windows tool wrote in UTF-16 (PowerShell 5's `>` and `Out-File`, `reg export`, .NET's
/// `Encoding.Unicode`) is scanned, not skipped. Columns already count UTF-16 code units, so a
/// finding's line and column are the file's; its byte offset is into the UTF-8 text.
public enum UTF16Text {
    public enum ByteOrder: Sendable, Equatable {
        case littleEndian, bigEndian

        /// The encoding's name in a format (`json+utf16le`).
        public var name: String { self == .littleEndian ? "utf16le" : "utf16be" }
    }

    /// How many code units the check for text without a byte-order mark needs at least.
    static let minimumUnmarkedUnits = 8
    /// How much of an input the check for text without a mark reads (as the binary check does).
    static let unmarkedSniffLength = 8 * 1024

    /// The byte order of UTF-16 text, from its first bytes: a byte-order mark (`FF FE`,
    /// `FE FF`, not UTF-32's `FF FE 00 00`), or else text without a mark, as `iconv` and .NET
    /// write it (`unmarkedOrder`). Nil for anything else.
    public static func byteOrder(of bytes: UnsafeRawBufferPointer) -> (order: ByteOrder, markLength: Int)? {
        if bytes.count >= 2 && bytes[0] == 0xFF && bytes[1] == 0xFE && !(bytes.count >= 4 && bytes[2] == 0 && bytes[3] == 0) {
            return (.littleEndian, 2)
        }
        if bytes.count >= 2 && bytes[0] == 0xFE && bytes[1] == 0xFF { return (.bigEndian, 2) }
        return unmarkedOrder(of: bytes).map { ($0, 0) }
    }

    /// The byte order in which the first 8 KiB (eight code units at least) are text: every code
    /// unit printable ASCII, a tab or a line end, or a character from U+00A0 on (a surrogate
    /// only in a pair), and half of them ASCII at least. ASCII in UTF-16 has a zero byte in
    /// every unit, which binary data does not keep up; and UTF-8 text read as UTF-16 pairs its
    /// ASCII bytes into units beyond ASCII, so it has too few.
    static func unmarkedOrder(of bytes: UnsafeRawBufferPointer) -> ByteOrder? {
        let units = min(bytes.count, unmarkedSniffLength) / 2
        // Half the units ASCII means a zero byte in each of them: text without one (every
        // UTF-8 input) is answered without looking at its units.
        guard units >= minimumUnmarkedUnits, bytes.prefix(2 * units).contains(0) else { return nil }
        for order in [ByteOrder.littleEndian, .bigEndian] {
            let (low, high) = order == .littleEndian ? (0, 1) : (1, 0)
            func unit(_ i: Int) -> UInt16 { UInt16(bytes[2 * i + high]) << 8 | UInt16(bytes[2 * i + low]) }
            var ascii = 0, i = 0, isText = true
            while isText && i < units {
                let u = unit(i)
                switch u {
                case 0x20...0x7E, 0x09, 0x0A, 0x0D: ascii += 1
                case 0xD800...0xDBFF:
                    // A high surrogate, then a low one (unless the sniffed bytes end first).
                    if i + 1 < units { isText = (0xDC00...0xDFFF).contains(unit(i + 1)); i += 1 }
                case 0xA0...0xD7FF, 0xE000...0xFFFD: break
                default: isText = false
                }
                i += 1
                // More than half beyond ASCII already (UTF-8 text, from its first units): no.
                if (i - ascii) * 2 > units { isText = false }
            }
            if isText && ascii * 2 >= units { return order }
        }
        return nil
    }

    /// Why UTF-16 text is not text: the byte offset in the UTF-16 bytes, and the reason.
    public struct Failure: Error, Equatable, Sendable {
        public var offset: Int
        public var reason: String

        public var message: String { "invalid UTF-16 at byte \(offset): \(reason)" }
    }

    /// Turns UTF-16 code units into UTF-8, a piece at a time: a surrogate pair or a code unit
    /// may be cut between two pieces.
    struct Transcoder {
        let order: ByteOrder
        /// UTF-16 bytes taken so far, for the offsets of failures.
        private(set) var consumed = 0
        /// The first byte of a code unit cut after it.
        private var carriedByte: UInt8?
        /// A high surrogate waiting for its low one.
        private var pendingHigh: UInt16?

        init(order: ByteOrder) {
            self.order = order
        }

        /// The most UTF-8 bytes `count` UTF-16 bytes can give, with what a piece carries over.
        static func maxOutput(forInput count: Int) -> Int { (count + 1) / 2 * 3 + 4 }

        /// Transcodes `input` into `output` (at least `maxOutput(forInput:)` long): the bytes
        /// written, and the failure that stopped it, if any (the bytes before it are written).
        mutating func transcode(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) -> (written: Int, failure: Failure?) {
            var written = 0
            var i = 0
            func put(_ b: UInt8) {
                output[written] = b
                written += 1
            }
            while i < input.count {
                let first: UInt8, second: UInt8
                if let carried = carriedByte {
                    (first, second) = (carried, input[i])
                    carriedByte = nil
                    i += 1
                } else if i + 1 < input.count {
                    (first, second) = (input[i], input[i + 1])
                    i += 2
                } else {
                    carriedByte = input[i]
                    i += 1
                    continue
                }
                let unitOffset = consumed + i - 2
                let unit = order == .littleEndian ? UInt16(second) << 8 | UInt16(first) : UInt16(first) << 8 | UInt16(second)
                if let high = pendingHigh {
                    guard (0xDC00...0xDFFF).contains(unit) else {
                        return (written, Failure(offset: unitOffset - 2, reason: "a high surrogate without its low one"))
                    }
                    pendingHigh = nil
                    let scalar = 0x10000 + (UInt32(high - 0xD800) << 10 | UInt32(unit - 0xDC00))
                    put(UInt8(0xF0 | scalar >> 18))
                    put(UInt8(0x80 | (scalar >> 12) & 0x3F))
                    put(UInt8(0x80 | (scalar >> 6) & 0x3F))
                    put(UInt8(0x80 | scalar & 0x3F))
                } else if unit < 0x80 {
                    put(UInt8(unit))
                } else if unit < 0x800 {
                    put(UInt8(0xC0 | unit >> 6))
                    put(UInt8(0x80 | unit & 0x3F))
                } else if (0xD800...0xDBFF).contains(unit) {
                    pendingHigh = unit
                } else if (0xDC00...0xDFFF).contains(unit) {
                    return (written, Failure(offset: unitOffset, reason: "a low surrogate without its high one"))
                } else {
                    put(UInt8(0xE0 | unit >> 12))
                    put(UInt8(0x80 | (unit >> 6) & 0x3F))
                    put(UInt8(0x80 | unit & 0x3F))
                }
            }
            consumed += input.count
            return (written, nil)
        }

        /// Checks that the text ended between two characters.
        func finish() -> Failure? {
            if carriedByte != nil { return Failure(offset: consumed - 1, reason: "an odd number of bytes") }
            if pendingHigh != nil { return Failure(offset: consumed - 2, reason: "a high surrogate without its low one") }
            return nil
        }
    }

    /// All of `bytes` (UTF-16 in `order`, after a mark of `markLength` bytes) as UTF-8.
    public static func decode(_ bytes: UnsafeRawBufferPointer, order: ByteOrder, markLength: Int) -> Result<[UInt8], Failure> {
        var transcoder = Transcoder(order: order)
        let body = UnsafeRawBufferPointer(rebasing: bytes[markLength...])
        var output = [UInt8](repeating: 0, count: Transcoder.maxOutput(forInput: body.count))
        let (written, failure) = output.withUnsafeMutableBytes { transcoder.transcode(body, into: $0) }
        if var failure = failure ?? transcoder.finish() {
            failure.offset += markLength
            return .failure(failure)
        }
        output.removeLast(output.count - written)
        return .success(output)
    }

    /// `utf8` (valid UTF-8) as UTF-16 in `order`, after a byte-order mark when `marked`.
    public static func encode(_ utf8: [UInt8], order: ByteOrder, marked: Bool) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(utf8.count * 2 + 2)
        func put(_ unit: UInt16) {
            if order == .littleEndian {
                output.append(UInt8(unit & 0xFF))
                output.append(UInt8(unit >> 8))
            } else {
                output.append(UInt8(unit >> 8))
                output.append(UInt8(unit & 0xFF))
            }
        }
        if marked { put(0xFEFF) }
        for unit in String(decoding: utf8, as: UTF8.self).utf16 { put(unit) }
        return output
    }
}

/// Reads UTF-16 text from another source as UTF-8 (`UTF16Text`), its byte-order mark dropped.
/// A lone surrogate or an odd number of bytes fails the read with the UTF-16 offset, after the
/// text before it.
final class UTF16Source: ByteSource {
    private var inner: any ByteSource
    private var transcoder: UTF16Text.Transcoder
    private let markLength: Int
    /// Mark bytes still to drop.
    private var markLeft: Int
    private let readSize = 64 * 1024
    private var input: [UInt8]
    /// Transcoded bytes, handed out from `handedOut` on: a reader's buffer may be smaller than
    /// what one read of the input gives.
    private var output: [UInt8]
    private var outputCount = 0
    private var handedOut = 0
    private var finished = false
    /// A failure met after bytes that are handed out first.
    private var failure: UTF16Text.Failure?

    init(inner: any ByteSource, order: UTF16Text.ByteOrder, markLength: Int) {
        self.inner = inner
        transcoder = UTF16Text.Transcoder(order: order)
        self.markLength = markLength
        markLeft = markLength
        input = [UInt8](repeating: 0, count: readSize)
        output = [UInt8](repeating: 0, count: UTF16Text.Transcoder.maxOutput(forInput: readSize))
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> ByteSourceResult {
        while handedOut == outputCount {
            if let failure {
                self.failure = nil
                finished = true
                return .failure(message(failure))
            }
            if finished { return .end }
            switch input.withUnsafeMutableBytes({ inner.read(into: $0) }) {
            case .failure(let reason):
                finished = true
                return .failure(reason)
            case .end:
                finished = true
                failure = transcoder.finish()
            case .bytes(let n):
                let from = min(markLeft, n)
                markLeft -= from
                let (written, failure) = input.withUnsafeBytes { input in
                    output.withUnsafeMutableBytes { transcoder.transcode(UnsafeRawBufferPointer(rebasing: input[from..<n]), into: $0) }
                }
                (outputCount, handedOut) = (written, 0)
                if let failure {
                    self.failure = failure
                    finished = true
                }
            }
        }
        let n = min(buffer.count, outputCount - handedOut)
        output.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[handedOut..<handedOut + n])) }
        handedOut += n
        return .bytes(n)
    }

    /// The failure's message, at its offset in the input (the mark counted).
    private func message(_ failure: UTF16Text.Failure) -> String {
        var failure = failure
        failure.offset += markLength
        return failure.message
    }
}
