import Foundation
import ImportBenchCore
import ImportBenchStrategies
import Testing

@testable import ImportBenchReport

/// Runs built in memory: each strategy's wall time per repetition, its role and verdict, so every
/// expectation below is computed from the inputs rather than copied from the output.
private struct Runs {
    var runs: [ResultsRow] = []

    /// Three repetitions at 0.9, 1 and 1.2 times `wall` (median: `wall` itself), each with `fetches`.
    mutating func add(
        _ strategy: String, role: StrategyRole = .user, wall: Double, scale: String = "1x", batch: String = "1000", pragmas: String = "",
        decodeAhead: String = "off", preload: String = "", probeHz: String = "", fetches: Double = 10, invalidRepetition: Int? = nil,
        factors: [Double] = [0.9, 1, 1.2]
    ) throws {
        let size = RunSize(try #require(Scale(parsing: scale)))
        for (index, factor) in factors.enumerated() {
            runs.append(
                ResultsRow(
                    scenario: "chat", strategy: strategy, role: role.rawValue, scale: size, preload: preload, batchSize: batch,
                    repetition: index + 1, journalMode: "wal", synchronous: "normal", probeHz: probeHz, pragmas: pragmas,
                    decodeAhead: decodeAhead, valid: invalidRepetition != index + 1,
                    values: ["wall_s": wall * factor, "fetch_count": fetches * factor]))
        }
    }

    /// The ceiling and `walls`' strategies at one setting; the ceiling's role is what marks it.
    static func group(
        _ walls: [(String, Double)], ceiling: Double = 1, scale: String = "1x", batch: String = "1000", pragmas: String = "",
        decodeAhead: String = "off"
    ) throws -> Runs {
        var runs = Runs()
        for (strategy, wall) in walls {
            try runs.add(strategy, wall: wall, scale: scale, batch: batch, pragmas: pragmas, decodeAhead: decodeAhead)
        }
        try runs.add("ceiling", role: .limit, wall: ceiling, scale: scale, batch: batch, pragmas: pragmas, decodeAhead: decodeAhead)
        return runs
    }

    var answer: AnswerReport { ChartReport(ReportInput(runs: runs)).answer }
    var html: String { HTMLReport.render(ChartReport(ReportInput(runs: runs))) }
}

/// The median as the report defines it: the middle value, or the mean of the two middle ones.
private func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

@Suite("bench report answers first")
struct AnswerReportTests {
    private static let walls: [(String, Double)] = [("naive", 4.0), ("prewarm", 1.5), ("upsert", 2.5), ("idcache", 3.0)]

    /// seed-copy and commands never probe: their rows leave the probe's column empty in a probed run.
    @Test("a run that never probes joins the probed runs of its setting, unless an unprobed ceiling ran there too", arguments: [false, true])
    func unprobedRowsJoinTheirProbedSetting(unprobedSettingToo: Bool) throws {
        var runs = Runs()
        try runs.add("prewarm", wall: 2, probeHz: "60")
        try runs.add("ceiling", role: .limit, wall: 1, probeHz: "60")
        try runs.add("seed-copy", role: .alternative, wall: 0.5)
        if unprobedSettingToo {
            try runs.add("prewarm", wall: 1.8)
            try runs.add("ceiling", role: .limit, wall: 0.9)
        }
        let groups = runs.answer.groups
        #expect(groups.count == (unprobedSettingToo ? 2 : 1))
        let probed = try #require(groups.first { $0.identity.probeHz == "60" })
        #expect(probed.standings.contains { $0.strategy == "seed-copy" } == !unprobedSettingToo)
        let seedCopy = try #require(groups.flatMap(\.standings).first { $0.strategy == "seed-copy" })
        #expect(seedCopy.multipleOfCeiling == 0.5 / (unprobedSettingToo ? 0.9 : 1))
    }

