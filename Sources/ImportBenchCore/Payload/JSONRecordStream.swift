import Foundation

/// The elements of one JSON array read as records under a `PayloadErrorPolicy`, shared by the JSON
/// scenarios' readers. An element the splitter delimited but that fails to parse, or parses but
/// fails to decode, is one bad record: skipped with `.skip`, thrown with `.fail`. Splitter errors
/// are always thrown, and so is a parse failure in an element whose strings hold an element seam:
/// its end may not be its own (see `JSONArrayElement.hasElementSeamInsideString`). Every error
/// thrown is final.
struct JSONRecordStream {
    private let elements: any JSONElementSource
    /// The skip reason, such as `malformed channel`.
    private let reason: String
    private(set) var errors: PayloadErrorHandler

    init(elements: any JSONElementSource, recordName: String, onError: PayloadErrorPolicy) {
        self.elements = elements
        reason = "malformed \(recordName)"
        errors = PayloadErrorHandler(policy: onError)
    }

    /// The next element that `decode` turns into a unit, or nil at the end of the array.
    /// `decode` receives the element's tape, whose record path and base offset are the unit's.
    mutating func nextUnit(_ decode: (JSONTape) throws -> RecordUnit) throws -> RecordUnit? {
        try errors.throwIfFailed()
        do {
            while let element = try elements.next() {
                if let unit = try decoded(element, decode) { return unit }
            }
            return nil
        } catch {
            throw errors.fail(error)
        }
    }

    /// Has `decode` write the next element into `builder` as one unit; false at the end of the
    /// array. A skipped element leaves nothing in the builder.
    mutating func readUnit(into builder: RecordBuilder, _ decode: (JSONTape) throws -> Void) throws -> Bool {
        try errors.throwIfFailed()
        do {
            while let element = try elements.next() {
                builder.beginUnit()
                let written: Void?
                do {
                    written = try decoded(element, decode)
                } catch {
                    builder.discardUnit()
                    throw error
                }
                if written != nil { return true }
                builder.discardUnit()
            }
            return false
        } catch {
            throw errors.fail(error)
        }
    }

    /// The next element that `write` puts into a fresh builder, as owned occurrences (ordinals and key
    /// IDs unset, embedded references by index within the unit): for callers that want values rather
    /// than a batch, from the same code as the import's path.
    mutating func ownedUnit(schema: Schema, _ write: (JSONTape, RecordBuilder) throws -> Void) throws -> RecordUnit? {
        let builder = RecordBuilder(schema: schema, interner: KeyInterner(entityCount: schema.entities.count))
        var location = (path: "", byteOffset: 0)
        let found = try readUnit(into: builder) { tape in
            location = (tape.recordPath, tape.baseOffset)
            try write(tape, builder)
        }
        guard found else { return nil }
        func withoutID(_ reference: Reference) -> Reference {
            Reference(key: reference.key, embeddedOrdinal: reference.embeddedOrdinal)
        }
        let occurrences = builder.cut(first: builder.count, index: 0).occurrences.map { occurrence in
            var owned = occurrence.materialized
            owned.ordinal = 0
            owned.unit = 0
            owned.keyID = -1
            owned.toOne = owned.toOne.map { $0.map(withoutID) }
            owned.manyToMany = owned.manyToMany.map { $0.map(withoutID) }
            return owned
        }
        return RecordUnit(occurrences: occurrences, path: location.path, byteOffset: location.byteOffset)
    }

    /// What `decode` made of the element, or nil when it was skipped.
    private mutating func decoded<Decoded>(
        _ next: JSONArrayElementReader.Element, _ decode: (JSONTape) throws -> Decoded
    ) throws -> Decoded? {
        let element: JSONArrayElement
        switch next {
        case .parsed(let tape, let index):
            // Located as a delimited element would be (the tape starts the element).
            return try decoded(tape, decode, at: (index, tape.baseOffset))
        case .delimited(let delimited): element = delimited
        }
        let recordPath = elements.elementPath(element.index)
        let tape: JSONTape
        do {
            tape = try JSONTape(
                bytes: element.bytes, baseOffset: element.byteOffset, file: elements.path, recordPath: recordPath, limits: elements.limits)
        } catch let unlocated {
            let error = elements.located(unlocated, in: element)
            if errors.policy == .skip, element.hasElementSeamInsideString {
                throw PayloadError(
                    file: error.file, byteOffset: error.byteOffset, path: error.path, expected: error.expected,
                    found: error.found + "; not skipped: a string in \(recordPath) holds what looks like the start of "
                        + "another element, so a quote is likely out of place and where the element ends is unknown")
            }
            try errors.skip(error, reason: reason)
            return nil
        }
        return try decoded(tape, decode, at: (element.index, element.byteOffset))
    }

    /// `element` is where the tape's element is (its index and first byte), for locating errors.
    private mutating func decoded<Decoded>(
        _ tape: JSONTape, _ decode: (JSONTape) throws -> Decoded, at element: (index: Int, byteOffset: Int)
    ) throws -> Decoded? {
        do {
            return try decode(tape)
        } catch let error as PayloadError {
            let location = JSONArrayElement(index: element.index, byteOffset: element.byteOffset, bytes: Data())
            try errors.skip(elements.located(error, in: location), reason: reason)
            return nil
        }
    }
}
