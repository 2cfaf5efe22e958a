/// A built-in strategy that takes a slower way than its own when the store rules its own out, and
/// says which, so that the table and the CSV never credit its own way with a run it did not make.
package protocol FallbackReporting {
    /// A few words on the way taken instead of the strategy's own, such as "indexes kept"; nil when
    /// the strategy went its own way. Read after the import's last pass.
    var fallback: String? { get }
}