    @Test("a wall time of zero gives no multiple rather than an infinite one")
    func zeroTimeHasNoMultiple() throws {
        var runs = try Runs.group([("prewarm", 2)], ceiling: 0)
        try runs.add("naive", wall: 0)
        let group = try #require(runs.answer.groups.first)
        for standing in group.standings { #expect(standing.multipleOfCeiling == nil, "\(standing.strategy)") }
        #expect(group.standings.allSatisfy { ($0.multipleOfFastest ?? 1).isFinite })
    }

    @Test("the fastest valid strategy is named, in the group and first in the table", arguments: ["naive", "prewarm", "upsert", "idcache"])
    func fastestNamed(winner: String) throws {
        // The winner's time is made the smallest; the others keep theirs.
        let walls = Self.walls.map { ($0.0, $0.0 == winner ? 0.5 : $0.1) }
        let runs = try Runs.group(walls)
        let group = try #require(runs.answer.groups.first)
        #expect(group.fastest?.strategy == winner)
        #expect(group.standings.first?.strategy == winner)
        #expect(runs.html.contains("<tr class=\"fastest\" data-strategy=\"\(winner)\">"))
        #expect(runs.html.contains("fastest: \(winner)</span>"))
    }

    @Test("an invalid strategy is marked and never ranked, however fast; the next valid one wins", arguments: [1, 2, 3])
    func invalidNotRanked(repetition: Int) throws {
        var runs = try Runs.group(Self.walls)
        try runs.add("replace", role: .user, wall: 0.1, invalidRepetition: repetition)
        let group = try #require(runs.answer.groups.first)
        let invalid = try #require(group.standings.first { $0.strategy == "replace" })
        #expect(invalid.rank == nil)
        #expect(invalid.isInvalid)
        #expect(invalid.verdict.hasPrefix("INVALID"))
        let fastestValid = Self.walls.min { $0.1 < $1.1 }?.0
        #expect(group.fastest?.strategy == fastestValid)
        #expect(group.standings.last?.strategy == "replace")
        #expect(runs.html.contains("<tr class=\"invalid\" data-strategy=\"replace\">"))
    }

    @Test(
        "multiples of the fastest and of the ceiling are the medians' ratios",
        arguments: [[0.9, 1.0, 1.2], [1.0, 3.0, 2.0, 1.5], [2.0]])
    func multiples(factors: [Double]) throws {
        var runs = Runs()
        for (strategy, wall) in Self.walls { try runs.add(strategy, wall: wall, factors: factors) }
        try runs.add("ceiling", role: .limit, wall: 0.8, factors: factors.reversed())
        var medians: [String: Double] = [:]
        for (strategy, wall) in Self.walls + [("ceiling", 0.8)] { medians[strategy] = median(factors.map { wall * $0 }) }
        let fastest = try #require(Self.walls.map { medians[$0.0] ?? .infinity }.min())
        let ceiling = try #require(medians["ceiling"])
        let group = try #require(runs.answer.groups.first)
        for standing in group.standings {
            let wall = try #require(medians[standing.strategy])
            #expect(abs((standing.multipleOfFastest ?? -1) - wall / fastest) < 1e-12, "\(standing.strategy)")
            #expect(abs((standing.multipleOfCeiling ?? -1) - wall / ceiling) < 1e-12, "\(standing.strategy)")
            #expect(standing.fetches == median(factors.map { 10 * $0 }))
            #expect(standing.repetitions == factors.count)
        }
        let ranked = group.standings.filter { $0.rank != nil }.map(\.strategy)
        #expect(ranked == Self.walls.sorted { $0.1 < $1.1 }.map(\.0))
    }

    @Test("the ceiling is the run whose role is reference, whatever it is called")
    func ceilingByRole() throws {
        var runs = Runs()
        try runs.add("prewarm", wall: 2)
        try runs.add("ceiling", role: .user, wall: 1)
        try runs.add("floor", role: .limit, wall: 0.5)
        let group = try #require(runs.answer.groups.first)
        #expect(group.ceiling?.strategy == "floor")
        #expect(group.fastest?.strategy == "ceiling")
        #expect(group.standings.first { $0.strategy == "prewarm" }?.multipleOfCeiling == 2 / 0.5)
        #expect(group.standings.first { $0.strategy == "floor" }?.rank == nil)
    }

    @Test("a refresh's ceiling, which runs without the preload, is the yardstick of the preload's group")
    func refreshCeiling() throws {
        var runs = Runs()
        try runs.add("upsert", wall: 3, preload: "overlap=0.5,changed=0.1")
        try runs.add("ceiling", role: .limit, wall: 1.5)
        let groups = runs.answer.groups
        #expect(groups.count == 1)
        #expect(groups.first?.standings.first { $0.strategy == "upsert" }?.multipleOfCeiling == 2)
    }

    @Test("the winner changing with scale takes one sentence per held batch size")
    func winnerChangesWithScale() throws {
        var runs = Runs()
        for (scale, factor) in [("1x", 1.0), ("2x", 2.0), ("4x", 4.0), ("8x", 8.0)] {
            for batch in ["100", "all"] {
                // prewarm grows faster than idcache: idcache overtakes it from 4x.
                try runs.add("prewarm", wall: factor * factor, scale: scale, batch: batch)
                try runs.add("idcache", wall: 3 * factor, scale: scale, batch: batch)
            }
        }
        let sentences = runs.answer.sentences
        #expect(sentences.contains("At batch 100, prewarm is fastest up to 2x; from 4x idcache is."))
        #expect(sentences.contains("At batch all, prewarm is fastest up to 2x; from 4x idcache is."))
        #expect(
            sentences.contains(
                "The winner does not change with batch size: at every batch size, prewarm is fastest at 1x and 2x; idcache at 4x and 8x."))
        #expect(sentences.count == 3)
        #expect(runs.html.contains("<li>At batch 100, prewarm is fastest up to 2x; from 4x idcache is.</li>"))
    }

