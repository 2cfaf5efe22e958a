import ImportBenchCore
import ImportBenchStore
import Testing

@Suite("Key interner")
struct KeyInternerTests {
    @Test("IDs are dense per entity, in order of first appearance, and a key keeps its ID")
    func denseAndStable() {
        let interner = KeyInterner(entityCount: 2)
        let keys: [DatabaseValue] = (0..<5_000).map { .text("user-\($0 % 1_000)") }
        let ids = keys.map { interner.id(entity: 0, key: $0) }
        #expect(ids.prefix(1_000) == ArraySlice((0..<1_000).map(Int32.init)))
        #expect(ids.suffix(1_000) == ArraySlice((0..<1_000).map(Int32.init)))
        #expect(interner.count(entity: 0) == 1_000)
        #expect(interner.count(entity: 1) == 0)
        #expect(interner.id(entity: 1, key: "user-7") == 0, "entities have their own IDs")
        #expect(interner.key(entity: 0, id: 7) == "user-7")
    }

    @Test("keys are told apart as SQLite tells them apart: by type and byte for byte")
    func distinctKeys() {
        let interner = KeyInterner(entityCount: 1)
        let keys: [DatabaseValue] = [
            .integer(1), .text("1"), .real(1), .null, .text(""), .text("caf\u{E9}"), .text("cafe\u{301}"),
            .text(String(repeating: "x", count: 40)), .text(String(repeating: "x", count: 41)),
        ]
        let ids = keys.map { interner.id(entity: 0, key: $0) }
        #expect(Set(ids).count == keys.count)
        #expect(keys.map { interner.id(entity: 0, key: $0) } == ids)
    }
}
