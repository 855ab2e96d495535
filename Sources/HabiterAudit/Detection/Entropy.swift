/// Shannon entropy in bits per byte. Random base64 scores near 6, hex near 4, English near 4,
/// repeated characters near 0.
public func shannonEntropy(_ bytes: UnsafeRawBufferPointer) -> Double {
    guard bytes.count > 0 else { return 0 }
    var counts = [Int](repeating: 0, count: 256)
    for b in bytes { counts[Int(b)] += 1 }
    let n = Double(bytes.count)
    var entropy = 0.0
    for c in counts where c > 0 {
        let p = Double(c) / n
        entropy -= p * log2(p)
    }
    return entropy
}

public func shannonEntropy(_ text: String) -> Double {
    var bytes = Array(text.utf8)
    return bytes.withUnsafeMutableBytes { shannonEntropy(UnsafeRawBufferPointer($0)) }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
