import ArgumentParser
import Foundation

/// Every exit status `bench` uses, with what it means, in one table: the code, `bench --help`, each
/// subcommand's help and docs/ci.md all take it from here (a test checks docs/ci.md's copy).
enum ExitStatus: Int32, CaseIterable {
    case success = 0
    case failure = 1
    case regression = 2
    case invalidData = 3
    case improvementsOnly = 4
    case refusedResults = 5
    case expectationBroken = 6
    case usage = 64
    /// 128 + the signal's number; SIGINT's stands for all three.
    case stoppedBySignal = 130

    /// One line, short enough that `--help` does not wrap it.
    var meaning: String {
        switch self {
        case .success: return "done: every run valid, comparison unchanged, file written"
        case .failure: return "unusable input or a failed import (the message says where and why)"
        case .regression: return "compare, gate: a regression, or a baseline row missing"
        case .invalidData: return "run: a strategy wrote data that differs from the payload's"
        case .improvementsOnly: return "compare: improvements only; gate: counts improved"
        case .refusedResults: return "compare, gate, report: a results file refused"
        case .expectationBroken: return "run, gate, report: an expectation broken (or undecided, --strict)"
        case .usage: return "an invalid or missing argument (one line on stderr says which)"
        case .stoppedBySignal: return "stopped by signal N, its batch rolled back (130: Ctrl-C)"
        }
    }

    /// How the table writes the status.
    var label: String { self == .stoppedBySignal ? "128+N" : String(rawValue) }

    var exitCode: ExitCode { ExitCode(rawValue) }

    /// Lines of the table for the statuses a command can end with, for its `--help`.
    static func help(_ statuses: [ExitStatus]) -> String {
        "Exit status:\n" + statuses.map { "  " + $0.label.padding(toLength: 7, withPad: " ", startingAt: 0) + $0.meaning }.joined(separator: "\n")
    }

    /// The whole table as Markdown, as docs/ci.md carries it.
    static var markdownTable: String {
        "| status | meaning |\n|---|---|\n" + allCases.map { "| \($0.label) | \($0.meaning) |" }.joined(separator: "\n") + "\n"
    }
}
