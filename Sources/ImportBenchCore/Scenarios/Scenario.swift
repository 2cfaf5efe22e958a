/// A payload family: its schema, a deterministic generator and a streaming reader for files of its shape.
public protocol Scenario: Sendable {
    /// The name used on the command line (`chat`).
    var name: String { get }
    /// One line for `bench list` and `--help`.
    var summary: String { get }
    var schema: Schema { get }
    /// Writes the payload for `scale` (1 = the scenario's base size) and `seed` to `path`, streaming:
    /// memory does not grow with scale. Same scale and seed, same bytes.
    func generate(scale: Double, seed: UInt64, to path: String) throws
    /// Opens a streaming reader over a payload file of this scenario's shape.
    func openReader(path: String) throws -> any RecordReader
}
