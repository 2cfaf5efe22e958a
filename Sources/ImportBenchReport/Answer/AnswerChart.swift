/// A chart of the answer: each strategy's multiple of the ceiling (or, for a SQLite setting, its
/// wall time) across one swept dimension, the rest held.
package struct AnswerChart: Sendable {
    /// What is drawn on the y axis.
    package enum Measure: String, Sendable, CaseIterable {
        /// Each strategy's median time over the ceiling's under the same setting.
        case ceilingMultiple = "ceiling-multiple"
        /// Each strategy's median wall time, the ceiling's included: a setting moves the ceiling too.
        case wallTime = "wall-time"
    }

    package let measure: Measure
    package let dimension: SweepDimension
    /// A file name unique in the report, such as chat-ceiling-multiple-by-scale-batch-100.svg.
    package let fileName: String
    /// A standalone SVG document, also fit to inline in HTML.
    package let svg: String
}
