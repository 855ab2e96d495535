import Testing
@testable import HabiterAudit

/// The key stack of the JSON scan, against an array doing the same pushes and truncations.
@Suite struct ByteStackTests {
    @Test func agreesWithAnArray() {
        var generator = SeededGenerator(seed: 0xB7)
        var stack = ByteStack()
        var model: [UInt8] = []
        for _ in 0..<20_000 {
            if model.isEmpty || Int.random(in: 0..<3, using: &generator) > 0 {
                let bytes = (0..<Int.random(in: 0...70, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
                bytes.withUnsafeBufferPointer { stack.push($0) }
                model += bytes
            } else {
                let start = Int.random(in: 0...model.count, using: &generator)
                stack.truncate(to: start)
                model.removeLast(model.count - start)
            }
            #expect(stack.count == model.count)
            let from = Int.random(in: 0...model.count, using: &generator)
            #expect(stack.withBytes(from..<model.count, { Array($0) }) == Array(model[from...]))
        }
    }
}
