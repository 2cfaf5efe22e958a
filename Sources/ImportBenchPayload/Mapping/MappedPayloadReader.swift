import ImportBenchSchema
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
        /// The element's name in a collection that is an object (what `@key` reads).
        var memberName: [UInt8]?
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
    private var memberName: [UInt8]? {
        _read { yield state.pointee.memberName }
        _modify { yield &state.pointee.memberName }
    }

    package init(path: String, mapping: PayloadMapping, reading: PayloadReading = PayloadReading(), chunkSize: Int = 1 << 20) throws {
        self.path = path
        self.mapping = mapping
        plans = mapping.plans
        let collections = mapping.collections
        let lines = mapping.readsLines(path)
        if collections.count > 1, lines {
            throw PayloadError(
                file: path, byteOffset: nil, path: nil, expected: .mappingDocument(collections: collections.count),
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
        memberName = elements.currentMemberName.map { Array($0.utf8) }
        let entity = mapping.collections[elements.current].entity
        _ = try read(tape, 0, entity: entity, listedBy: nil, position: 0, hasMemberName: memberName != nil, into: builder)
    }

    /// An object being read: where it is in its tape, its plan, and where its walk's frame (in
    /// `found`) and its embedded targets' ordinals (in `targets`) start. What the steps of `read`
    /// share; the tape goes beside it, as a copy of it in here cost a retain and a release per object.
    private struct ObjectFrame {
        let token: Int
        let entity: Int
        let plan: EntityPlan
        let frame: Int
        let firstTarget: Int
        /// Its position in the array holding it (what `{@index}` reads).
        let position: Int
        /// The owner whose children list holds it, and the object's relationship back to it.
        let owner: (handle: OccurrenceHandle, relationship: Int)?
    }

    /// Reads the object at `token` as an occurrence of `entity`, with what it embeds before it and
    /// its children after it; returns its handle. `listedBy` is the owner whose children list holds it.
    /// `hasMemberName`: it is an element with a name, `memberName` (what `@key` reads).
    /// Its steps are `@inline(always)`: `@inline(__always)` is a hint, which the optimizer declined
    /// for the larger ones, splitting this hot path into calls.
    private func read(
        _ tape: JSONTape, _ token: Int, entity: Int, listedBy owner: (handle: OccurrenceHandle, relationship: Int)?, position: Int,
        hasMemberName: Bool = false, into builder: RecordBuilder
    ) throws(PayloadError) -> OccurrenceHandle {
        let plan = plans[entity]
        let frame = try plan.openFrame(tape, token, in: &found, hasMemberName: hasMemberName)
        // Moved in: a copy cost a retain and a release per object.
        let object = ObjectFrame(
            token: token, entity: entity, plan: consume plan, frame: frame, firstTarget: targets.count, position: position, owner: owner)
        try readEmbeddedTargets(of: object, in: tape, into: builder)

        builder.begin(entity: entity)
        if lacksAListing(object, in: tape) { builder.listsNoChildren() }
        try writeKey(of: object, in: tape, into: builder)
        try writeAttributes(of: object, in: tape, into: builder)
        try writeToOneReferences(of: object, in: tape, into: builder)
        try writeSets(of: object, in: tape, into: builder)
        let handle = builder.finish()
        targets.truncate(to: object.firstTarget)

        try readChildren(of: object, in: tape, handle: handle, into: builder)
        found.truncate(to: frame)
        return handle
    }

    /// The token found at `path`, or -1 where the member is absent or null.
    @inline(__always)
    private func value(_ path: Int, of object: ObjectFrame, in tape: JSONTape) -> Int {
        let index = found[object.frame + path]
        return index >= 0 && tape.tokens[index].kind != .null ? index : -1
    }

    /// The element's member name, when `path` is `@key` and the element has one.
    @inline(__always)
    private func name(_ path: Int, of object: ObjectFrame) -> [UInt8]? {
        found[object.frame + path] == EntityPlan.memberNameToken ? memberName : nil
    }

    /// Whether the object lacks (absent or null) a list or set its entity's payload lists completely.
    @inline(always)
    private func lacksAListing(_ object: ObjectFrame, in tape: JSONTape) -> Bool {
        for path in object.plan.listingPaths where value(path, of: object, in: tape) < 0 { return true }
        return false
    }

    /// The schema's entity, for errors alone: a copy of it per object retained every array it holds.
    private func schemaEntity(of object: ObjectFrame) -> Entity {
        mapping.schema.entities[object.entity]
    }

    /// Reads what the object embeds, each whole before it, appending each target's ordinal to
    /// `targets` (-1 for an absent to-one target) for its references to take.
    @inline(always)
    private func readEmbeddedTargets(of object: ObjectFrame, in tape: JSONTape, into builder: RecordBuilder) throws(PayloadError) {
        let plan = object.plan
        for (relationship, source) in plan.toOne.enumerated() {
            guard let path = source.embeddedPath, case let index = value(path, of: object, in: tape), index >= 0 else {
                targets.append(-1)
                continue
            }
            targets.append(try read(tape, index, entity: plan.toOneTargets[relationship], listedBy: nil, position: 0, into: builder).ordinal)
        }
        for (relationship, source) in plan.manyToMany.enumerated() {
            guard case .embedded(let path) = source, case let index = value(path, of: object, in: tape), index >= 0 else { continue }
            let target = plan.manyToManyTargets[relationship]
            for (memberPosition, member) in try tape.elements(ofArray: index).enumerated() {
                targets.append(try read(tape, member, entity: target, listedBy: nil, position: memberPosition, into: builder).ordinal)
            }
        }
    }

    /// Writes the object's key: its member name, the value at its path (or, lacking one, the
    /// fallback composed of others), or one composed of parts.
    @inline(always)
    private func writeKey(of object: ObjectFrame, in tape: JSONTape, into builder: RecordBuilder) throws(PayloadError) {
        switch object.plan.key {
        case .path(let path, _) where name(path, of: object) != nil:
            name(path, of: object)?.withUnsafeBytes { builder.key(text: $0) }
        case .path(let path, let fallback):
            let index = value(path, of: object, in: tape)
            guard index >= 0 else {
                guard let fallback else { throw missing(path, .whole, of: object, in: tape) }
                do {
                    try composeKey(fallback, of: object, in: tape, into: builder)
                } catch {
                    throw missing(path, .wholeOrFallback, of: object, in: tape)
                }
                return
            }
            switch tape.tokens[index].kind {
            case .string: try tape.withStringBytes(at: index) { builder.key(text: $0) }
            case .number: builder.key(decimal: Int(try tape.int64(at: index)))
            default: throw tape.mismatch(at: index, expected: .entityKey(schemaEntity(of: object).name, part: false))
            }
        case .composed(let parts):
            try composeKey(parts, of: object, in: tape, into: builder)
        }
    }

    /// Writes a key composed of `parts`: literal text, the object's position, values at its paths
    /// and the keys of its to-one targets.
    private func composeKey(_ parts: [PartPlan], of object: ObjectFrame, in tape: JSONTape, into builder: RecordBuilder) throws(PayloadError) {
        builder.beginKeyText()
        for part in parts {
            switch part {
            case .literal(let bytes): bytes.withUnsafeBytes { builder.appendKeyText($0) }
            case .position: builder.appendKeyText(decimal: object.position)
            case .path(let path):
                if let name = name(path, of: object) {
                    name.withUnsafeBytes { builder.appendKeyText($0) }
                    continue
                }
                let index = value(path, of: object, in: tape)
                guard index >= 0 else { throw missing(path, .part, of: object, in: tape) }
                switch tape.tokens[index].kind {
                case .string: try tape.withStringBytes(at: index) { builder.appendKeyText($0) }
                case .number: builder.appendKeyText(decimal: Int(try tape.int64(at: index)))
                default:
                    throw tape.mismatch(at: index, expected: .entityKey(schemaEntity(of: object).name, part: true))
                }
            case .relationship(let relationship):
                guard try appendKeyText(ofRelationship: relationship, of: object, in: tape, into: builder) else {
                    let entity = schemaEntity(of: object)
                    throw PayloadError(
                        file: tape.file, byteOffset: tape.baseOffset + Int(tape.tokens[object.token].start),
                        path: tape.recordPath(ofToken: object.token),
                        expected: .relationshipInKey(entity.toOne[relationship].name, of: entity.name), found: "none")
                }
            }
        }
        builder.endKeyText()
    }

    /// The error for a value the object lacks at `path` (absent or null) that its entity's key, or `part` of it, needs.
    private func missing(_ path: Int, _ part: PayloadExpectation.KeyPart, of object: ObjectFrame, in tape: JSONTape) -> PayloadError {
        let objectPath = tape.recordPath(ofToken: object.token)
        return PayloadError(
            file: tape.file, byteOffset: tape.baseOffset + Int(tape.tokens[object.token].start),
            path: "\(objectPath).\(object.plan.paths.paths[path])", expected: .valueForEntityKey(schemaEntity(of: object).name, part),
            found: found[object.frame + path] >= 0 ? "null" : "no such key")
    }

    /// Writes each attribute: the value at its path, the member name (`@key`), or, lacking both,
    /// NULL or absent as the mapping says.
    @inline(always)
    private func writeAttributes(of object: ObjectFrame, in tape: JSONTape, into builder: RecordBuilder) throws(PayloadError) {
        let plan = object.plan
        for (attribute, path) in plan.attributes.enumerated() {
            let index = found[object.frame + path]
            if index >= 0 {
                try tape.write(valueAt: index, to: builder, as: plan.attributeTypes[attribute])
            } else if let name = name(path, of: object) {
                try write(memberName: name, as: plan.attributeTypes[attribute], of: tape, into: builder)
            } else if plan.absentIsNull {
                builder.null()
            } else {
                builder.absent()
            }
        }
    }

    /// Writes each to-one reference: to the owner, to the embedded target read before, or by key;
    /// lacking all, an absent reference where the object leaves it out, else none.
    @inline(always)
    private func writeToOneReferences(of object: ObjectFrame, in tape: JSONTape, into builder: RecordBuilder) throws(PayloadError) {
        let plan = object.plan
        let frame = object.frame
        for (relationship, source) in plan.toOne.enumerated() {
            switch source {
            case .owner:
                if let handle = ownerHandle(relationship, listedBy: object.owner, plan: plan) {
                    builder.reference(to: handle)
                } else {
                    builder.noReference()
                }
            case .embedded, .key, .embeddedOrKey:
                let ordinal = targets[object.firstTarget + relationship]
                if ordinal >= 0 {
                    builder.reference(to: OccurrenceHandle(ordinal: ordinal))
                } else if let path = source.keyPath, case let index = value(path, of: object, in: tape), index >= 0 {
                    try reference(tape, index, into: builder)
                } else if let path = source.keyPath, let name = name(path, of: object) {
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
    }

    /// Writes each many-to-many set: the embedded members read before, in order, or the keys listed.
    @inline(always)
    private func writeSets(of object: ObjectFrame, in tape: JSONTape, into builder: RecordBuilder) throws(PayloadError) {
        var nextTarget = object.firstTarget + object.plan.toOne.count
        for source in object.plan.manyToMany {
            builder.beginSet()
            switch source {
            case .embedded(let path):
                guard case let index = value(path, of: object, in: tape), index >= 0 else { continue }
                for _ in 0..<Int(tape.tokens[index].count) {
                    builder.reference(to: OccurrenceHandle(ordinal: targets[nextTarget]))
                    nextTarget += 1
                }
            case .keys(let path):
                guard case let index = value(path, of: object, in: tape), index >= 0 else { continue }
                for member in try tape.elements(ofArray: index) {
                    try reference(tape, member, into: builder)
                }
            }
        }
    }

    /// Reads the children the object lists, after it (`handle`), which their owner links find
    /// among `owners`.
    @inline(always)
    private func readChildren(of object: ObjectFrame, in tape: JSONTape, handle: OccurrenceHandle, into builder: RecordBuilder) throws(PayloadError) {
        guard !object.plan.children.isEmpty else { return }
        owners.append((object.entity, handle))
        for list in object.plan.children {
            let index = value(list.path, of: object, in: tape)
            guard index >= 0 else { continue }
            for (childPosition, child) in try tape.elements(ofArray: index).enumerated() {
                _ = try read(
                    tape, child, entity: list.entity, listedBy: (handle, list.ownerRelationship), position: childPosition,
                    into: builder)
            }
        }
        owners.removeLast()
    }

    /// An attribute read from the element's member name (`@key`): text as it is, a number parsed.
    private func write(memberName: [UInt8], as type: ColumnType, of tape: JSONTape, into builder: RecordBuilder) throws(PayloadError) {
        let text = String(decoding: memberName, as: UTF8.self)
        switch type {
        case .text:
            memberName.withUnsafeBytes { _ = builder.text($0) }
        case .integer:
            guard let value = Int64(text) else { throw memberNameMismatch(text, expected: .integer, tape) }
            builder.integer(value)
        case .real:
            guard let value = Double(text), value.isFinite else { throw memberNameMismatch(text, expected: .number, tape) }
            builder.real(value)
        case .boolean:
            guard text == "true" || text == "false" else { throw memberNameMismatch(text, expected: .boolean, tape) }
            builder.integer(text == "true" ? 1 : 0)
        }
    }

    private func memberNameMismatch(_ name: String, expected: PayloadExpectation.ValueKind, _ tape: JSONTape) -> PayloadError {
        PayloadError(
            file: tape.file, byteOffset: tape.baseOffset, path: tape.recordPath, expected: .memberNameAs(expected),
            found: "\"\(name)\"")
    }

    /// A key given by value: a string, or an integer as decimal text.
    private func reference(_ tape: JSONTape, _ index: Int, into builder: RecordBuilder) throws(PayloadError) {
        switch tape.tokens[index].kind {
        case .string: try tape.withStringBytes(at: index) { builder.reference(keyText: $0) }
        case .number: builder.reference(decimalKey: Int(try tape.int64(at: index)))
        default: throw tape.mismatch(at: index, expected: .referenceKey)
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
        ofRelationship relationship: Int, of object: ObjectFrame, in tape: JSONTape, into builder: RecordBuilder
    ) throws(PayloadError) -> Bool {
        let plan = object.plan
        let span: TextSpan?
        switch plan.toOne[relationship] {
        case .owner:
            span = ownerHandle(relationship, listedBy: object.owner, plan: plan).flatMap { builder.keyText(of: $0) }
        case .embedded, .key, .embeddedOrKey:
            let ordinal = targets[object.firstTarget + relationship]
            if ordinal >= 0 {
                span = builder.keyText(of: OccurrenceHandle(ordinal: ordinal))
                break
            }
            guard let path = plan.toOne[relationship].keyPath, case let index = value(path, of: object, in: tape), index >= 0 else { return false }
            switch tape.tokens[index].kind {
            case .string: try tape.withStringBytes(at: index) { builder.appendKeyText($0) }
            case .number: builder.appendKeyText(decimal: Int(try tape.int64(at: index)))
            default: throw tape.mismatch(at: index, expected: .referenceKey)
            }
            return true
        }
        guard let span else { return false }
        builder.appendKeyText(span)
        return true
    }
}
