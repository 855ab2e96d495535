@testable import AuditScan
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The workers' threads: every worker runs once, worker 0 on the calling thread, on as many
/// threads as there are CPUs at most, at once; each thread after the caller's starts on the CPU
/// `CPUPlacement` names and is then free to run on any the process may use.
@Suite struct WorkerThreadsTests {
    /// What the workers saw, from their threads.
    final class Record: @unchecked Sendable {
        struct Entry {
            var worker: Int
            var thread: pthread_t
            var cpus: [Int]?
        }
        private let lock = NSLock()
        private var entries: [Entry] = []

        func add(_ worker: Int) {
            let entry = Entry(worker: worker, thread: pthread_self(), cpus: CPUPlacement.callingThreadCPUs())
            lock.lock()
            entries.append(entry)
            lock.unlock()
        }

        var sorted: [Entry] {
            lock.lock()
            defer { lock.unlock() }
            return entries.sorted { $0.worker < $1.worker }
        }
    }

    static let cpuCount = ProcessInfo.processInfo.activeProcessorCount

    @Test(arguments: [0, 1, 2, 3, 5, 9])
    func everyWorkerRunsOnceOnAtMostAThreadACPU(count: Int) {
        let record = Record()
        let caller = pthread_self()
        WorkerThreads.run(count: count) { worker in record.add(worker) }
        let seen = record.sorted
        #expect(seen.map(\.worker) == Array(0..<count))
        let threads = min(count, WorkerThreadsTests.cpuCount)
        // Worker 0 on the caller; the next ones each the first of a thread of its own.
        for entry in seen.prefix(threads) {
            #expect((pthread_equal(entry.thread, caller) != 0) == (entry.worker == 0), "worker \(entry.worker)")
        }
        var distinct: [pthread_t] = []
        for entry in seen where !distinct.contains(where: { pthread_equal($0, entry.thread) != 0 }) {
            distinct.append(entry.thread)
        }
        #expect(distinct.count == threads)
        // Released from where it started: a thread may run on every CPU the caller may.
        let callerCPUs = CPUPlacement.callingThreadCPUs()
        #expect(callerCPUs != nil)
        for entry in seen {
            #expect(entry.cpus == callerCPUs, "worker \(entry.worker)")
        }
    }

    /// As many workers as CPUs, each waiting for the next one's signal: run one after another,
    /// the first would wait its ten seconds in vain.
    @Test func theWorkersOfEveryCPURunAtOnce() {
        let count = min(WorkerThreadsTests.cpuCount, 4)
        guard count > 1 else {
            print("WorkerThreadsTests: one CPU; workers cannot run at once, so that is not checked")
            return
        }
        let signals = (0..<count).map { _ in DispatchSemaphore(value: 0) }
        let heard = Record()
        WorkerThreads.run(count: count) { worker in
            signals[worker].signal()
            if signals[(worker + 1) % count].wait(timeout: .now() + 10) == .success {
                heard.add(worker)
            }
        }
        #expect(heard.sorted.map(\.worker) == Array(0..<count))
    }

    /// A thread started where `CPUPlacement` puts it may run only on that CPU until it calls
    /// `release`, and then on every CPU the process may use.
    @Test func aPlacedThreadStartsOnItsCPUAndIsReleased() throws {
        let callerCPUs = try #require(CPUPlacement.callingThreadCPUs())
        guard let placement = CPUPlacement() else {
            #expect(callerCPUs.count == 1, "no placement with \(callerCPUs.count) CPUs allowed")
            print("WorkerThreadsTests: the process may use one CPU; no thread is placed, so placement is not checked")
            return
        }
        for worker in 1...(2 * callerCPUs.count) {
            let seen = Seen()
            let started = WorkerThreads.start(worker, placement) {
                seen.placed = CPUPlacement.callingThreadCPUs()
                seen.current = CPUPlacement.currentCPU()
                placement.release()
                seen.released = CPUPlacement.callingThreadCPUs()
            }
            let thread = try #require(started)
            pthread_join(thread, nil)
            let cpu = placement.cpu(for: worker)
            #expect(callerCPUs.contains(cpu))
            #expect(seen.placed == [cpu], "worker \(worker)")
            #expect(seen.current == cpu, "worker \(worker)")
            #expect(seen.released == callerCPUs, "worker \(worker)")
        }
        // The CPUs in turn, each once in as many workers as there are CPUs.
        #expect(Set((1...callerCPUs.count).map(placement.cpu)) == Set(callerCPUs))
    }

    /// A placement the system refuses (a CPU this machine does not have) leaves the thread to
    /// start where the kernel puts it, rather than not at all.
    @Test func aThreadRefusedItsCPUStartsAnyway() throws {
        let callerCPUs = try #require(CPUPlacement.callingThreadCPUs())
        let missing = 1023
        try #require(!callerCPUs.contains(missing))
        let placement = try #require(CPUPlacement(cpus: [missing]))
        let seen = Seen()
        let started = WorkerThreads.start(1, placement) { seen.placed = CPUPlacement.callingThreadCPUs() }
        let thread = try #require(started)
        pthread_join(thread, nil)
        #expect(seen.placed == callerCPUs)
    }

    /// What a thread saw of its CPUs.
    final class Seen: @unchecked Sendable {
        var placed: [Int]?, current: Int?, released: [Int]?
    }
}
