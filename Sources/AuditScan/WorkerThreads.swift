#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs the workers of a scan at once: worker 0 on the calling thread, each other on a thread of
/// its own, started on a CPU of its own (`CPUPlacement`), which `DispatchQueue.concurrentPerform`
/// cannot ask for.
enum WorkerThreads {
    /// Calls `body` with 0 ..< `count` and returns when every call has. A thread that cannot be
    /// started leaves its call to the calling thread, after worker 0's.
    static func run(count: Int, _ body: @Sendable (Int) -> Void) {
        guard count > 1 else {
            if count == 1 { body(0) }
            return
        }
        let placement = CPUPlacement()
        withoutActuallyEscaping(body) { body in
            var started: [(worker: Int, thread: pthread_t?)] = []
            for worker in 1..<count {
                started.append((worker, start(worker, placement) { body(worker) }))
            }
            body(0)
            for (worker, thread) in started {
                if let thread {
                    pthread_join(thread, nil)
                } else {
                    body(worker)
                }
            }
        }
    }

    /// The closure a thread runs, retained until the thread takes it.
    private final class Work {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    /// A thread running `work` for `worker`, started where `placement` puts it and then let run
    /// anywhere (with the C library's default attributes otherwise), or nil when none can be
    /// started.
    private static func start(_ worker: Int, _ placement: CPUPlacement?, _ work: @escaping () -> Void) -> pthread_t? {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        placement?.place(worker, in: &attributes)
        let box = Unmanaged.passRetained(Work { placement?.release(); work() }).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, &attributes, { box in
            Unmanaged<Work>.fromOpaque(box!).takeRetainedValue().run()
            return nil
        }, box)
        guard status == 0 else {
            Unmanaged<Work>.fromOpaque(box).release()
            return nil
        }
        return thread
    }
}
