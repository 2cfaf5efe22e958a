import Foundation
import ImportBenchSchema

/// The elements of one JSON array read as records under a `PayloadErrorPolicy`, shared by the JSON
/// scenarios' readers. An element the splitter delimited but that fails to parse, or parses but
/// fails to decode, is one bad record: skipped with `.skip`, thrown with `.fail`. Splitter errors
/// are always thrown, and so is a parse failure in an element whose strings hold an element seam:
/// its end may not be its own (see `JSONArrayElement.hasElementSeamInsideString`). Every error
/// thrown is final. A payload with no element at all (blank lines only, `[]`, a gzip of nothing)
/// is refused where its elements ended (`JSONElementSource.noElement`), as an empty file is: a
/// benchmark of nothing would call every strategy valid.
struct JSONRecordStream {
    private let elements: any JSONElementSource
    /// The skip reason, such as `malformed channel`.
    private let reason: String
    private(set) var errors: PayloadErrorHandler
    /// Whether the source handed out an element (read or skipped).
    private var sawElement = false

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
            while let next = try elements.next() {
                sawElement = true
                guard let (tape, element) = try parsed(next) else { continue }
                do {
                    return try decode(tape)
                } catch let error as PayloadError {
                    try skip(error, decoding: element)
                }
            }
            guard sawElement else { throw elements.noElement() }
            return nil
        } catch {
            throw errors.fail(error)
        }
    }

    /// Has `decoder` write the next element into `builder` as one unit; false at the end of the
    /// array. A skipped element leaves nothing in the builder.
    mutating func readUnit<Decoder: JSONElementDecoder>(into builder: RecordBuilder, by decoder: Decoder) throws -> Bool {
        try readElement(into: builder, by: decoder) != nil
    }

    /// The next element that `decoder` puts into a fresh builder, as owned occurrences (ordinals and
    /// key IDs unset, embedded references by index within the unit): for callers that want values
    /// rather than a batch, from the same code as the import's path.
    mutating func ownedUnit<Decoder: JSONElementDecoder>(schema: Schema, by decoder: Decoder) throws -> RecordUnit? {
        let builder = RecordBuilder(schema: schema, interner: KeyInterner(entityCount: schema.entities.count))
        guard let tape = try readElement(into: builder, by: decoder) else { return nil }
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
        return RecordUnit(occurrences: occurrences, path: tape.recordPath, byteOffset: tape.baseOffset)
    }

    /// Has `decoder` write the next element into `builder` as one unit and returns its tape, or nil
    /// at the end of the array. The decoder is a protocol's, not a closure: a closure's captures
    /// (the reader, the builder) cost a retain and a release each per element.
    private mutating func readElement<Decoder: JSONElementDecoder>(into builder: RecordBuilder, by decoder: Decoder) throws -> JSONTape? {
        try errors.throwIfFailed()
        do {
            while let next = try elements.next() {
                sawElement = true
                builder.beginUnit()
                do {
                    if let (tape, element) = try parsed(next) {
                        do {
                            try decoder.decodeElement(tape, into: builder)
                            return tape
                        } catch let error as PayloadError {
                            try skip(error, decoding: element)
                        }
                    }
                } catch {
                    builder.discardUnit()
                    throw error
                }
                builder.discardUnit()
            }
            guard sawElement else { throw elements.noElement() }
            return nil
        } catch {
            throw errors.fail(error)
        }
    }

    /// The element's tape, with where the element is (its index and first byte) for locating errors;
    /// nil when it failed to parse and was skipped.
    private mutating func parsed(_ next: JSONArrayElementReader.Element) throws -> (JSONTape, ElementPlace)? {
        let element: JSONArrayElement
        switch next {
        case .parsed(let tape, let index):
            // Located as a delimited element would be (the tape starts the element).
            return (tape, ElementPlace(index: index, byteOffset: tape.baseOffset))
        case .delimited(let delimited): element = delimited
        }
        let recordPath = elements.elementPath(element.index)
        do {
            let tape = try JSONTape(
                bytes: element.bytes, baseOffset: element.byteOffset, file: elements.path, recordPath: recordPath, limits: elements.limits)
            return (tape, ElementPlace(index: element.index, byteOffset: element.byteOffset))
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
    }

    /// Skips the element whose decoding threw `error` (or throws it, under `.fail`), located as a
    /// delimited element would be.
    private mutating func skip(_ error: PayloadError, decoding element: ElementPlace) throws {
        let location = JSONArrayElement(index: element.index, byteOffset: element.byteOffset, bytes: Data())
        try errors.skip(elements.located(error, in: location), reason: reason)
    }

    /// Where an element is: its index in the array and its first byte in the file.
    private struct ElementPlace {
        let index: Int
        let byteOffset: Int
    }
}
