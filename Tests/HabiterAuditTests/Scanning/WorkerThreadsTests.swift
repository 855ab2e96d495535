@testable import AuditScan
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The workers' threads: every worker runs once, at once with the others, worker 0 on the
/// calling thread; each other thread starts on the CPU `CPUPlacement` names and is then free to
/// run on any the process may use.
@Suite struct WorkerThreadsTests {
    /// What the workers saw, from their threads.
    final class Record: @unchecked Sendable {
        private let lock = NSLock()
        private var entries: [(worker: Int, onCaller: Bool, cpus: [Int]?)] = []

        func add(_ worker: Int, onCaller: Bool) {
            let cpus = CPUPlacement.callingThreadCPUs()
            lock.lock()
            entries.append((worker, onCaller, cpus))
            lock.unlock()
        }

        var sorted: [(worker: Int, onCaller: Bool, cpus: [Int]?)] {
            lock.lock()
            defer { lock.unlock() }
            return entries.sorted { $0.worker < $1.worker }
        }
    }

    @Test(arguments: [0, 1, 2, 3, 5])
    func everyWorkerRunsOnceWorkerZeroOnTheCaller(count: Int) {
        let record = Record()
        let caller = pthread_self()
        WorkerThreads.run(count: count) { worker in
            record.add(worker, onCaller: pthread_equal(pthread_self(), caller) != 0)
        }
        let seen = record.sorted
        #expect(seen.map(\.worker) == Array(0..<count))
        #expect(seen.map(\.onCaller) == (0..<count).map { $0 == 0 })
        // Released from where it started: a thread may run on every CPU the caller may.
        let callerCPUs = CPUPlacement.callingThreadCPUs()
        #expect(callerCPUs != nil)
        for entry in seen {
            #expect(entry.cpus == callerCPUs, "worker \(entry.worker)")
        }
    }

    /// Each worker waits for the next one's signal: run one after another, the first would wait
    /// its ten seconds in vain.
    @Test func theWorkersRunAtOnce() {
        let count = 3
        let signals = (0..<count).map { _ in DispatchSemaphore(value: 0) }
        let heard = Record()
        WorkerThreads.run(count: count) { worker in
            signals[worker].signal()
            if signals[(worker + 1) % count].wait(timeout: .now() + 10) == .success {
                heard.add(worker, onCaller: false)
            }
        }
        #expect(heard.sorted.map(\.worker) == Array(0..<count))
    }

    /// A thread started with `place` may run only on its CPU until it calls `release`, and then
    /// on every CPU the process may use.
    @Test func aPlacedThreadStartsOnItsCPUAndIsReleased() throws {
        let callerCPUs = try #require(CPUPlacement.callingThreadCPUs())
        guard let placement = CPUPlacement() else {
            #expect(callerCPUs.count == 1, "no placement with \(callerCPUs.count) CPUs allowed")
            print("WorkerThreadsTests: the process may use one CPU; no thread is placed, so placement is not checked")
            return
        }
        for worker in 1...(2 * callerCPUs.count) {
            final class Seen: @unchecked Sendable {
                var placed: [Int]?, current: Int?, released: [Int]?
            }
            let seen = Seen()
            var attributes = pthread_attr_t()
            pthread_attr_init(&attributes)
            defer { pthread_attr_destroy(&attributes) }
            placement.place(worker, in: &attributes)
            let work = Unmanaged.passRetained(UncheckedWork {
                seen.placed = CPUPlacement.callingThreadCPUs()
                seen.current = CPUPlacement.currentCPU()
                placement.release()
                seen.released = CPUPlacement.callingThreadCPUs()
            }).toOpaque()
            var thread = pthread_t()
            try #require(pthread_create(&thread, &attributes, { work in
                Unmanaged<UncheckedWork>.fromOpaque(work!).takeRetainedValue().run()
                return nil
            }, work) == 0)
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

    final class UncheckedWork: @unchecked Sendable {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }
}
