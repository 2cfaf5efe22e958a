import ImportBenchPayload

/// Sorts a chunk of keys in SQLite's index order (`RecordValue.sortsBefore`), for prewarm to bind.
/// Hand-written because the standard library's sort allocates a merge buffer on every call, which
/// the run's allocation figures would count per chunk (bench gate saw +15 % allocated bytes on a
/// quakes refresh in a debug build); this one keeps its buffers from chunk to chunk. It merges the
/// runs a chunk already holds, so keys that arrive nearly in order take few passes.
struct KeyChunkSorter {
    private var scratch: [RecordValue] = []
    /// Where each run starts, then the chunk's end: run `i` is `bounds[i]..<bounds[i + 1]`.
    private var bounds: [Int] = []

    mutating func sort(_ keys: inout [RecordValue]) {
        let count = keys.count
        guard count > 1 else { return }
        if scratch.count < count { scratch = Array(repeating: .null, count: count) }
        // Taken out of `self` while the closures below hold its scratch buffer, and put back after.
        var bounds = self.bounds
        self.bounds = []
        defer { self.bounds = bounds }
        keys.withUnsafeMutableBufferPointer { keys in
            Self.findRuns(in: keys, into: &bounds)
            guard bounds.count > 2 else { return }
            scratch.withUnsafeMutableBufferPointer { scratch in
                let sorted = Self.mergeRuns(keys, scratch, bounds: &bounds)
                if sorted.baseAddress != keys.baseAddress {
                    for index in 0..<count { keys[index] = sorted[index] }
                }
            }
        }
    }

    /// The non-descending runs the values hold, as run starts followed by the end.
    private static func findRuns(in values: UnsafeMutableBufferPointer<RecordValue>, into bounds: inout [Int]) {
        bounds.removeAll(keepingCapacity: true)
        bounds.append(0)
        for index in 1..<values.count where values[index].sortsBefore(values[index - 1]) { bounds.append(index) }
        bounds.append(values.count)
    }

    /// Merges runs pairwise from one buffer into the other, pass after pass, until one is left;
    /// returns the buffer that holds it. Each pass halves the runs, whatever the order says.
    private static func mergeRuns(
        _ keys: UnsafeMutableBufferPointer<RecordValue>, _ scratch: UnsafeMutableBufferPointer<RecordValue>, bounds: inout [Int]
    ) -> UnsafeMutableBufferPointer<RecordValue> {
        var source = keys
        var destination = scratch
        var runs = bounds.count - 1
        while runs > 1 {
            var kept = 0
            for run in stride(from: 0, to: runs, by: 2) {
                let end = run + 2 <= runs ? bounds[run + 2] : bounds[run + 1]
                merge(source, bounds[run]..<bounds[run + 1], bounds[run + 1]..<end, into: destination)
                bounds[kept] = bounds[run]
                kept += 1
            }
            bounds[kept] = bounds[runs]
            runs = kept
            swap(&source, &destination)
        }
        return source
    }

    /// Merges two sorted ranges of `source` into the same positions of `destination`; on a tie the
    /// left range's value comes first.
    private static func merge(
        _ source: UnsafeMutableBufferPointer<RecordValue>, _ left: Range<Int>, _ right: Range<Int>,
        into destination: UnsafeMutableBufferPointer<RecordValue>
    ) {
        var leftIndex = left.lowerBound
        var rightIndex = right.lowerBound
        var out = left.lowerBound
        while leftIndex < left.upperBound, rightIndex < right.upperBound {
            if source[rightIndex].sortsBefore(source[leftIndex]) {
                destination[out] = source[rightIndex]
                rightIndex += 1
            } else {
                destination[out] = source[leftIndex]
                leftIndex += 1
            }
            out += 1
        }
        while leftIndex < left.upperBound {
            destination[out] = source[leftIndex]
            leftIndex += 1
            out += 1
        }
        while rightIndex < right.upperBound {
            destination[out] = source[rightIndex]
            rightIndex += 1
            out += 1
        }
    }
}
