import ImportBenchStore
import Testing

@testable import ImportBenchCore
@testable import ImportBenchPayload

@Suite("Key interner")
struct KeyInternerTests {
    @Test("IDs are dense per entity, in order of first appearance, and a key keeps its ID")
    func denseAndStable() {
        let interner = KeyInterner(entityCount: 2)
        let keys: [StoreValue] = (0..<5_000).map { .text("user-\($0 % 1_000)") }
        let ids = keys.map { interner.id(entity: 0, key: $0) }
        #expect(ids.prefix(1_000) == ArraySlice((0..<1_000).map(Int32.init)))
        #expect(ids.suffix(1_000) == ArraySlice((0..<1_000).map(Int32.init)))
        #expect(interner.count(entity: 0) == 1_000)
        #expect(interner.count(entity: 1) == 0)
        #expect(interner.id(entity: 1, key: "user-7") == 0, "entities have their own IDs")
        #expect(interner.key(entity: 0, id: 7) == "user-7")
    }

    @Test("existingID finds a key met before, by type and bytes, and assigns nothing to one never met")
    func existingIDs() {
        let interner = KeyInterner(entityCount: 2)
        let keys: [StoreValue] = (0..<3_000).map { $0 % 2 == 0 ? .text("k\($0)") : .integer(Int64($0)) }
        let ids = keys.map { interner.id(entity: 0, key: $0) }
        #expect(keys.map { interner.existingID(entity: 0, key: $0) } == ids)
        #expect(interner.existingID(entity: 0, key: .text("1")) == nil, "the integer 1 was met, not the text")
        #expect(interner.existingID(entity: 1, key: .text("k0")) == nil, "another entity's key")
        #expect(interner.existingID(entity: 0, key: .text("k3000")) == nil)
        #expect(interner.count(entity: 0) == 3_000)
        #expect(interner.count(entity: 1) == 0)
    }

    @Test("keys are told apart as SQLite tells them apart: by type and byte for byte")
    func distinctKeys() {
        let interner = KeyInterner(entityCount: 1)
        let keys: [StoreValue] = [
            .integer(1), .text("1"), .real(1), .null, .text(""), .text("caf\u{E9}"), .text("cafe\u{301}"),
            .text(String(repeating: "x", count: 40)), .text(String(repeating: "x", count: 41)),
        ]
        let ids = keys.map { interner.id(entity: 0, key: $0) }
        #expect(Set(ids).count == keys.count)
        #expect(keys.map { interner.id(entity: 0, key: $0) } == ids)
    }

    @Test("keys met since the mark are forgotten, across growth: old keys keep their IDs, new ones reuse the freed IDs")
    func forgetSinceMark() {
        let interner = KeyInterner(entityCount: 1)
        for index in 0..<100 { _ = interner.id(entity: 0, key: .text("kept-\(index)")) }
        interner.mark()
        for index in 0..<5_000 { _ = interner.id(entity: 0, key: .text("dropped-\(index)")) }
        interner.forgetSinceMark()
        #expect(interner.count(entity: 0) == 100)
        #expect((0..<100).map { interner.id(entity: 0, key: .text("kept-\($0)")) } == (0..<100).map(Int32.init))
        #expect(interner.id(entity: 0, key: "new") == 100)
        #expect(interner.id(entity: 0, key: "dropped-7") == 101, "a forgotten key is new again")
        #expect(interner.key(entity: 0, id: 101) == "dropped-7")
    }
}
