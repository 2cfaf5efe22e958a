import ImportBenchStore
import Testing

@testable import ImportBenchCore
@testable import ImportBenchStrategies

@Suite("Key chunk sorter")
struct KeyChunkSorterTests {
    /// Chunks of the shapes prewarm meets: in payload order (chat's ids: runs broken where "msg-0-10"
    /// sorts before "msg-0-2"), reversed, random, all equal, mixed kinds, and the smallest sizes.
    static let chunks: [(name: String, values: [StoreValue])] = {
        // Seeded, so a failing chunk is the same chunk on the next run.
        var random = SeededRandom(seed: 32)
        let payloadOrder = (0..<500).map { StoreValue.text("msg-\($0 / 40)-\($0 % 40)") }
        let randomTexts = (0..<500).map { _ in StoreValue.text(String(random.next(), radix: 16)) }
        let mixed = (0..<200).map { index -> StoreValue in
            switch index % 4 {
            case 0: .integer(Int64(random.nextInt(in: -1_000...1_000)))
            case 1: .real(Double(random.nextInt(in: -100_000...100_000)) / 100)
            case 2: .text("k\(random.nextInt(below: 50))")
            default: .null
            }
        }
        return [
            ("payload order", payloadOrder), ("reversed", payloadOrder.reversed()), ("sorted", payloadOrder.sorted { "\($0)" < "\($1)" }),
            ("random", randomTexts), ("all equal", Array(repeating: .text("same"), count: 64)), ("mixed kinds", mixed),
            ("empty", []), ("one", [.integer(1)]), ("two out of order", [.text("b"), .text("a")]),
        ]
    }()

    @Test("Sorts every chunk as the standard library's sort does, in SQLite's order", arguments: 0..<chunks.count)
    func sortsLikeTheStandardLibrary(chunk index: Int) {
        let (name, values) = Self.chunks[index]
        withLentRecordValues(values) { lent in
            var sorter = KeyChunkSorter()
            var keys = lent
            sorter.sort(&keys)
            let expected = lent.sorted { $0.sortsBefore($1) }.map(\.storeValue)
            #expect(keys.map(\.storeValue) == expected, "\(name)")
        }
    }

    @Test("One sorter serves chunk after chunk, of any size, without mixing them up")
    func reusedAcrossChunks() {
        let all = Self.chunks.flatMap(\.values)
        withLentRecordValues(all) { lent in
            var sorter = KeyChunkSorter()
            var start = 0
            for (_, values) in Self.chunks {
                let chunk = lent[start..<start + values.count]
                var keys = Array(chunk)
                sorter.sort(&keys)
                #expect(keys.map(\.storeValue) == chunk.sorted { $0.sortsBefore($1) }.map(\.storeValue))
                start += values.count
            }
        }
    }
}