    @Test("a winner that never changes is said in one sentence")
    func winnerDoesNotChange() throws {
        var runs = Runs()
        for scale in ["1x", "2x", "4x"] {
            try runs.add("prewarm", wall: 1, scale: scale)
            try runs.add("naive", wall: 2, scale: scale)
        }
        #expect(runs.answer.sentences == ["The winner does not change with scale: prewarm is fastest at every scale."])
    }

    @Test("a pragma's values are a dimension: its winners named per value, in the order they ran")
    func winnerChangesWithPragma() throws {
        var runs = try Runs.group([("prewarm", 1), ("upsert", 2)], pragmas: "temp_store=default")
        runs.runs += try Runs.group([("prewarm", 1), ("upsert", 0.5)], ceiling: 0.8, pragmas: "temp_store=memory").runs
        let answer = runs.answer
        #expect(answer.axes.swept == [.pragma("temp_store")])
        #expect(answer.sentences == ["prewarm is fastest with temp_store=default; upsert with temp_store=memory."])
        // Each setting's multiples are taken to its own ceiling.
        #expect(answer.groups.last?.standings.first { $0.strategy == "upsert" }?.multipleOfCeiling == 0.5 / 0.8)
        #expect(answer.charts.map(\.measure) == [.ceilingMultiple, .wallTime])
    }

    @Test("decoding ahead is a dimension: its winners named per value, each multiple taken to the ceiling decoded the same way")
    func winnerChangesWithDecodingAhead() throws {
        var runs = try Runs.group([("prewarm", 1), ("upsert", 1.5)], decodeAhead: "off")
        runs.runs += try Runs.group([("prewarm", 1), ("upsert", 0.6)], ceiling: 0.9, decodeAhead: "on").runs
        let answer = runs.answer
        #expect(answer.axes.swept == [.decodeAhead])
        #expect(answer.sentences == ["prewarm is fastest with decode ahead off; upsert with decode ahead on."])
        #expect(answer.groups.last?.standings.first { $0.strategy == "upsert" }?.multipleOfCeiling == 0.6 / 0.9)
    }

