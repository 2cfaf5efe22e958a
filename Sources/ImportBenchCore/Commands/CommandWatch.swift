import CProcess
import Foundation

/// Watches a command while it runs, ten times a second: stops its group when its time is up
/// (SIGTERM, then SIGKILL after the grace), kills it (SIGKILL) the grace after bench is asked to
/// stop (the interrupt handler passes the stopping signal itself on at once: a command that traps
/// it cannot keep bench waiting), and keeps its output files to their last `kept` bytes on disk.
/// Everything it does happens under a lock that `cancel` takes too, so nothing is sent to the
/// command, and no file of it touched, once the caller has gone on.
final class CommandWatch: @unchecked Sendable {
    // @unchecked: every mutable property is only touched under `lock`.
    private let lock = NSLock()
    private let command: importbench_command
    private let stopRequested: @Sendable () -> Bool
    private let grace: Double
    private let kept: Int64
    private var streams: [(descriptor: Int32, punched: Int64)]
    private let deadline: ContinuousClock.Instant?
    private var killAt: ContinuousClock.Instant?
    private var terminated = false
    private var killed = false
    private var cancelled = false
    private var didTimeOut = false
    private let timer: DispatchSourceTimer

    init(
        command: importbench_command, timeout: Double?, grace: Double, stopRequested: @escaping @Sendable () -> Bool, streams: [Int32],
        kept: Int64
    ) {
        self.command = command
        self.stopRequested = stopRequested
        self.grace = grace
        self.kept = kept
        self.streams = streams.map { ($0, 0) }
        let started = ContinuousClock.now
        deadline = timeout.map { started + .milliseconds(Int64(($0 * 1000).rounded(.up))) }
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue.global())
        timer.schedule(deadline: .now() + 0.1, repeating: 0.1, leeway: .milliseconds(20))
        timer.setEventHandler { [weak self] in self?.tick() }
        timer.resume()
    }

    private func tick() {
        lock.withLock {
            guard !cancelled else { return }
            let now = ContinuousClock.now
            if let deadline, now >= deadline, !terminated {
                terminated = true
                didTimeOut = true
                relay(SIGTERM)
                killAt = min(killAt ?? now + .seconds(grace), now + .seconds(grace))
            }
            if killAt == nil, stopRequested() { killAt = now + .seconds(grace) }
            if let killAt, now >= killAt, !killed {
                killed = true
                relay(SIGKILL)
            }
            keepTails()
        }
    }

    /// Under `lock`.
    private func keepTails() {
        for index in streams.indices where streams[index].descriptor >= 0 {
            // A file system that cannot punch holes keeps the whole file.
            if importbench_keep_tail(streams[index].descriptor, kept, &streams[index].punched) != 0 { streams[index].descriptor = -1 }
        }
    }

    private func relay(_ signal: Int32) {
        var command = command
        importbench_command_relay(&command, signal)
    }

    /// Whether the timeout ended the command.
    var timedOut: Bool { lock.withLock { didTimeOut } }

    /// The command ended: nothing more to stop; its files kept short a last time, then left alone.
    func cancel() {
        lock.withLock {
            guard !cancelled else { return }
            cancelled = true
            keepTails()
        }
        timer.cancel()
    }
}
