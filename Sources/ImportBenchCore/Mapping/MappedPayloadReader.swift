import ImportBenchStore

/// Reads a JSON payload through a `PayloadMapping`: one unit per top-level element, streaming, in
/// the order the mapping defines (see `PayloadMapping`). Keys are required; every other value may
/// be absent or null and becomes NULL (an absent relationship, an empty set). A value of the wrong
/// kind, a missing key or a key repeated with another value is a `PayloadError` naming the file,
/// the byte offset and the record path; with `onError: .skip` the element holding it is left out
/// and counted as a "malformed <element entity>".
package final class MappedPayloadReader: RecordReader, JSONElementDecoder {
    package let path: String
    private let mapping: PayloadMapping
    /// Read and advanced once per unit, by this reader's own methods one at a time: unchecked, as the
    /// runtime exclusivity check of a class's stored `var` cost a check per element.
    @exclusivity(unchecked) private var records: JSONRecordStream
    /// What `records` reads, asked which collection the element being read is of and its member
    /// name (`@key`).
    private let elements: any CollectionElementSource
    private let plans: [EntityPlan]
    /// What the walk changes, behind a pointer: a class's stored `var`s cost a runtime exclusivity
    /// check on every access, several per value read.
    private let state: UnsafeMutablePointer<State>

    private struct State {
        /// Token indexes of the objects being read, innermost last: each object's walk takes a frame.
        var found = PODArray<Int>(capacity: 256)
        /// Occurrence ordinals of the embedded targets of the objects being read (-1: absent).
        var targets = PODArray<Int>(capacity: 64)
        /// Objects whose children are being read, innermost last: an embedded object's owner link
        /// goes to the nearest of its target entity.
        var owners: [(entity: Int, handle: OccurrenceHandle)] = []
    }

    private var found: PODArray<Int> {
        _read { yield state.pointee.found }
        _modify { yield &state.pointee.found }
    }
    private var targets: PODArray<Int> {
        _read { yield state.pointee.targets }
        _modify { yield &state.pointee.targets }
    }
    private var owners: [(entity: Int, handle: OccurrenceHandle)] {
        _read { yield state.pointee.owners }
        _modify { yield &state.pointee.owners }
    }

    package init(path: String, mapping: PayloadMapping, reading: PayloadReading = PayloadReading(), chunkSize: Int = 1 << 20) throws {
        self.path = path
        self.mapping = mapping
        plans = mapping.plans
        let collections = mapping.collections
        let lines = mapping.readsLines(path)
        if collections.count > 1, lines {
            throw PayloadError(
                file: path, byteOffset: nil, path: nil, expected: "a JSON document holding the mapping's \(collections.count) collections",
                found: "a JSON Lines name: its lines are the elements of one collection")
        }
        let elements: any CollectionElementSource
        if !lines, SiblingCollectionElements.canRead(collections) {
            elements = try SiblingCollectionElements(
                path: path, collections: collections, chunkSize: chunkSize, limits: reading.limits, hasher: reading.hasher)
        } else {
            elements = try CollectionElements(count: collections.count, names: collections.map(\.path.description)) { index in
                // The first reader reads the whole file (it checks the document after its collection): it alone feeds the hash.
                let source = try JSONElements.open(
                    path: path, arrayPath: collections[index].arrayPath, chunkSize: chunkSize, limits: reading.limits,
                    hasher: index == 0 ? reading.hasher : nil, acceptsObject: true, lines: lines)
                return collections[index].headerRow ? HeaderRowElements(source) : source
            }
        }
        self.elements = elements
        // Allocated once nothing can throw, so a file that fails to open leaks nothing.
        state = .allocate(capacity: 1)
        state.initialize(to: State())
        records = JSONRecordStream(
            elements: elements, recordName: collections.count == 1 ? mapping.schema.entities[mapping.rootEntity].name : "element",
            onError: reading.onError)
    }

    deinit {
        found.free()
        targets.free()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    package func readUnit(into builder: RecordBuilder) throws -> Bool {
        try records.readUnit(into: builder, by: self)
    }

    package func nextUnit() throws -> RecordUnit? {
        try records.ownedUnit(schema: mapping.schema, by: self)
    }

    package var skippedRecords: [String: Int] { records.errors.skippedRecords }
    package var skippedErrors: [PayloadError] { records.errors.skippedErrors }

    func decodeElement(_ tape: JSONTape, into builder: RecordBuilder) throws(PayloadError) {
        found.truncate(to: 0)
        targets.truncate(to: 0)
        owners.removeAll(keepingCapacity: true)
        let memberName = elements.currentMemberName.map { Array($0.utf8) }
        let entity = mapping.collections[elements.current].entity
        _ = try read(tape, 0, entity: entity, listedBy: nil, position: 0, memberName: memberName, into: builder)
    }

    /// Reads the object at `token` as an occurrence of `entity`, with what it embeds before it and
    /// its children after it; returns its handle. `listedBy` is the owner whose children list holds it.
    /// `memberName` is the element's name in a collection that is an object (what `@key` reads).
    private func read(
        _ tape: JSONTape, _ token: Int, entity: Int, listedBy owner: (handle: OccurrenceHandle, relationship: Int)?, position: Int,
        memberName: [UInt8]? = nil, into builder: RecordBuilder
    ) throws(PayloadError) -> OccurrenceHandle {
        let plan = plans[entity]
        // Only errors read the schema's entity: a copy of it per object retained every array it holds.
        var schemaEntity: Entity { mapping.schema.entities[entity] }
        let frame = try plan.openFrame(tape, token, in: &found, hasMemberName: memberName != nil)
        func value(_ path: Int) -> Int {
            let index = found[frame + path]
            return index >= 0 && tape.tokens[index].kind != .null ? index : -1
        }
        /// The member name, when `path` is `@key` and the element has one.
        func name(_ path: Int) -> [UInt8]? {
            found[frame + path] == EntityPlan.memberNameToken ? memberName : nil
        }

        // What it embeds, each read whole before it.
        let firstTarget = targets.count
        for (relationship, source) in plan.toOne.enumerated() {
            guard let path = source.embeddedPath, case let index = value(path), index >= 0 else {
                targets.append(-1)
                continue
            }
            targets.append(try read(tape, index, entity: plan.toOneTargets[relationship], listedBy: nil, position: 0, into: builder).ordinal)
        }
        for (relationship, source) in plan.manyToMany.enumerated() {
            guard case .embedded(let path) = source, case let index = value(path), index >= 0 else { continue }
            let target = plan.manyToManyTargets[relationship]
            for (memberPosition, member) in try tape.elements(ofArray: index).enumerated() {
                targets.append(try read(tape, member, entity: target, listedBy: nil, position: memberPosition, into: builder).ordinal)
            }
        }

        builder.begin(entity: entity)
        if plan.listingPaths.contains(where: { value($0) < 0 }) { builder.listsNoChildren() }
        func missing(_ path: Int, _ what: String) -> PayloadError {
            let objectPath = tape.recordPath(ofToken: token)
            return PayloadError(
                file: tape.file, byteOffset: tape.baseOffset + Int(tape.tokens[token].start),
                path: "\(objectPath).\(plan.paths.paths[path])", expected: "a value for \(what)",
                found: found[frame + path] >= 0 ? "null" : "no such key")
        }
        func compose(_ parts: [PartPlan]) throws(PayloadError) {
            builder.beginKeyText()
            for part in parts {
                switch part {
                case .literal(let bytes): bytes.withUnsafeBytes { builder.appendKeyText($0) }
                case .position: builder.appendKeyText(decimal: position)
                case .path(let path):
                    if let name = name(path) {
                        name.withUnsafeBytes { builder.appendKeyText($0) }
                        continue
                    }
                    let index = value(path)
                    guard index >= 0 else { throw missing(path, "a part of the key of \(schemaEntity.name)") }
                    switch tape.tokens[index].kind {
                    case .string: try tape.withStringBytes(at: index) { builder.appendKeyText($0) }
                    case .number: builder.appendKeyText(decimal: Int(try tape.int64(at: index)))
                    default: throw tape.mismatch(at: index, expected: "a string or an integer (part of the key of \(schemaEntity.name))")
                    }
                case .relationship(let relationship):
                    let appended = try appendKeyText(
                        ofRelationship: relationship, firstTarget: firstTarget, owner: owner, plan: plan, tape: tape,
                        value: value, builder: builder)
                    guard appended else {
                        throw PayloadError(
                            file: tape.file, byteOffset: tape.baseOffset + Int(tape.tokens[token].start), path: tape.recordPath(ofToken: token),
                            expected: "a \(schemaEntity.toOne[relationship].name) (its key is part of the key of \(schemaEntity.name))",
                            found: "none")
                    }
                }
            }
            builder.endKeyText()
        }
        switch plan.key {
        case .path(let path, _) where name(path) != nil:
            name(path)?.withUnsafeBytes { builder.key(text: $0) }
        case .path(let path, let fallback):
            let index = value(path)
            guard index >= 0 else {
                guard let fallback else { throw missing(path, "the key of \(schemaEntity.name)") }
                do {
                    try compose(fallback)
                } catch {
                    throw missing(path, "the key of \(schemaEntity.name), or the values its fallback is composed of")
                }
                break
            }
            switch tape.tokens[index].kind {
            case .string: try tape.withStringBytes(at: index) { builder.key(text: $0) }
            case .number: builder.key(decimal: Int(try tape.int64(at: index)))
            default: throw tape.mismatch(at: index, expected: "a string or an integer (the key of \(schemaEntity.name))")
            }
        case .composed(let parts):
            try compose(parts)
        }

        for (attribute, path) in plan.attributes.enumerated() {
            let index = found[frame + path]
            if index >= 0 {
                try tape.write(valueAt: index, to: builder, as: plan.attributeTypes[attribute])
            } else if let name = name(path) {
                try write(memberName: name, as: plan.attributeTypes[attribute], of: tape, into: builder)
            } else if plan.absentIsNull {
                builder.null()
            } else {
                builder.absent()
            }
        }
        for (relationship, source) in plan.toOne.enumerated() {
            switch source {
            case .owner:
                if let handle = ownerHandle(relationship, listedBy: owner, plan: plan) {
                    builder.reference(to: handle)
                } else {
                    builder.noReference()
                }
            case .embedded, .key, .embeddedOrKey:
                let ordinal = targets[firstTarget + relationship]
                if ordinal >= 0 {
                    builder.reference(to: OccurrenceHandle(ordinal: ordinal))
                } else if let path = source.keyPath, case let index = value(path), index >= 0 {
                    try reference(tape, index, into: builder)
                } else if let path = source.keyPath, let name = name(path) {
                    name.withUnsafeBytes { builder.reference(keyText: $0) }
                } else if !plan.absentIsNull, source.embeddedPath.map({ found[frame + $0] < 0 }) ?? true,
                    source.keyPath.map({ found[frame + $0] < 0 }) ?? true
                {
                    builder.absentReference()
                } else {
                    builder.noReference()
                }
            }
        }
        var nextTarget = firstTarget + plan.toOne.count
        for source in plan.manyToMany {
            builder.beginSet()
            switch source {
            case .embedded(let path):
                guard case let index = value(path), index >= 0 else { continue }
                for _ in 0..<Int(tape.tokens[index].count) {
                    builder.reference(to: OccurrenceHandle(ordinal: targets[nextTarget]))
                    nextTarget += 1
                }
            case .keys(let path):
                guard case let index = value(path), index >= 0 else { continue }
                for member in try tape.elements(ofArray: index) {
                    try reference(tape, member, into: builder)
                }
            }
        }
        let handle = builder.finish()
        targets.truncate(to: firstTarget)

        if !plan.children.isEmpty {
            owners.append((entity, handle))
            for list in plan.children {
                let index = value(list.path)
                guard index >= 0 else { continue }
                for (childPosition, child) in try tape.elements(ofArray: index).enumerated() {
                    _ = try read(
                        tape, child, entity: list.entity, listedBy: (handle, list.ownerRelationship), position: childPosition, into: builder)
                }
            }
            owners.removeLast()
        }
        found.truncate(to: frame)
        return handle
    }

    /// An attribute read from the element's member name (`@key`): text as it is, a number parsed.
    private func write(memberName: [UInt8], as type: ColumnType, of tape: JSONTape, into builder: RecordBuilder) throws(PayloadError) {
        let text = String(decoding: memberName, as: UTF8.self)
        switch type {
        case .text:
            memberName.withUnsafeBytes { _ = builder.text($0) }
        case .integer:
            guard let value = Int64(text) else { throw memberNameMismatch(text, expected: "an integer", tape) }
            builder.integer(value)
        case .real:
            guard let value = Double(text), value.isFinite else { throw memberNameMismatch(text, expected: "a number", tape) }
            builder.real(value)
        case .boolean:
            guard text == "true" || text == "false" else { throw memberNameMismatch(text, expected: "true or false", tape) }
            builder.integer(text == "true" ? 1 : 0)
        }
    }

    private func memberNameMismatch(_ name: String, expected: String, _ tape: JSONTape) -> PayloadError {
        PayloadError(
            file: tape.file, byteOffset: tape.baseOffset, path: tape.recordPath, expected: "\(expected) as the member name (@key)",
            found: "\"\(name)\"")
    }

    /// A key given by value: a string, or an integer as decimal text.
    private func reference(_ tape: JSONTape, _ index: Int, into builder: RecordBuilder) throws(PayloadError) {
        switch tape.tokens[index].kind {
        case .string: try tape.withStringBytes(at: index) { builder.reference(keyText: $0) }
        case .number: builder.reference(decimalKey: Int(try tape.int64(at: index)))
        default: throw tape.mismatch(at: index, expected: "a key: a string or an integer")
        }
    }

    /// The listing owner for its own link; for any other owner link, the nearest open owner of the target entity.
    private func ownerHandle(
        _ relationship: Int, listedBy owner: (handle: OccurrenceHandle, relationship: Int)?, plan: EntityPlan
    ) -> OccurrenceHandle? {
        if let owner, owner.relationship == relationship { return owner.handle }
        let target = plan.toOneTargets[relationship]
        return owners.last { $0.entity == target }?.handle
    }

    /// Appends the key of a to-one relationship's target to the key being composed; false when it has none.
    private func appendKeyText(
        ofRelationship relationship: Int, firstTarget: Int, owner: (handle: OccurrenceHandle, relationship: Int)?, plan: EntityPlan,
        tape: JSONTape, value: (Int) -> Int, builder: RecordBuilder
    ) throws(PayloadError) -> Bool {
        let span: TextSpan?
        switch plan.toOne[relationship] {
        case .owner:
            span = ownerHandle(relationship, listedBy: owner, plan: plan).flatMap { builder.keyText(of: $0) }
        case .embedded, .key, .embeddedOrKey:
            let ordinal = targets[firstTarget + relationship]
            if ordinal >= 0 {
                span = builder.keyText(of: OccurrenceHandle(ordinal: ordinal))
                break
            }
            guard let path = plan.toOne[relationship].keyPath, case let index = value(path), index >= 0 else { return false }
            switch tape.tokens[index].kind {
            case .string: try tape.withStringBytes(at: index) { builder.appendKeyText($0) }
            case .number: builder.appendKeyText(decimal: Int(try tape.int64(at: index)))
            default: throw tape.mismatch(at: index, expected: "a key: a string or an integer")
            }
            return true
        }
        guard let span else { return false }
        builder.appendKeyText(span)
        return true
    }
}
