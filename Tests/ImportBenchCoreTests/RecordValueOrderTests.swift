import ImportBenchStore
import Testing

@testable import ImportBenchCore

@Suite("Record value order")
struct RecordValueOrderTests {
    /// Keys of every kind a payload may give, in no order: texts that share prefixes, bytes above
    /// 0x7F, an empty text, integers and reals on both sides of zero, a real equal to an integer.
    static let values: [StoreValue] = [
        .text("msg-10-2"), .integer(7), .text("msg-2-10"), .text(""), .real(-1.5), .text("msg-2-1"),
        .integer(-3), .text("Zürich"), .text("zebra"), .real(7.25), .text("msg-2"), .integer(0),
        .text("Z"), .real(2.0), .integer(Int64.max), .text("é"), .integer(Int64.min), .null,
    ]

    @Test("Sorting by sortsBefore gives SQLite's ORDER BY on an indexed column, value for value")
    func matchesSQLite() throws {
        let directory = try TemporaryDirectory()
        let store = try StoreConnection(path: directory.path("order.sqlite"))
        try store.execute("CREATE TABLE t (v)")
        try store.execute("CREATE INDEX t_v ON t (v)")
        let insert = try store.prepare("INSERT INTO t (v) VALUES (?)")
        for value in Self.values {
            insert.bind(value, at: 1)
            try insert.execute()
        }
        var expected: [StoreValue] = []
        let select = try store.prepare("SELECT v FROM t ORDER BY v")
        while try select.step() { expected.append(select.value(at: 0)) }

        let sorted = withLentRecordValues(Self.values) { $0.sorted { $0.sortsBefore($1) }.map(\.storeValue) }
        #expect(sorted == expected)
        #expect(sorted != Self.values, "the fixture starts out of order")
    }
}
