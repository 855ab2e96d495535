import AuditDetection
import AuditInputs

/// What a worker keeps from one input to the next: what it learnt of key names
/// (`KeyFactsCache`), the values in which nothing was found (`QuietValues`), the layer
/// decoders' gate tables and the last field-list comparisons of the contract checks
/// (`FieldListComparisons`). None of it depends on the input, only on the rules, which are the
/// worker's for all its inputs. Made anew for every input they cost a directory of small files
/// a fifth of its instructions (BENCHMARKS.md, "A directory of small files"). One per thread,
/// like the worker's `RegexMatcher`: nothing in it is locked.
final class WorkerCaches {
    /// The rules whose judgements the caches hold.
    let rules: RulePack
    let keyFacts = KeyFactsCache()
    let quietValues = QuietValues()
    let layerDecoders = LayerDecoderSet(LayerDecoders.standard)
    let fieldLists = FieldListComparisons()

    init(rules: RulePack) {
        self.rules = rules
    }
}
