import CProcess
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Passes a command's progress on while bench waits for it: the `occurrences N` lines it writes to
/// its progress pipe, and a tick twice a second (-1) for the elapsed time. The lines are read in one
/// pass (`importbench_progress_feed`, lines ending at `\n` or `\r`), at most
/// `IMPORTBENCH_PROGRESS_LINE_LIMIT` bytes each: a longer line ends the reading of progress, and the
/// pipe is then only drained, so the command never blocks on it nor dies of a closed pipe. Of the
/// lines read at once only the last is passed on. Its callbacks hold a lock that `finish` takes
/// too, so none runs once the caller has gone on.
final class ProgressListener: @unchecked Sendable {
    // @unchecked: `report` is only used under `lock`.
    private let lock = NSLock()
    /// Dropped by `finish`: the caller's closure is not kept past the run, however long a
    /// callback in flight holds this listener.
    private var report: ((Int) -> Void)?
    private let ticker: DispatchSourceTimer
    /// Signalled when the pipe's last writer has gone and every line is passed on.
    private let drained = DispatchSemaphore(value: 0)

    init(pipe: Int32, report: @escaping (Int) -> Void) {
        self.report = report
        ticker = DispatchSource.makeTimerSource(queue: DispatchQueue.global())
        ticker.schedule(deadline: .now() + 0.5, repeating: 0.5)
        ticker.setEventHandler { [weak self] in self?.pass(-1) }
        ticker.resume()
        guard pipe >= 0 else {
            drained.signal()
            return
        }
        let drained = drained
        let thread = Thread { [weak self] in
            let line = UnsafeMutablePointer<importbench_progress_line>.allocate(capacity: 1)
            line.initialize(to: importbench_progress_line())
            let capacity = 1 << 16
            let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
            defer {
                line.deallocate()
                buffer.deallocate()
                close(pipe)
                drained.signal()
            }
            // read(2) returns what has arrived; FileHandle's reads wait for a full buffer or the end.
            while true {
                let count = read(pipe, buffer, capacity)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                guard line.pointee.overlong == 0 else { continue }
                let occurrences = importbench_progress_feed(line, buffer, count)
                if occurrences >= 0 { self?.pass(Int(occurrences)) }
            }
        }
        thread.start()
    }

    private func pass(_ occurrences: Int) {
        lock.withLock { report?(occurrences) }
    }

    /// The command and every process it started have ended: passes on what the pipe still holds
    /// (waiting at most half a second, for a writer that is none of the command's), then nothing more.
    func finish() {
        ticker.cancel()
        _ = drained.wait(timeout: .now() + 0.5)
        lock.withLock { report = nil }
    }
}
