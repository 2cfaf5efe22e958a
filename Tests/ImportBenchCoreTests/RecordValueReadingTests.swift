import ImportBenchPayload
import ImportBenchStore
import Testing

/// What a plug-in reads from a batch's values without touching lent bytes: owned Swift values.
@Suite("A record value read as Swift values")
struct RecordValueReadingTests {
    @Test(
        "string, int64 and double copy what the value holds; null gives nil",
        arguments: [
            (StoreValue.text("héllo"), "héllo" as String?, nil as Int64?, nil as Double?),
            (.integer(42), "42", 42, 42.0),
            (.real(2.5), "2.5", nil, 2.5),
            (.real(3), "3.0", 3, 3.0),
            (.null, nil, nil, nil),
        ])
    func reading(value: StoreValue, string: String?, int64: Int64?, double: Double?) {
        let read = withLentRecordValues([value]) { values in (values[0].string, values[0].int64, values[0].double) }
        #expect(read.0 == string)
        #expect(read.1 == int64)
        #expect(read.2 == double)
    }

    @Test("lent text gives its bytes in place inside withUnsafeBytes, and a copy as string")
    func lentText() throws {
        let (count, first, copy) = try withLentRecordValues([.text("abc")]) { values in
            guard case .text(let text) = values[0] else { throw CancellationError() }
            return (text.count, text.withUnsafeBytes { $0.first }, text.string)
        }
        #expect(count == 3 && first == UInt8(ascii: "a") && copy == "abc")
    }

    @Test("absent reads nil, as null does: an update must leave its column out")
    func absent() {
        #expect(RecordValue.absent.string == nil && RecordValue.absent.int64 == nil && RecordValue.absent.double == nil)
    }
}
