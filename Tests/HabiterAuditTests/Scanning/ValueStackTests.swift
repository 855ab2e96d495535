@testable import AuditScan
import Testing

/// The container stack of the JSON scan, against an array doing the same pushes, pops and
/// changes in place, through `top`, an index and `topAddress` (past its first growth, and back
/// to empty).
@Suite struct ValueStackTests {
    private struct Record: Equatable {
        var id: Int
        var flag: Bool
        var small: Int32
    }

    @Test func agreesWithAnArray() {
        var generator = SeededGenerator(seed: 0x57AC)
        let stack = ValueStack<Record>(capacity: 2)
        var model: [Record] = []
        for step in 0..<20_000 {
            switch Int.random(in: 0..<6, using: &generator) {
            case 0, 1:
                let record = Record(id: step, flag: step % 3 == 0, small: Int32(truncatingIfNeeded: step &* 7))
                stack.push(record)
                model.append(record)
            case 2 where !model.isEmpty:
                #expect(stack.pop() == model.removeLast())
            case 3 where !model.isEmpty:
                stack.top.id += 5
                stack.top.flag.toggle()
                model[model.count - 1].id += 5
                model[model.count - 1].flag.toggle()
            case 4 where !model.isEmpty:
                let index = Int.random(in: 0..<model.count, using: &generator)
                stack[index].small = Int32(step)
                model[index].small = Int32(step)
            case 5 where !model.isEmpty:
                let top = stack.topAddress
                top.pointee.small &+= 3
                top.pointee.flag.toggle()
                model[model.count - 1].small &+= 3
                model[model.count - 1].flag.toggle()
            default:
                break
            }
            #expect(stack.count == model.count)
            #expect(stack.isEmpty == model.isEmpty)
            if let last = model.last { #expect(stack.top == last) }
        }
        #expect((0..<stack.count).map { stack[$0] } == model)
        while !model.isEmpty { #expect(stack.pop() == model.removeLast()) }
        #expect(stack.isEmpty)
    }

    /// The key bytes of the JSON scan: runs pushed and truncated, against an array doing the same.
    @Test func runsAgreeWithAnArray() {
        var generator = SeededGenerator(seed: 0xB7)
        let stack = ValueStack<UInt8>(capacity: 4)
        var model: [UInt8] = []
        for _ in 0..<20_000 {
            if model.isEmpty || Int.random(in: 0..<3, using: &generator) > 0 {
                let bytes = (0..<Int.random(in: 0...70, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
                bytes.withUnsafeBufferPointer { stack.push(contentsOf: $0) }
                model += bytes
            } else {
                let start = Int.random(in: 0...model.count, using: &generator)
                stack.truncate(to: start)
                model.removeLast(model.count - start)
            }
            #expect(stack.count == model.count)
            let from = Int.random(in: 0...model.count, using: &generator)
            #expect(stack.withElements(from..<model.count, { Array($0) }) == Array(model[from...]))
        }
    }
}
