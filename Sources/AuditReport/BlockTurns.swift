import Foundation

/// The blocks of a long array that several threads write at once (`JSONStreamWriter.elements`):
/// each thread claims the next block, writes it, and waits for its turn to hand it on, so that
/// the blocks go on in order. A block is claimed only by a thread that then writes it, so every
/// turn comes, however many of the threads run and whenever they start.
final class BlockTurns: @unchecked Sendable {
    private let condition = NSCondition()
    private let count: Int
    private var claimed = 0
    private var turn = 0
    /// Whether a hand-on failed: the blocks after it are neither written nor handed on.
    private(set) var failed = false

    init(count: Int) {
        self.count = count
    }

    /// The next block no thread has claimed, or nil when every block is claimed or a hand-on
    /// failed.
    func claim() -> Int? {
        condition.lock()
        defer { condition.unlock() }
        guard claimed < count, !failed else { return nil }
        claimed += 1
        return claimed - 1
    }

    /// Waits until the blocks before `block` have been handed on, then hands it on with `handOn`
    /// (false when that fails), unless one before it failed.
    func handOn(_ block: Int, _ handOn: () -> Bool) {
        condition.lock()
        while turn < block { condition.wait() }
        let skipped = failed
        condition.unlock()
        // Only the thread whose turn it is gets here: the hand-on needs no lock of its own.
        let handed = skipped || handOn()
        condition.lock()
        if !handed { failed = true }
        turn = block + 1
        condition.broadcast()
        condition.unlock()
    }
}