    @Test("the page opens with the answer table, before every chart of the scenario")
    func pageOpensWithAnswer() throws {
        var runs = Runs()
        for scale in ["1x", "2x"] { runs.runs += try Runs.group(Self.walls, scale: scale).runs }
        let html = runs.html
        let table = try #require(html.range(of: "<table id=\"\(AnswerHTML.tableID)\""))
        let firstMetric = try #require(html.range(of: "data-metric="))
        #expect(table.lowerBound < firstMetric.lowerBound)
        #expect(html.contains("data-chart=\"ceiling-multiple\""))
    }

    @Test("an invalid point is crossed out in the chart across the sweep, and not joined to its line")
    func invalidPointMarked() throws {
        var runs = Runs()
        for scale in ["1x", "2x", "4x"] { runs.runs += try Runs.group([("prewarm", 2)], scale: scale).runs }
        try runs.add("replace", wall: 1, scale: "2x", invalidRepetition: 1)
        try runs.add("replace", wall: 1, scale: "1x")
        let chart = try #require(runs.answer.charts.first)
        #expect(chart.svg.components(separatedBy: "class=\"invalid-mark\"").count - 1 == 1)
        #expect(chart.svg.contains("× invalid run (not ranked)"))
        let unswept = try Runs.group([("prewarm", 2)]).answer.charts
        #expect(unswept.isEmpty)
    }
}

/// A first import (no preload) and a refresh (a preload) are answered apart: by the preload field
/// and the ceiling's role alone, whatever the strategies are called.
@Suite("bench report answers a first import and a refresh apart")
struct ImportKindAnswerTests {
    static let preload = "overlap=0.5,changed=0.1"

    /// The ceiling (into an empty store), `first` without a preload and `refresh` over one.
    private static func runs(first: [(String, Double)], refresh: [(String, Double)], ceiling: Double = 1) throws -> Runs {
        var runs = Runs()
        for (strategy, wall) in first { try runs.add(strategy, wall: wall) }
        for (strategy, wall) in refresh { try runs.add(strategy, wall: wall, preload: preload) }
        try runs.add("ceiling", role: .limit, wall: ceiling)
        return runs
    }

    private static func winner(_ answer: AnswerReport, _ kind: ImportKind) -> String? {
        answer.kinds.first { $0.kind == kind }?.winner?.strategy
    }

    @Test(
        "each kind names its own fastest valid strategy; one that never ran over a preload is no refresh's answer",
        arguments: [("prewarm", "upsert"), ("upsert", "prewarm")])
    func bothKinds(firstWinner: String, refreshWinner: String) throws {
        // `copy` beats both everywhere it ran, which is only into an empty store.
        let first = [("copy", 0.5), (firstWinner, 1.5), (refreshWinner, 2.5)]
        let refresh = [(firstWinner, 4.0), (refreshWinner, 3.0)]
        let runs = try Self.runs(first: first, refresh: refresh)
        let answer = runs.answer
        #expect(answer.kinds.map(\.kind) == [.firstImport, .refresh])
        #expect(Self.winner(answer, .firstImport) == "copy")
        #expect(Self.winner(answer, .refresh) == refreshWinner)
        #expect(answer.headlines == ["First import: copy, 0.50× the ceiling.", "Refresh: \(refreshWinner), 3.00× the ceiling of a first import."])
        #expect(runs.html.contains("<li>Refresh: \(refreshWinner), 3.00× the ceiling of a first import.</li>"))
    }

    @Test("results of one kind answer that kind only, and say which", arguments: [ImportKind.firstImport, .refresh])
    func oneKind(kind: ImportKind) throws {
        let walls = [("prewarm", 1.5), ("upsert", 2.5)]
        let runs = try Self.runs(first: kind == .firstImport ? walls : [], refresh: kind == .refresh ? walls : [])
        let answer = runs.answer
        // The ceiling ran without a preload in both: its rows make no first import of a refresh's results.
        #expect(answer.kinds.map(\.kind) == [kind])
        #expect(Self.winner(answer, kind) == "prewarm")
        let headline = try #require(answer.headlines.first)
        #expect(answer.headlines.count == 1)
        #expect(headline.hasPrefix(kind == .firstImport ? "First import: prewarm, 1.50× the ceiling" : "Refresh: prewarm, 1.50× the ceiling"))
    }

