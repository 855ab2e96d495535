extension String {
    /// `other` in storage of its own. A string copied into every finding or rule of a scan
    /// thread (an artifact's name, a rule file's name) is retained and released with each copy,
    /// and two threads doing so on one string contend for its reference count; each thread
    /// gets its own (BENCHMARKS.md, "Objects the workers share"). A string of up to 15 UTF-8
    /// bytes is stored inline and has no storage to share.
    public init(unsharedCopyOf other: String) {
        self = String(decoding: Array(other.utf8), as: UTF8.self)
    }
}
