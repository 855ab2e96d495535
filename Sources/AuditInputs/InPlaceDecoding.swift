import AuditBytes

extension Array where Element == UInt8 {
    /// Appends what `source` decodes to, for decodings that never make text longer (JSON
    /// unescaping, XML references and line ends): `source` is copied, which is the result when it
    /// holds nothing to decode, and `rewrite` rewrites the copy in place from its start and
    /// returns the decoded length; the rest is trimmed.
    mutating func appendDecoded(_ source: UnsafeBufferPointer<UInt8>,
                                rewrite: (UnsafeMutablePointer<UInt8>) throws -> Int) rethrows {
        guard !source.isEmpty else { return }
        let start = count
        append(contentsOf: source)
        let length = try withUnsafeMutableBufferPointer { try rewrite($0.baseAddress! + start) }
        truncate(to: start + length)
    }
}
