internal import CBzip2

/// The bzip2 format (`bzip2`, `pbzip2`), behind one wrapper (STYLE.md: a C library stays behind
/// one): the stream magic, a streaming decoder, and compression. Only inputs compressed whole come
/// in it. The decoder takes at most some 3.7 MB, whatever the stream says. No other file imports
/// CBzip2.
public enum Bzip2 {
    /// Whether `bytes` start a bzip2 stream: `BZh`, a block size digit `1`–`9`, then the magic of
    /// a block (π's digits, `31 41 59 26 53 59`) or of the end of an empty stream (√π's,
    /// `17 72 45 38 50 90`), which no text starts with.
    public static func startsStream(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count >= 10, bytes[0] == 0x42, bytes[1] == 0x5A, bytes[2] == 0x68, (0x31...0x39).contains(bytes[3]) else { return false }
        let next = bytes[4..<10]
        return next.elementsEqual([0x31, 0x41, 0x59, 0x26, 0x53, 0x59]) || next.elementsEqual([0x17, 0x72, 0x45, 0x38, 0x50, 0x90])
    }

    /// A streaming decoder of bzip2 streams, one after the other, as `pbzip2` writes them
    /// (`DecompressingSource`).
    final class Decompressor {
        private let stream: UnsafeMutablePointer<bz_stream>
        private var started = false
        /// Nil when the decoder is ready, else why the library could not set it up.
        private(set) var setupFailure: String?

        init() {
            stream = .allocate(capacity: 1)
            stream.initialize(to: bz_stream())
            setupFailure = start()
        }

        deinit {
            if started { BZ2_bzDecompressEnd(stream) }
            stream.deallocate()
        }

        /// Starts a decoder for one stream; why it could not, if it could not.
        private func start() -> String? {
            let code = BZ2_bzDecompressInit(stream, 0, 0)
            started = code == BZ_OK
            return started ? nil : "libbz2 could not start a decoder (error \(code))"
        }

        var pendingInput: Int { Int(stream.pointee.avail_in) }

        /// Gives the decoder `count` bytes at `bytes`, which must stay valid until they are consumed.
        func setInput(_ bytes: UnsafeRawPointer, count: Int) {
            stream.pointee.next_in = UnsafeMutablePointer(mutating: bytes.assumingMemoryBound(to: CChar.self))
            stream.pointee.avail_in = UInt32(count)
        }

        func step(into buffer: UnsafeMutableRawBufferPointer) -> (status: StreamStatus, produced: Int) {
            let room = min(buffer.count, Int(UInt32.max))
            stream.pointee.next_out = buffer.baseAddress?.assumingMemoryBound(to: CChar.self)
            stream.pointee.avail_out = UInt32(room)
            let code = BZ2_bzDecompress(stream)
            let produced = room - Int(stream.pointee.avail_out)
            switch code {
            case BZ_OK: return (.progress, produced)
            case BZ_STREAM_END: return (.streamEnd, produced)
            case BZ_DATA_ERROR_MAGIC: return (.corrupt("not a bzip2 stream"), produced)
            case BZ_DATA_ERROR: return (.corrupt("corrupt data"), produced)
            case BZ_MEM_ERROR: return (.corrupt("out of memory"), produced)
            default: return (.corrupt("libbz2 error \(code)"), produced)
            }
        }

        /// Readies the decoder for the next stream, the input given still pending.
        func reset() -> Bool {
            let (input, count) = (stream.pointee.next_in, stream.pointee.avail_in)
            if started { BZ2_bzDecompressEnd(stream) }
            stream.pointee = bz_stream()
            setupFailure = start()
            (stream.pointee.next_in, stream.pointee.avail_in) = (input, count)
            return setupFailure == nil
        }
    }

    /// `content` as one bzip2 stream at `bzip2`'s default block size (900 k), or nil when it fails.
    public static func compress(_ content: UnsafeRawBufferPointer) -> [UInt8]? {
        guard content.count < Int(UInt32.max) / 2 else { return nil }
        var size = UInt32(content.count + content.count / 100 + 601)
        var output = [UInt8](repeating: 0, count: Int(size))
        let code = output.withUnsafeMutableBytes { buffer in
            BZ2_bzBuffToBuffCompress(buffer.baseAddress?.assumingMemoryBound(to: CChar.self), &size,
                                     UnsafeMutablePointer(mutating: content.baseAddress?.assumingMemoryBound(to: CChar.self)),
                                     UInt32(content.count), 9, 0, 0)
        }
        guard code == BZ_OK else { return nil }
        output.removeSubrange(Int(size)...)
        return output
    }
}