    @Test("a faster run that is invalid is never named; the next valid one is", arguments: [ImportKind.firstImport, .refresh])
    func invalidNeverNamed(kind: ImportKind) throws {
        var runs = try Self.runs(first: [("prewarm", 1.5), ("upsert", 2.5)], refresh: [("prewarm", 3.5), ("upsert", 2.5)])
        try runs.add("replace", wall: 0.2, preload: kind == .refresh ? Self.preload : "", invalidRepetition: 2)
        let answer = runs.answer
        #expect(Self.winner(answer, .firstImport) == "prewarm")
        #expect(Self.winner(answer, .refresh) == "upsert")
        #expect(!answer.headlines.contains { $0.contains("replace") })
    }

    @Test("the ceiling is never named, even where it is the only valid run", arguments: [ImportKind.firstImport, .refresh])
    func ceilingNeverNamed(kind: ImportKind) throws {
        var runs = Runs()
        try runs.add("ceiling", role: .limit, wall: 1)
        try runs.add("replace", wall: 2, preload: kind == .refresh ? Self.preload : "", invalidRepetition: 1)
        let answer = runs.answer
        #expect(answer.kinds.map(\.kind) == [kind])
        #expect(answer.kinds.allSatisfy { $0.winner == nil })
        #expect(answer.headlines == ["\(kind == .firstImport ? "First import" : "Refresh"): no strategy is valid."])
    }

    @Test("over several settings, the winner closest to its own ceiling is named with its setting")
    func severalSettings() throws {
        var runs = try Runs.group([("prewarm", 1.5), ("upsert", 2.5)], ceiling: 1, scale: "1x")
        runs.runs += try Runs.group([("prewarm", 2.2), ("upsert", 2.5)], ceiling: 2, scale: "2x").runs
        try runs.add("upsert", wall: 3, scale: "1x", preload: Self.preload)
        try runs.add("upsert", wall: 5, scale: "2x", preload: Self.preload)
        let headlines = runs.answer.headlines
        #expect(headlines.first == String(format: "First import: prewarm, %.2f× the ceiling, at 2x.", 2.2 / 2))
        #expect(headlines.last == "Refresh: upsert, 2.50× the ceiling of a first import, at 2x.")
    }

    @Test("a results CSV's preload column decides the kind")
    func fromCSV() throws {
        let columns = ResultColumns.names
        var defaults: [String: String] = ["csv_version": String(ResultColumns.version), "digest": "00000000deadbeef", "valid": "true"]
        for column in ResultColumns.columns where column.requiresValue && column.unit.isNumeric { defaults[column.name] = "0" }
        let rows: [(String, String, String, Double)] = [
            ("ceiling", "reference", "", 1), ("prewarm", "user", "", 1.2), ("upsert", "user", "", 1.8),
            ("prewarm", "user", Self.preload, 2.6), ("upsert", "user", Self.preload, 2.1),
        ]
        var text = CSVWriter.record(columns)
        for (strategy, role, preload, wall) in rows {
            let row = [
                "scenario": "chat", "strategy": strategy, "role": role, "scale": "1x", "preload": preload, "batch_size": "1000",
                "repetition": "1", "records": "1000", "wall_s": String(wall), "journal_mode": "wal", "synchronous": "normal",
            ]
            text += CSVWriter.record(columns.map { row[$0] ?? defaults[$0] ?? "" })
        }
        let folder = try TemporaryFolder()
        let answer = ChartReport(try ReportInput(paths: [try folder.write(text, to: "results.csv")])).answer
        #expect(answer.headlines == ["First import: prewarm, 1.20× the ceiling.", "Refresh: upsert, 2.10× the ceiling of a first import."])
    }
}
