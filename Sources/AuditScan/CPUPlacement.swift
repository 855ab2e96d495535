#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the worker threads of a scan start: each on the next of the CPUs the process may use
/// after the one the starting thread runs on, and free to move once it runs. Left to the kernel
/// (Linux 6.18 here), the second worker started on the first one's CPU, and the two took turns
/// on it, the other CPU idle, until the kernel moved one: up to 39 ms of waiting in a scan of the
/// 100 MB HAR (`bench/thread-placement`), and the second worker began 2 to 3.6 ms after the
/// first (`bench/serial-phases`). Started on the other CPU, it begins 0.1 ms after.
///
/// The calls are glibc's GNU extensions, which Swift's Glibc module does not declare: they are
/// looked up by name, and without them (or on another system) threads start where the kernel
/// puts them.
struct CPUPlacement {
    private typealias SetAttributeAffinity = @convention(c) (UnsafeMutablePointer<pthread_attr_t>, Int, UnsafeRawPointer) -> Int32
    private typealias SetAffinity = @convention(c) (pid_t, Int, UnsafeRawPointer) -> Int32
    private typealias GetAffinity = @convention(c) (pid_t, Int, UnsafeMutableRawPointer) -> Int32
    private typealias GetCPU = @convention(c) () -> Int32

    /// The bytes of glibc's `cpu_set_t`, a bit a CPU.
    private static let maskSize = 128
    private let setAttributeAffinity: SetAttributeAffinity
    private let setAffinity: SetAffinity
    /// The mask of the CPUs the process may use.
    private let allowed: [UInt8]
    /// The CPUs threads start on, in turn.
    private let order: [Int]

    /// Threads placed on the CPUs the process may use, in turn, beginning after the calling
    /// thread's; nil when the process may use one CPU, or the calls are missing.
    init?() {
        guard let allowed = CPUPlacement.callingThreadMask(), let current = CPUPlacement.currentCPU() else { return nil }
        let cpus = CPUPlacement.members(of: allowed)
        guard cpus.count > 1, let here = cpus.firstIndex(of: current) else { return nil }
        self.init(cpus: Array(cpus[(here + 1)...] + cpus[...here]), allowed: allowed)
    }

    /// Threads placed on `cpus` in turn, each then let run on the CPUs the calling thread may
    /// use; nil when the calls are missing.
    init?(cpus: [Int]) {
        guard let allowed = CPUPlacement.callingThreadMask() else { return nil }
        self.init(cpus: cpus, allowed: allowed)
    }

    /// Threads placed on `cpus` in turn, each then let run on the CPUs of the mask `allowed`.
    private init?(cpus: [Int], allowed: [UInt8]) {
        guard let setAttributeAffinity = CPUPlacement.lookUp("pthread_attr_setaffinity_np", as: SetAttributeAffinity.self),
              let setAffinity = CPUPlacement.lookUp("sched_setaffinity", as: SetAffinity.self), !cpus.isEmpty,
              cpus.allSatisfy({ (0..<(CPUPlacement.maskSize * 8)).contains($0) }) else { return nil }
        self.setAttributeAffinity = setAttributeAffinity
        self.setAffinity = setAffinity
        self.allowed = allowed
        self.order = cpus
    }

    /// The CPU a thread started with `place(worker, in:)` starts on.
    func cpu(for worker: Int) -> Int {
        order[(worker - 1) % order.count]
    }

    /// Sets `attributes` to start a thread on the CPU for `worker` (1 and up).
    func place(_ worker: Int, in attributes: inout pthread_attr_t) {
        var only = [UInt8](repeating: 0, count: CPUPlacement.maskSize)
        let cpu = cpu(for: worker)
        only[cpu / 8] = UInt8(1) << (cpu % 8)
        _ = setAttributeAffinity(&attributes, only.count, only)
    }

    /// Lets the calling thread, started where `place` said, run on any CPU the process may use.
    func release() {
        _ = setAffinity(0, allowed.count, allowed)
    }

    /// The CPUs the calling thread may run on, lowest first; nil when that cannot be told.
    static func callingThreadCPUs() -> [Int]? {
        callingThreadMask().map(members)
    }

    /// The CPU the calling thread runs on; nil when that cannot be told.
    static func currentCPU() -> Int? {
        guard let getCPU = lookUp("sched_getcpu", as: GetCPU.self) else { return nil }
        let cpu = getCPU()
        return cpu >= 0 ? Int(cpu) : nil
    }

    private static func callingThreadMask() -> [UInt8]? {
        guard let getAffinity = lookUp("sched_getaffinity", as: GetAffinity.self) else { return nil }
        var mask = [UInt8](repeating: 0, count: maskSize)
        return getAffinity(0, mask.count, &mask) == 0 ? mask : nil
    }

    private static func members(of mask: [UInt8]) -> [Int] {
        (0..<(mask.count * 8)).filter { mask[$0 / 8] & (UInt8(1) << ($0 % 8)) != 0 }
    }

    /// A C function of the process by name (`RTLD_DEFAULT`); nil off Linux.
    private static func lookUp<Function>(_ name: String, as: Function.Type) -> Function? {
        #if os(Linux)
        dlsym(UnsafeMutableRawPointer(bitPattern: 0), name).map { unsafeBitCast($0, to: Function.self) }
        #else
        nil
        #endif
    }
}
