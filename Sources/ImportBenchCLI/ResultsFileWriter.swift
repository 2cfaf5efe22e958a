import Foundation
import ImportBenchCore
import ImportBenchReport

/// Keeps `bench run`'s results file current: every finished run is in it at once (written whole,
/// then renamed over it), so Ctrl-C, SIGTERM or a crash keeps what finished and the file is valid
/// at every moment. A write that fails on the way is reported once and tried again with the next
/// run; only the last write counts.
final class ResultsFileWriter {
    let path: String
    /// How many rows the last successful write holds.
    private(set) var rowsWritten = 0
    private var warned = false

    init(path: String) {
        self.path = path
    }

    func write(_ rows: [RunResult]) {
        do {
            try CSVReport.write(rows, to: path)
            rowsWritten = rows.count
        } catch {
            guard !warned else { return }
            warned = true
            FileHandle.standardError.write(
                Data("bench: cannot write \(path) yet (\(error.localizedDescription)); trying again after the next run\n".utf8))
        }
    }
}
