import Foundation
import ImportBenchCore

/// Progress on stderr: a live line when someone watches a terminal; nothing when either output
/// goes to a file or a pipe (a CI log, `bench run > results.txt`), which would keep the line's
/// redraws.
final class ProgressReporter {
    private let enabled: Bool
    private let live: Bool
    private var lastDraw = 0.0
    private var current = ""
    private var started = Date()

    init(enabled: Bool) {
        self.enabled = enabled
        self.live = enabled && isatty(STDERR_FILENO) != 0 && isatty(STDOUT_FILENO) != 0
    }

    func observe(_ event: BenchmarkEvent) {
        guard enabled else { return }
        switch event {
        case .generatingPayload:
            draw("generating payload...", force: true)
        case .readingExpectedContent:
            draw("reading payload for the expected content...", force: true)
        case .preparing(_, let task):
            draw("\(task)...", force: true)
        case .runStarted(let strategy, let repetition, let index, let total):
            current = "[\(index)/\(total)] \(strategy)" + (repetition > 1 ? " (repetition \(repetition))" : "")
            started = Date()
            draw(current, force: true)
        case .runProgress(_, let occurrences, let expected):
            let elapsed = String(format: "%.1f", Date().timeIntervalSince(started))
            // A command that says nothing of its progress: its elapsed time alone (occurrences -1).
            let done = occurrences >= 0 ? "\(occurrences)/\(expected) occurrences, " : ""
            draw("\(current): \(done)\(elapsed) s", force: false)
        case .replayingCReference:
            draw("\(current): replaying its rows through the C reference (untimed)...", force: true)
        case .runFinished(let result, _):
            let line = "\(current): \(String(format: "%.3f", result.measurement.wallSeconds)) s, \(result.valid ? "valid" : "INVALID")"
            draw(line, force: true)
        }
    }

    func finish() {
        if live { write("\r\u{1B}[K") }
    }

    private func draw(_ text: String, force: Bool) {
        guard live else { return }
        let now = Date().timeIntervalSince1970
        guard force || now - lastDraw > 0.1 else { return }
        lastDraw = now
        write("\r\u{1B}[K" + text)
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
