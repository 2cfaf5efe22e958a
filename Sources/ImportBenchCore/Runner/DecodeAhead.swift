import CProcess
import Foundation
import ImportBenchPayload
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a pass's batches come from, for the importing thread: decoded when asked
/// (`RecordBatcher`) or ahead on a thread of their own (`DecodeAhead`).
protocol BatchSource: AnyObject {
    /// The next batch, or nil at the payload's end; a decoding failure is thrown as the reader threw it.
    func next() throws -> RecordBatch?
    /// Batches handed out so far; after a failure, the index of the batch that failed.
    var batchesHandedOut: Int { get }
    /// Occurrences handed out so far, for progress.
    var occurrencesRead: Int { get }
}

extension RecordBatcher: BatchSource {}

/// A pass's batches decoded on a thread of their own, one batch ahead of the importing thread
/// (`--decode-ahead`), so decoding the next batch overlaps writing this one, as an importer that
/// parses on a background queue does. At most two batches live at once: the one being written and
/// the one decoded ahead. The batcher's interner is shared from then on (`KeyInterner.share()`).
final class DecodeAhead: BatchSource, @unchecked Sendable {
    // @unchecked: `batcher` is used by the decoding thread alone until `finish()` joins it; the
    // threads share only `handoff` and `spent` (each behind its mutex), the semaphores and
    // `stopRequested`.

    /// What the decoding thread spent, added to the import's own figures.
    struct Cost: Sendable {
        var allocatedBytes: UInt64 = 0
        /// Nil where the thread's instruction counter could not be had: then the import's count is
        /// missing too, rather than short.
        var instructions: UInt64?

        /// Two passes' costs; instructions only if both were counted.
        static func + (lhs: Cost, rhs: Cost) -> Cost {
            let instructions = lhs.instructions.flatMap { left in rhs.instructions.map { left &+ $0 } }
            return Cost(allocatedBytes: lhs.allocatedBytes &+ rhs.allocatedBytes, instructions: instructions)
        }
    }

    /// One batch (nil at the end) or the reader's error, with the batcher's counts after it: after
    /// an error, `batchesHandedOut` is the index of the batch that failed.
    private struct Decoded: Sendable {
        let batch: Result<RecordBatch?, any Error>
        let batchesHandedOut: Int
        let occurrencesRead: Int
    }

    private let batcher: RecordBatcher
    /// The batch decoded ahead, or the error that stopped decoding, until the importing thread takes it.
    private let handoff = Mutex<Decoded?>(nil)
    private let spent = Mutex(Cost())
    /// Signalled when `handoff` holds something.
    private let filled = DispatchSemaphore(value: 0)
    /// Signalled when `handoff` is empty again: the thread may decode the next batch. Every
    /// semaphore starts at 0 (this one is signalled once at the start): libdispatch traps when one
    /// is freed below its initial value.
    private let emptied = DispatchSemaphore(value: 0)
    private let stopRequested = Atomic<Bool>(false)
    /// The decoding thread, joinable: `finish()` returns once it has exited, so nothing of it
    /// outlives the pass. Nil once joined.
    private var thread: pthread_t?
    /// Set once the importing thread has taken the end or an error: nothing more will come.
    private var done = false
    private(set) var batchesHandedOut = 0
    private(set) var occurrencesRead = 0

    /// Starts decoding at once; `finish()` must follow, on every path.
    init(batcher: RecordBatcher) throws(ImportError) {
        self.batcher = batcher
        // The importing thread looks keys up (prewarm) while this thread adds them.
        batcher.interner.share()
        emptied.signal()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        // As much stack as the main thread's, which decodes when nothing runs ahead.
        pthread_attr_setstacksize(&attributes, 8 << 20)
        let context = Unmanaged.passRetained(self).toOpaque()
        var started = pthread_t()
        let code = pthread_create(
            &started, &attributes,
            { context in
                guard let context else { return nil }
                let ahead = Unmanaged<DecodeAhead>.fromOpaque(context).takeRetainedValue()
                // Named for `ps -L` and the tests; Linux keeps at most 15 bytes.
                _ = importbench_name_this_thread("bench-decode")
                ahead.decodeAll()
                return nil
            }, context)
        guard code == 0 else {
            Unmanaged<DecodeAhead>.fromOpaque(context).release()
            throw .decodingThreadCannotStart(errno: code)
        }
        thread = started
    }

    func next() throws -> RecordBatch? {
        guard !done else { return nil }
        filled.wait()
        // `filled` is signalled only once the slot holds something.
        guard let taken = handoff.withLock({ $0.take() }) else { return nil }
        emptied.signal()
        batchesHandedOut = taken.batchesHandedOut
        occurrencesRead = taken.occurrencesRead
        let batch: RecordBatch?
        do {
            batch = try taken.batch.get()
        } catch {
            done = true
            throw error
        }
        done = batch == nil
        return batch
    }

    /// Stops the thread once the batch it decodes is done, joins it, and returns what it spent.
    func finish() -> Cost {
        stopRequested.store(true, ordering: .relaxed)
        emptied.signal()
        if let thread {
            pthread_join(thread, nil)
            self.thread = nil
        }
        return spent.withLock { $0 }
    }

    private func decodeAll() {
        let allocatedBefore = AllocatorStatistics.now().allocatedBytes
        var unavailable: InstructionCounter.Unavailable?
        var counter = InstructionCounter(unavailable: &unavailable)
        while true {
            emptied.wait()
            if stopRequested.load(ordering: .relaxed) { break }
            let batch = Result { try batcher.next() }
            handoff.withLock {
                $0 = Decoded(batch: batch, batchesHandedOut: batcher.batchesHandedOut, occurrencesRead: batcher.occurrencesRead)
            }
            filled.signal()
            guard case .success(.some) = batch else { break }
        }
        let instructions = counter.take()?.stop()
        let allocated = AllocatorStatistics.now().allocatedBytes &- allocatedBefore
        spent.withLock { $0 = Cost(allocatedBytes: allocated, instructions: instructions) }
    }
}
