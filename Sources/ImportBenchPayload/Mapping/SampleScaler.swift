import Foundation

/// Writes a recorded payload `scale` times over (`bench generate --from`): the document around the
/// top-level array as it is, and inside it copy after copy of the sample's elements, each copy's keys
/// made its own, so a 10x payload holds ten times the objects of the user's own data. Objects of the
/// mapping's shared entities (chat's users) keep their keys in every copy: they repeat as a loyal
/// user base does. A fractional scale ends with a prefix of the elements (0.5x: the first half).
///
/// Copy 0 is the sample itself; copy `c` appends `~c` to a text key and adds `c` x the stride to an
/// integer key (or a text key of digits alone, which the reader takes as the same key), wherever
/// the key stands (the object's own key, a reference by key, a set of keys). The stride is 10^12
/// while every integer key lies in 0..<10^12; otherwise (an 18- or 19-digit id) it is the span of
/// the sample's integer keys, so no copy's keys meet another's, and a scale whose keys would pass
/// Int64 is refused:
/// composed keys follow from the keys they are made of. Streaming: one element is held at a time,
/// whatever the scale. The same sample, mapping and scale give the same bytes.
///
/// The sample may be gzip-compressed or JSON Lines; the output is JSON Lines when its name says so
/// (one element per line, nothing around them, a line break inside an element written as a space,
/// which valid JSON only has between tokens), and must be when the sample is.
package struct SampleScaler {
    package let mapping: PayloadMapping
    package let samplePath: String
    private let plans: [EntityPlan]
    private let shared: [Bool]

    /// Added to an integer key per copy while every integer key is below it: far above the ids most
    /// payloads carry, far below overflow at 1000 copies.
    static let integerKeyStride: Int64 = 1_000_000_000_000

    /// The smallest and largest integer key of a sample (digits in text included), as keys are read.
    private struct IntegerKeys {
        var smallest = Int64.max
        var largest = Int64.min

        mutating func note(_ value: Int64) {
            smallest = min(smallest, value)
            largest = max(largest, value)
        }

        /// What copy `c` adds `c` times: 10^12 where every key lies in 0..<10^12, else their span.
        func stride() -> Int64 {
            guard smallest <= largest, smallest < 0 || largest >= SampleScaler.integerKeyStride else { return SampleScaler.integerKeyStride }
            return largest.subtractingReportingOverflow(smallest).partialValue &+ 1
        }

        /// Whether `copies` copies keep every key within Int64.
        func fit(copies: Int, stride: Int64) -> Bool {
            guard smallest <= largest else { return true }
            let (added, overflow) = stride.multipliedReportingOverflow(by: Int64(copies))
            return !overflow && !largest.addingReportingOverflow(added).overflow && stride > 0
        }
    }

    package init(mapping: PayloadMapping, sample samplePath: String) throws(MappingError) {
        self.mapping = mapping
        self.samplePath = samplePath
        plans = mapping.plans
        shared = mapping.schema.entities.indices.map { mapping.shared.contains($0) }
        // A composed key changes with the copy only through a key it is made of.
        for (entity, plan) in plans.enumerated() where !shared[entity] {
            guard case .composed(let parts) = plan.key else { continue }
            let follows = parts.contains { part in
                switch part {
                case .relationship(let relationship): return !shared[mapping.schema.toOneTargets[entity][relationship]]
                case .path(let path): return plan.paths.memberNamePaths.contains(path)
                case .literal, .position: return false
                }
            }
            if !follows {
                throw MappingError(file: samplePath, problem: .keyRepeatsInCopies(entity: mapping.schema.entities[entity].name))
            }
        }
    }

    /// Writes the scaled payload to `path` (atomically: a failure leaves nothing under that name).
    /// Each collection's elements are copied where the collection lies in the document; a
    /// collection of a shared entity is written once, and a header row only in the first copy.
    /// `stopIfAsked` is called every 256 elements, so that a stop asked for (a signal) does not wait
    /// for the whole copy; it throws to stop.
    package func write(scale: Double, to path: String, stopIfAsked: () throws -> Void = {}) throws {
        guard scale.isFinite, scale > 0 else {
            throw PayloadError(file: path, byteOffset: nil, path: nil, expected: .positiveScale, found: "\(scale)")
        }
        let lines = JSONElements.isJSONLines(path) || (mapping.jsonLines && !path.lowercased().hasSuffix(".json"))
        if mapping.readsLines(samplePath), !lines {
            throw PayloadError(
                file: path, byteOffset: nil, path: nil, expected: .scaledName(jsonLines: true),
                found: "another name: a JSON Lines sample has no document around its elements to write them into")
        }
        var integerKeys = IntegerKeys()
        let frames = try mapping.collections.indices.map { try frame(of: $0, checkingKeys: scale > 1, integerKeys: &integerKeys) }
        // A sample of nothing scales to nothing: refused as a payload of nothing is.
        if let last = frames.last?.empty, frames.allSatisfy({ $0.elements == 0 }) {
            guard frames.count > 1 else { throw last }
            throw PayloadError.noElement(
                inCollections: mapping.collections.map(\.path.description), file: samplePath, byteOffset: last.byteOffset)
        }
        let stride = integerKeys.stride()
        guard integerKeys.fit(copies: Int(scale.rounded(.down)), stride: stride) else {
            throw PayloadError(
                file: samplePath, byteOffset: nil, path: nil,
                expected: .integerKeysThatFit(copies: Int(scale.rounded(.down)), stride: stride),
                found: "keys from \(integerKeys.smallest) to \(integerKeys.largest): scale it less")
        }
        if lines, frames.count > 1 || frames.contains(where: \.isObject) {
            throw PayloadError(
                file: path, byteOffset: nil, path: nil, expected: .scaledName(jsonLines: false),
                found: frames.count > 1 ? "\(frames.count) collections to write" : "a collection keyed by member names, which lines cannot hold")
        }
        let fileSize = Int(PayloadSize.bytes(at: samplePath))
        let output = try BufferedFileOutput(path: path, bufferCapacity: 1 << 20)
        var cursor = 0
        var wroteLine = false
        for frame in frames.filter({ $0.elements > 0 }).sorted(by: { $0.start < $1.start }) {
            if !lines { try copyBytes(cursor..<frame.start, to: output) }
            wroteLine = try writeCopies(of: frame, scale: scale, stride: stride, to: output, lines: lines, stopIfAsked: stopIfAsked) || wroteLine
            cursor = frame.end
        }
        if lines {
            if wroteLine { output.append(UInt8(ascii: "\n")) }
        } else {
            try copyBytes(cursor..<fileSize, to: output)
        }
        try output.close()
    }

    /// The copies of one collection's elements, separated as the collection wants; true if it wrote any.
    private func writeCopies(
        of frame: Frame, scale: Double, stride: Int64, to output: BufferedFileOutput, lines: Bool, stopIfAsked: () throws -> Void
    ) throws -> Bool {
        let collection = mapping.collections[frame.collection]
        let isShared = shared[collection.entity]
        let whole = isShared ? 0 : Int(scale.rounded(.down))
        let rest = isShared ? 0 : Int(((scale - Double(whole)) * Double(frame.elements)).rounded())
        var first = true
        for copy in 0...whole {
            let count = copy < whole || isShared ? frame.elements : rest
            guard count > 0 else { continue }
            let elements = try openElements(frame.collection)
            var read = 0
            while read < count, let element = try elements.next() {
                if read % 256 == 0 { try stopIfAsked() }
                read += 1
                // The header row heads the first copy alone.
                if collection.headerRow, copy > 0, read == 1 { continue }
                if !first { output.append(lines ? UInt8(ascii: "\n") : UInt8(ascii: ",")) }
                first = false
                if let name = elements.currentMemberName {
                    Self.appendMemberName(name, copy: isShared ? 0 : copy, stride: stride, to: output)
                }
                try write(element, entity: collection.entity, copy: copy, stride: stride, elements: elements, to: output, lines: lines)
            }
        }
        return !first
    }

    /// Where one collection's elements begin and end in the sample (from its first member's name,
    /// for an object keyed by them), and how many there are.
    private struct Frame {
        var collection: Int
        var start: Int
        var end: Int
        var elements: Int
        var isObject: Bool
        /// Where the collection ended, when it held no element.
        var empty: PayloadError?
    }

    /// With `checkingKeys`, also refuses a sample whose keys a copy's could equal (a text key that
    /// already ends in `~N`; member names likewise) and notes its integer keys' range.
    private func frame(of collection: Int, checkingKeys: Bool, integerKeys: inout IntegerKeys) throws -> Frame {
        let elements = try openElements(collection)
        let reader = elements as? JSONArrayElementReader
        var first: Int?
        var end = 0
        var count = 0
        while let element = try elements.next() {
            if checkingKeys {
                try checkKeys(of: element, entity: mapping.collections[collection].entity, elements: elements, integerKeys: &integerKeys)
                if let name = elements.currentMemberName {
                    try checkMemberName(
                        name, at: element.byteOffset, elements: elements, index: element.index,
                        noteNames: !shared[mapping.collections[collection].entity], integerKeys: &integerKeys)
                }
            }
            if first == nil { first = reader?.currentMemberNameOffset ?? element.byteOffset }
            end = element.byteOffset + element.byteCount
            count += 1
        }
        return Frame(
            collection: collection, start: first ?? 0, end: end, elements: count,
            isObject: elements.currentMemberName != nil || reader?.readsMembers == true, empty: count == 0 ? elements.noElement() : nil)
    }

    private func openElements(_ collection: Int) throws -> any JSONElementSource {
        try JSONElements.open(
            path: samplePath, arrayPath: mapping.collections[collection].arrayPath, acceptsObject: true, lines: mapping.readsLines(samplePath))
    }

    /// A copy's member name: one of digits alone moves by `c` x the stride as an integer key does (it
    /// is read as `@key`, maybe as a number), any other takes `~c`; copy 0 keeps it.
    private static func appendMemberName(_ name: String, copy: Int, stride: Int64, to output: BufferedFileOutput) {
        var written = name
        if copy > 0 {
            if let value = digitsValue(Array(name.utf8)) {
                written = String(value + Int64(copy) * stride)
            } else {
                written = name + "~\(copy)"
            }
        }
        output.append(UInt8(ascii: "\""))
        for byte in written.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                output.append(UInt8(ascii: "\\"))
                output.append(byte)
            case ..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                for escaped in [
                    UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)],
                ] {
                    output.append(escaped)
                }
            default:
                output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
        output.append(UInt8(ascii: ":"))
    }

    /// Refuses a member name a copy's could equal, as keys are refused; notes one of digits.
    /// `noteNames`: false for a shared entity's collection, whose names copies keep.
    private func checkMemberName(
        _ name: String, at offset: Int, elements: any JSONElementSource, index: Int, noteNames: Bool, integerKeys: inout IntegerKeys
    ) throws {
        let bytes = Array(name.utf8)
        // One that spells an integer moves as integer keys do (a longer one is text, and takes ~c).
        if let value = Self.digitsValue(bytes), noteNames { integerKeys.note(value) }
        if let tilde = bytes.lastIndex(of: UInt8(ascii: "~")), tilde + 1 < bytes.endIndex,
            bytes[(tilde + 1)...].allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        {
            throw PayloadError(
                file: samplePath, byteOffset: offset, path: elements.elementPath(index),
                expected: .nameWithoutCopySuffix(memberName: true), found: "\"\(name)\"")
        }
    }

    /// The integer that text spells as the integer itself is written (1 to 19 digits, a `-` before
    /// them allowed, no leading zero: the reader keys `"007"` as that text, `"-5"` as -5 does), within
    /// Int64; nil otherwise.
    private static func digitsValue(_ text: some Collection<UInt8>) -> Int64? {
        let negative = text.first == UInt8(ascii: "-")
        let bytes = negative ? Array(text.dropFirst()) : Array(text)
        guard (1...19).contains(bytes.count), bytes.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        guard bytes.count == 1 || bytes.first != UInt8(ascii: "0"), !(negative && bytes == [UInt8(ascii: "0")]) else { return nil }
        var value: Int64 = 0
        for byte in bytes {
            let (shifted, overflowShift) = value.multipliedReportingOverflow(by: 10)
            let digit = Int64(byte - UInt8(ascii: "0"))
            let (added, overflowAdd) = negative ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
            if overflowShift || overflowAdd { return nil }
            value = added
        }
        return value
    }

    /// The sample's bytes in `range`, inflated when it is gzip (offsets are the inflated bytes').
    private func copyBytes(_ range: Range<Int>, to output: BufferedFileOutput) throws {
        guard !range.isEmpty else { return }
        let input = try PayloadInput(path: samplePath, expected: .readable(.sample))
        let chunk = UnsafeMutablePointer<UInt8>.allocate(capacity: 1 << 20)
        defer { chunk.deallocate() }
        var position = 0
        while position < range.upperBound {
            let wanted = position < range.lowerBound ? min(range.lowerBound - position, 1 << 20) : min(range.upperBound - position, 1 << 20)
            let received = try input.read(into: chunk, count: wanted, offset: position)
            guard received > 0 else {
                throw PayloadError(
                    file: samplePath, byteOffset: position, path: nil, expected: .moreBytes, found: "the end of the file (did it change meanwhile?)"
                )
            }
            if position >= range.lowerBound { output.append(UnsafeBufferPointer(start: chunk, count: received)) }
            position += received
        }
    }

    private func tape(of element: JSONArrayElementReader.Element, elements: any JSONElementSource) throws -> JSONTape {
        switch element {
        case .parsed(let parsed, _): return parsed
        case .delimited(let delimited):
            return try JSONTape(
                bytes: delimited.bytes, baseOffset: delimited.byteOffset, file: samplePath, recordPath: elements.elementPath(delimited.index))
        }
    }

    /// A text key of decimal digits alone is the integer it spells: the reader makes `123` and
    /// `"123"` one key, so a copy must rewrite both alike.
    private static func digits(_ tape: JSONTape, _ token: Int) -> Int64? {
        let item = tape.tokens[token]
        guard item.kind == .string, !item.flags.contains(.hasEscapes) else { return nil }
        return digitsValue(tape.bytes[(Int(item.start) + 1)..<(Int(item.end) - 1)])
    }

    private func checkKeys(
        of element: JSONArrayElementReader.Element, entity: Int, elements: any JSONElementSource, integerKeys: inout IntegerKeys
    ) throws {
        let tape = try tape(of: element, elements: elements)
        var keys: [Int] = []
        var found = PODArray<Int>(capacity: 64)
        defer { found.free() }
        try collectKeys(tape, 0, entity: entity, found: &found, into: &keys)
        for token in keys {
            if tape.tokens[token].kind == .number || Self.digits(tape, token) != nil {
                integerKeys.note(try Self.digits(tape, token) ?? tape.int64(at: token))
            } else {
                let item = tape.tokens[token]
                let content = tape.bytes[(Int(item.start) + 1)..<(Int(item.end) - 1)]
                if let tilde = content.lastIndex(of: UInt8(ascii: "~")), tilde + 1 < content.endIndex,
                    content[(tilde + 1)...].allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
                {
                    throw tape.mismatch(at: token, expected: .nameWithoutCopySuffix(memberName: false))
                }
            }
        }
    }

    /// One element, its keys rewritten for `copy`; on one line when writing JSON Lines.
    private func write(
        _ element: JSONArrayElementReader.Element, entity: Int, copy: Int, stride: Int64, elements: any JSONElementSource,
        to output: BufferedFileOutput, lines: Bool
    ) throws {
        let tape = try tape(of: element, elements: elements)
        let bytes = tape.bytes
        guard copy > 0 else {
            Self.append(bytes[...], to: output, lines: lines)
            return
        }
        var keys: [Int] = []
        var found = PODArray<Int>(capacity: 64)
        defer { found.free() }
        try collectKeys(tape, 0, entity: entity, found: &found, into: &keys)
        keys.sort { tape.tokens[$0].start < tape.tokens[$1].start }
        var position = 0
        for token in keys {
            let start = Int(tape.tokens[token].start)
            let end = Int(tape.tokens[token].end)
            guard start >= position else { continue }
            if let value = Self.digits(tape, token) {
                Self.append(bytes[position...start], to: output, lines: lines)
                output.appendDecimal(Int(value + Int64(copy) * stride))
                output.append(UInt8(ascii: "\""))
            } else if tape.tokens[token].kind == .string {
                Self.append(bytes[position..<(end - 1)], to: output, lines: lines)
                output.append(UInt8(ascii: "~"))
                output.appendDecimal(copy)
                output.append(UInt8(ascii: "\""))
            } else {
                // `write(scale:to:)` checked that no copy's key passes Int64.
                Self.append(bytes[position..<start], to: output, lines: lines)
                output.appendDecimal(Int(try tape.int64(at: token) + Int64(copy) * stride))
            }
            position = end
        }
        Self.append(bytes[position...], to: output, lines: lines)
    }

    /// Copies element bytes; for JSON Lines, a line break becomes a space: valid JSON has raw line
    /// breaks only between tokens (inside a string they are escaped), so the element stays the same.
    private static func append(_ slice: Slice<UnsafeBufferPointer<UInt8>>, to output: BufferedFileOutput, lines: Bool) {
        guard lines, slice.contains(where: { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }) else {
            output.append(UnsafeBufferPointer(rebasing: slice))
            return
        }
        for byte in slice { output.append(byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") ? UInt8(ascii: " ") : byte) }
    }

    /// The token of every key of a non-shared entity in the object at `token`, read as `entity`,
    /// and in everything it embeds and lists.
    private func collectKeys(
        _ tape: JSONTape, _ token: Int, entity: Int, found: inout PODArray<Int>, into keys: inout [Int]
    ) throws {
        let plan = plans[entity]
        let frame = try plan.openFrame(tape, token, in: &found)
        func value(_ path: Int) -> Int {
            let index = found[frame + path]
            return index >= 0 && tape.tokens[index].kind != .null ? index : -1
        }
        func key(_ index: Int, of target: Int) throws {
            guard index >= 0, !shared[target] else { return }
            switch tape.tokens[index].kind {
            case .string, .number: keys.append(index)
            default: throw tape.mismatch(at: index, expected: .referenceKey)
            }
        }
        if case .path(let path, let fallback) = plan.key {
            let index = value(path)
            // A key composed from values (the fallback) would be the same in every copy.
            if index < 0, fallback != nil, !shared[entity] {
                throw PayloadError(
                    file: samplePath, byteOffset: tape.baseOffset + Int(tape.tokens[token].start), path: tape.recordPath(ofToken: token),
                    expected: .rewritableKey(entity: mapping.schema.entities[entity].name, path: "\(plan.paths.paths[path])"),
                    found: "none: its fallback is composed of values, which every copy would repeat")
            }
            try key(index, of: entity)
        }
        for (relationship, source) in plan.toOne.enumerated() {
            let target = mapping.schema.toOneTargets[entity][relationship]
            if let path = source.embeddedPath, case let index = value(path), index >= 0 {
                try collectKeys(tape, index, entity: target, found: &found, into: &keys)
            }
            if let path = source.keyPath { try key(value(path), of: target) }
        }
        for (relationship, source) in plan.manyToMany.enumerated() {
            let target = mapping.schema.manyToManyTargets[entity][relationship]
            switch source {
            case .embedded(let path):
                let index = value(path)
                guard index >= 0 else { continue }
                for member in try JSONValue(tape: tape, index: index).array() {
                    try collectKeys(tape, member.index, entity: target, found: &found, into: &keys)
                }
            case .keys(let path):
                let index = value(path)
                guard index >= 0 else { continue }
                for member in try JSONValue(tape: tape, index: index).array() { try key(member.index, of: target) }
            }
        }
        for list in plan.children {
            let index = value(list.path)
            guard index >= 0 else { continue }
            for child in try JSONValue(tape: tape, index: index).array() {
                try collectKeys(tape, child.index, entity: list.entity, found: &found, into: &keys)
            }
        }
        found.truncate(to: frame)
    }
}
