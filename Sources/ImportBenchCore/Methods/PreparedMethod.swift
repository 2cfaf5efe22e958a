/// A method as its runs get it, once prepared, and what preparing it made or found, for a front
/// end to describe (seed-copy: the `SeedStoreReport` of the store it adopts); the runner only passes it on.
package struct PreparedMethod: Sendable {
    package var method: ImportMethod
    /// Nil when there was nothing to prepare.
    package var report: (any Sendable)?

    package init(method: ImportMethod, report: (any Sendable)? = nil) {
        self.method = method
        self.report = report
    }
}
