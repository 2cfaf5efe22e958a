import ImportBenchStore

extension ImportRun {
    /// Counts and changes of the ledger's own statements, taken out of the strategy's; and what a
    /// decoding thread (`--decode-ahead`) spent, added to the importing thread's.
    struct Bookkeeping {
        var counts = StatementCounts()
        var changes: Int64 = 0
        var decodeAhead: DecodeAhead.Cost?
    }

    /// Where the import stands, for the ledger and for the error that ends it.
    struct ImportProgress {
        let generation: Int64
        let resumePoint: ImportLedger.Entry?
        var pass = 0
        var committedBatches = 0
        var committedOccurrences = 0
    }

    /// Measures `body`: clock, CPU, memory, allocator, and the counts `counter` reads (of `store`
    /// alone, or of every connection at the SQLite level), less what `body` says was bookkeeping.
    /// A nil `store` leaves the counts to the caller (its connections open inside the clock).
    /// `probeHz` runs the reader probe on this run's store meanwhile.
    func measure(
        into measurement: inout ImportMeasurement, store: StoreConnection?, counter: RunCounter = .byConnection, probeHz: Int?,
        _ body: (inout Bookkeeping) throws -> Void
    ) throws {
        let countsBefore = store.map(counter.read)
        PeakResidentMemory.reset()
        AllocatorStatistics.resetPeak()
        let allocatorBefore = AllocatorStatistics.now()
        let cpuBefore = CPUTime.now()
        var unavailable: InstructionCounter.Unavailable?
        var instructionCounter = InstructionCounter(unavailable: &unavailable)
        if let unavailable { measurement.instructionsNote = unavailable.description }
        let start = MonotonicClock.now()

        // Started after the baselines: its thread's CPU and allocations are taken out below.
        let probe = probeHz.map { ReaderProbe(databasePath: databasePath, query: scenario.screenQuery, hz: $0) }
        var bookkeeping = Bookkeeping()
        do {
            try body(&bookkeeping)
        } catch {
            _ = try? probe?.finish()
            throw error
        }

        measurement.wallSeconds = MonotonicClock.now() - start
        if let counter = instructionCounter.take() {
            measurement.instructions = counter.stop()
            if measurement.instructions == nil { measurement.instructionsNote = "perf_event_open: the counter could not be read" }
        }
        var probeCost = ReaderProbe.Cost()
        if let probe {
            let (latencies, cost) = try probe.finish()
            measurement.readerProbe = latencies.summary
            probeCost = cost
        }
        let cpu = CPUTime.now() - cpuBefore - probeCost.cpu
        let allocatorAfter = AllocatorStatistics.now()
        measurement.cpuUserSeconds = cpu.user
        measurement.cpuSystemSeconds = cpu.system
        measurement.peakRSSBytes = PeakResidentMemory.read()
        measurement.allocatedBytes = allocatorAfter.allocatedBytes &- allocatorBefore.allocatedBytes
        if let decoding = bookkeeping.decodeAhead {
            // Records allocated on one thread are freed on the other, so neither thread's peak is the
            // import's: peak RSS stands for it.
            measurement.peakAllocatedBytes = nil
            measurement.allocatedBytes &+= decoding.allocatedBytes
            // Both threads' instructions, or none: a count without the decoding thread's would be short.
            if let counted = measurement.instructions {
                measurement.instructions = decoding.instructions.map { counted &+ $0 }
                if decoding.instructions == nil {
                    measurement.instructionsNote = "the decoding thread's instruction counter could not be read"
                }
            }
        } else {
            measurement.peakAllocatedBytes = AllocatorStatistics.peak()
        }
        measurement.mallocCount = allocatorAfter.mallocCount &- allocatorBefore.mallocCount &- probeCost.allocationRequests
        if let store, let countsBefore {
            let countsAfter = counter.read(store)
            measurement.counts = countsAfter.counts - countsBefore.counts - bookkeeping.counts
            measurement.rowsWritten = countsAfter.rowsWritten - countsBefore.rowsWritten - bookkeeping.changes
        }
    }
}
