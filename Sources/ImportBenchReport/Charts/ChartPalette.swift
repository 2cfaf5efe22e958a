import ImportBenchCore

/// One colour and marker per strategy, the same in every chart of a report: each strategy keyed by
/// the place its first run takes in the results, so the order the runner listed them in (naive
/// first) gives each the same colour every time, whatever strategies a plug-in adds.
struct ChartPalette {
    enum Marker: CaseIterable { case circle, square, triangle, diamond, invertedTriangle }

    /// Colour-blind-safe enough at a glance (Tableau 10 order rearranged), paired with the markers.
    static let knownColours = ["#d62728", "#ff7f0e", "#1f77b4", "#2ca02c", "#9467bd", "#555555", "#8c564b"]
    static let spareColours = ["#17becf", "#bcbd22", "#e377c2", "#7f7f7f", "#aec7e8", "#ffbb78"]

    private let indexes: [String: Int]
    private let order: [String]

    init(strategies: some Collection<String>) {
        var indexes: [String: Int] = [:]
        var order: [String] = []
        for name in strategies where indexes[name] == nil {
            indexes[name] = order.count
            order.append(name)
        }
        self.indexes = indexes
        self.order = order
    }

    func colour(_ strategy: String) -> String {
        let index = indexes[strategy] ?? 0
        let known = Self.knownColours.count
        return index < known ? Self.knownColours[index] : Self.spareColours[(index - known) % Self.spareColours.count]
    }

    func marker(_ strategy: String) -> Marker {
        Marker.allCases[(indexes[strategy] ?? 0) % Marker.allCases.count]
    }

    /// The strategies given, in report order: the order of their first runs.
    func sorted(_ strategies: some Collection<String>) -> [String] {
        let present = Set(strategies)
        return order.filter(present.contains)
    }
}
