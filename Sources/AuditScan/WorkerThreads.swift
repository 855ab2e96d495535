import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs the workers of a scan as `DispatchQueue.concurrentPerform` runs its iterations: on as
/// many threads as there are CPUs at most, each thread taking the next worker when it is done
/// with one. But each thread after the caller's starts on a CPU of its own (`CPUPlacement`),
/// which `concurrentPerform` cannot ask for.
package enum WorkerThreads {
    /// Calls `body` with every worker of 0 ..< `count` and returns when every call has; worker 0
    /// first, on the calling thread. A thread that cannot be started leaves its first worker to
    /// the calling thread.
    package static func run(count: Int, _ body: @Sendable (Int) -> Void) {
        let threads = min(count, ProcessInfo.processInfo.activeProcessorCount)
        guard threads > 1 else {
            for worker in 0..<count { body(worker) }
            return
        }
        let queue = WorkerQueue(first: threads, count: count)
        let placement = CPUPlacement()
        withoutActuallyEscaping(body) { body in
            // A thread's first worker, then the next not yet begun, until none is left.
            let work = { (first: Int) in
                var worker: Int? = first
                while let current = worker {
                    body(current)
                    worker = queue.next()
                }
            }
            var started: [pthread_t] = []
            var unstarted: [Int] = []
            for thread in 1..<threads {
                if let handle = start(thread, placement, {
                    placement?.release()
                    work(thread)
                }) {
                    started.append(handle)
                } else {
                    unstarted.append(thread)
                }
            }
            work(0)
            for thread in unstarted { work(thread) }
            for handle in started { pthread_join(handle, nil) }
        }
    }

    /// The workers no thread has begun yet.
    private final class WorkerQueue: @unchecked Sendable {
        private let lock = NSLock()
        private var following: Int
        private let count: Int

        /// Workers 0 ..< `first` are each a thread's first; the queue holds the rest.
        init(first: Int, count: Int) {
            following = first
            self.count = count
        }

        func next() -> Int? {
            lock.lock()
            defer { lock.unlock() }
            guard following < count else { return nil }
            following += 1
            return following - 1
        }
    }

    /// The closure a thread runs, retained until the thread takes it.
    private final class Work {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    /// Thread `thread` (1 and up) running `work`, started where `placement` puts it (which
    /// `work` releases), or with the C library's default attributes when there is no placement
    /// or the thread cannot start there (an affinity the system refuses); nil when no thread
    /// can be started.
    static func start(_ thread: Int, _ placement: CPUPlacement?, _ work: @escaping () -> Void) -> pthread_t? {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        let box = Unmanaged.passRetained(Work(work)).toOpaque()
        var handle = pthread_t()
        func create() -> Int32 {
            pthread_create(&handle, &attributes, { box in
                Unmanaged<Work>.fromOpaque(box!).takeRetainedValue().run()
                return nil
            }, box)
        }
        if let placement {
            placement.place(thread, in: &attributes)
            if create() == 0 { return handle }
            pthread_attr_destroy(&attributes)
            pthread_attr_init(&attributes)
        }
        guard create() == 0 else {
            Unmanaged<Work>.fromOpaque(box).release()
            return nil
        }
        return handle
    }
}
