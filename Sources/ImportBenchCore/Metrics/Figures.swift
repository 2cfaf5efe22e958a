/// How a figure reads in any line bench prints, so the header the core writes and the tables the
/// reporters write state sizes and counts alike.
package enum Figures {
    /// Bytes as MB with one decimal, as every header and table line states a size.
    package static func megabytes(_ bytes: Int64) -> String { String(format: "%.1f", Double(bytes) / 1_048_576) }

    /// Thousands separated, so 66,412 reads at a glance.
    package static func count(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var grouped = ""
        for (offset, character) in digits.enumerated() {
            if offset > 0 && (digits.count - offset) % 3 == 0 { grouped.append(",") }
            grouped.append(character)
        }
        return (value < 0 ? "-" : "") + grouped
    }
}
