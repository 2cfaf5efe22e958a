import ImportBenchCore

/// The values each dimension takes across the results, in the order a reader expects: scales by
/// size, batch sizes by number with `all` last, a setting's values in the order they were run
/// (the order given on the command line). A dimension with two values or more is swept.
package struct SweepAxes: Sendable {
    private var values: [SweepDimension: [String]] = [:]

    /// `identities` in the order their runs appear in the results.
    package init(_ identities: [RunIdentity]) {
        var seen: [SweepDimension: [String]] = [:]
        var factors: [String: Double] = [:]
        for identity in identities {
            factors[identity.value(.scale)] = identity.scaleFactor
            for dimension in identity.dimensions where !(seen[dimension]?.contains(identity.value(dimension)) ?? false) {
                seen[dimension, default: []].append(identity.value(dimension))
            }
        }
        // A pragma some runs set and others did not: the others ran with SQLite's default.
        for (dimension, list) in seen where identities.contains(where: { !$0.dimensions.contains(dimension) }) && !list.contains("") {
            seen[dimension] = [""] + list
        }
        seen[.scale]?.sort { (factors[$0] ?? 0) < (factors[$1] ?? 0) }
        seen[.batchSize]?.sort { RunSettings.batchKey($0) < RunSettings.batchKey($1) }
        values = seen
    }

    /// The values of `dimension`, ordered.
    package func values(_ dimension: SweepDimension) -> [String] { values[dimension] ?? [] }

    /// The dimensions with more than one value, in sentence order.
    package var swept: [SweepDimension] { values.filter { $0.value.count > 1 }.keys.sorted() }

    /// What every run shares, said once rather than in each group's label: "1x · journal wal".
    package var shared: String {
        values.filter { $0.value.count == 1 && !($0.value.first ?? "").isEmpty }.keys.sorted()
            .map { $0.describe(values[$0]?.first ?? "") }.joined(separator: " · ")
    }

    /// Where `value` stands along `dimension`; values not seen go last.
    func position(of value: String, along dimension: SweepDimension) -> Int {
        values(dimension).firstIndex(of: value) ?? Int.max
    }
}
