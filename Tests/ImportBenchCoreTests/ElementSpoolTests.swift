import Testing

@testable import ImportBenchCore
@testable import ImportBenchPayload

@Suite("Element spool")
struct ElementSpoolTests {
    struct Spooled: Equatable {
        let index: Int
        let byteOffset: Int
        let memberName: String?
        let bytes: [UInt8]
    }

    /// Stretches larger than the spool's buffers (a megabyte of stdio buffer, a 64 KB read buffer
    /// that grows), written and read back in turns as a document's collections are.
    @Test("elements read back are the ones written, stretch by stretch, however writes and reads alternate")
    func roundTrip() throws {
        let spool = try ElementSpool(payloadPath: "payload.json")
        var random = SeededRandom(seed: 5)
        var stretches: [(start: Int64, elements: [Spooled])] = []
        func readBack(_ stretch: Int) throws -> [Spooled] {
            var reader = spool.read(from: stretches[stretch].start, count: stretches[stretch].elements.count)
            var read: [Spooled] = []
            while let element = try reader.next() {
                read.append(
                    Spooled(index: element.index, byteOffset: element.byteOffset, memberName: element.memberName, bytes: Array(element.bytes)))
            }
            return read
        }
        for stretch in 0..<3 {
            let start = spool.end
            var elements: [Spooled] = []
            for index in 0..<300 {
                let length = random.nextInt(below: 4_000) + (index % 97 == 1 ? 150_000 : 0)
                let bytes = (0..<(length + 7) / 8).flatMap { _ in withUnsafeBytes(of: random.next()) { Array($0) } }.prefix(length)
                let element = Spooled(
                    index: index, byteOffset: 7 * index + stretch, memberName: index % 3 == 0 ? nil : "m\(index)", bytes: Array(bytes))
                try element.bytes.withUnsafeBytes { raw in
                    try spool.write(index: element.index, byteOffset: element.byteOffset, memberName: element.memberName, bytes: raw)
                }
                elements.append(element)
            }
            stretches.append((start, elements))
            // Read back what was just written before the next stretch is written, and the first again.
            #expect(try readBack(stretch) == elements)
            #expect(try readBack(0) == stretches[0].elements)
        }
        for stretch in stretches.indices.reversed() {
            #expect(try readBack(stretch) == stretches[stretch].elements)
        }
        #expect(spool.end > 3 << 20, "the stretches must outgrow the spool's buffers")
    }
}
