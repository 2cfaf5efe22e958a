/// A method as its runs get it, once prepared, and what preparing it made or found (seed-copy: the
/// store it adopts), which the method describes itself; the runner and front ends only pass it on.
package struct PreparedMethod: Sendable {
    package var method: ImportMethod
    /// Nil when there was nothing to prepare.
    package var report: (any PreparationReport)?

    package init(method: ImportMethod, report: (any PreparationReport)? = nil) {
        self.method = method
        self.report = report
    }
}

/// What preparing a method made or found, as the method describes it: a front end prints its line
/// in the run's header without knowing which method it was.
package protocol PreparationReport: Sendable {
    /// One line ending in a newline, naming the method.
    var headerLine: String { get }
}
