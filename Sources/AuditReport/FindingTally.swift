import AuditCore

/// The findings counted by level, family and context, the active ones (also by level), and the
/// inputs that have an active finding: one pass, each finding read where it lies. Every report's summary reads
/// it; counted with a filter a count, the HTML report copied each finding a dozen times.
struct FindingTally {
    static let levels = Level.allCases
    static let families = Family.allCases
    static let contexts = ScanContext.allCases

    /// Indexed as `levels`, `families` and `contexts`.
    private(set) var byLevel = [Int](repeating: 0, count: levels.count)
    private(set) var byFamily = [Int](repeating: 0, count: families.count)
    private(set) var byContext = [Int](repeating: 0, count: contexts.count)
    private(set) var active = 0
    private(set) var activeByLevel = [Int](repeating: 0, count: levels.count)
    /// The number of inputs with an active finding.
    private(set) var inputsWithActive = 0

    init(_ findings: [Finding]) {
        var inputs = Set<String>()
        var lastInput: String?
        // The cases read once, not through their lazily made statics at every finding.
        let levels = Self.levels, families = Self.families, contexts = Self.contexts
        findings.withUnsafeBufferPointer { findings in
            for i in findings.indices {
                let level = levels.firstIndex(of: findings[i].level)!
                byLevel[level] += 1
                byFamily[families.firstIndex(of: findings[i].family)!] += 1
                byContext[contexts.firstIndex(of: findings[i].context)!] += 1
                guard findings[i].isActive else { continue }
                active += 1
                activeByLevel[level] += 1
                // Findings come by input: the set is asked only where the input changes.
                if findings[i].artifact != lastInput {
                    inputs.insert(findings[i].artifact)
                    lastInput = findings[i].artifact
                }
            }
        }
        inputsWithActive = inputs.count
    }

    func count(_ level: Level) -> Int { byLevel[Self.levels.firstIndex(of: level)!] }
    func activeCount(_ level: Level) -> Int { activeByLevel[Self.levels.firstIndex(of: level)!] }
    func count(_ family: Family) -> Int { byFamily[Self.families.firstIndex(of: family)!] }
    func count(_ context: ScanContext) -> Int { byContext[Self.contexts.firstIndex(of: context)!] }
}
