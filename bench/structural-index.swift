// Throughput of the structural index on one file held in memory: the classifier and the
// string-aware scanner, vector and byte-at-a-time, `JSONReader.skipValue` over the whole text,
// and the serial `JSONReader` with a visitor that does nothing, for scale.
// Compiled and run by bench/structural-index; not a test.
import AuditBytes
import AuditInputs
import Foundation

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    print("usage: structural-index FILE [RUNS]")
    exit(2)
}
let data = try Data(contentsOf: URL(fileURLWithPath: arguments[1]))
let runs = arguments.count > 2 ? Int(arguments[2]) ?? 5 : 5
let count = data.count
let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: count + 64, alignment: 64)
buffer.copyBytes(from: data)
let base = UnsafeRawPointer(buffer.baseAddress!)
let text = UnsafeRawBufferPointer(start: base, count: count)

/// The best of `runs` runs of `body`, which reads `bytes` bytes.
func measure(_ name: String, bytes: Int = count, _ body: () throws -> Int) rethrows {
    var best = Double.infinity
    var check = 0
    for _ in 0..<runs {
        let start = DispatchTime.now().uptimeNanoseconds
        check = try body()
        best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    let padded = name.padding(toLength: 44, withPad: " ", startingAt: 0)
    print("\(padded) \(String(format: "%6.2f", Double(bytes) / best / 1e9)) GB/s  (best of \(runs): \(String(format: "%.3f", best)) s; check \(check))")
}

/// Structural characters outside strings, the check the four scanner runs must agree on.
func scanned(_ next: (inout JSONStructuralScanner, UnsafeRawPointer) -> JSONBlockMasks) -> Int {
    var scanner = JSONStructuralScanner()
    var found = 0
    var i = 0
    while i + 64 <= count {
        found &+= next(&scanner, base + i).structuralOutsideStrings.nonzeroBitCount
        i += 64
    }
    let tail = UnsafeBufferPointer(start: (base + i).assumingMemoryBound(to: UInt8.self), count: count - i)
    return found &+ scanner.next(partial: tail).structuralOutsideStrings.nonzeroBitCount
}

/// A hash of the classes of every whole block, the check the two classifier runs must agree on.
func classified(_ classify: (UnsafeRawPointer) -> JSONByteClasses) -> Int {
    var found = 0
    var i = 0
    while i + 64 <= count {
        let classes = classify(base + i)
        // A hash of all four (no popcount: baseline x86-64 has no `popcnt`, and its emulation
        // would cost more than the classification).
        found = found &* 31 &+ Int(truncatingIfNeeded: classes.structurals ^ classes.quotes &<< 1
            ^ classes.backslashes &<< 2 ^ classes.lineFeeds &<< 3)
        i += 64
    }
    return found
}

struct NoVisitor: JSONVisitor {
    mutating func objectStart(at offset: Int) {}
    mutating func objectEnd(at offset: Int) {}
    mutating func arrayStart(at offset: Int) {}
    mutating func arrayEnd(at offset: Int) {}
    mutating func key(_ raw: UnsafeBufferPointer<UInt8>, escaped: Bool, at offset: Int) {}
    mutating func string(_ raw: UnsafeBufferPointer<UInt8>, escaped: Bool, at offset: Int) {}
    mutating func number(_ raw: UnsafeBufferPointer<UInt8>, at offset: Int) {}
    mutating func literal(_ value: JSONLiteral, at offset: Int) {}
}

print("\(arguments[1]): \(count) bytes in memory")
measure("classify, SIMD") { classified { StructuralClassifier.classify($0) } }
measure("classify, scalar byte loop") { classified { StructuralClassifier.classifyScalar($0) } }
measure("JSONStructuralScanner, SIMD") {
    scanned { $0.next(block: $1.assumingMemoryBound(to: UInt8.self)) }
}
measure("JSONStructuralScanner, scalar classes") {
    scanned { $0.next(classes: StructuralClassifier.classifyScalar($1)) }
}
try measure("JSONReader.skipValue") {
    var reader = JSONReader(text)
    try reader.skipValue()
    return reader.position
}
try measure("JSONReader, a visitor doing nothing") {
    var reader = JSONReader(text)
    var visitor = NoVisitor()
    try reader.readText(&visitor)
    return reader.position
}
