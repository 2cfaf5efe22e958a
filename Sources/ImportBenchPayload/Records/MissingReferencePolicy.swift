/// What happens to a reference given by key alone (a `channel_id`, a mapping's `key: PATH`) whose target is
/// neither stored before the import nor met earlier in the payload: real feeds name objects they do
/// not carry. Applied to the record stream, before any strategy and the verifier read it, so every
/// strategy writes the same data.
package enum MissingReferencePolicy: String, Sendable, Codable, CaseIterable {
    /// The import stops, naming the reference (each strategy finds it where it resolves references).
    case fail
    /// The reference is dropped: a to-one relationship becomes NULL, a set loses the member.
    case null
    /// A row holding only the key is written first, as an app's stub object, and the reference kept.
    case placeholder
}
