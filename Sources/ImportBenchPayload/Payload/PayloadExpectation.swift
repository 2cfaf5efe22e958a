/// What a payload reader, writer or generator expected where it stopped: the first half of every
/// `PayloadError` ("expected …, found …"). A case carries the values its sentence names (a key, a
/// count, a limit, a collection), never text made up front: `description` writes every sentence,
/// the one place they are spelled, so a message reads the same wherever it is thrown and tests
/// compare cases. Cases are built only when an error is, off every reader's success path. An object
/// on the way to a streamed collection is named by its key path (`["data"]`; `[]`: the document).
package enum PayloadExpectation: Sendable, Equatable, Codable, CustomStringConvertible {
    // MARK: Files and the system

    /// A file could not be opened or read.
    case readable(ReadableFile)
    /// The payload (or one of its directory's entries) is a FIFO, a device or another special file.
    case regularFile(inDirectory: Bool)
    /// A gzip stream could not be inflated or deflated: zlib refused it, or it is damaged or cut short.
    case gzipStream(GzipStep)
    /// A file being written could not be created, written, closed or given its name.
    case output(OutputStep)
    /// The temporary file that sets sibling collections aside could not be made, written, sought or read back.
    case spool(SpoolStep)
    /// A GTFS feed being written has no place to go.
    case feedOutput(FeedOutput)
    /// The sample being copied ended before the bytes read from it earlier: it changed meanwhile.
    case moreBytes

    // MARK: Generating and scaling

    /// A generator or the scaler was given a scale that is not finite, or not above 0.
    case positiveScale
    /// The scaled payload's name does not suit what it holds: JSON Lines or a `.json` document.
    case scaledName(jsonLines: Bool)
    /// A sample's integer keys, moved apart by `stride` per copy, would leave 64 bits.
    case integerKeysThatFit(copies: Int, stride: Int64)
    /// A key or member name ends in `~N`, as the scaler's copies do, so a copy could repeat it.
    case nameWithoutCopySuffix(memberName: Bool)
    /// An entity's key lacks its value at `path`, and its fallback would repeat in every copy.
    case rewritableKey(entity: String, path: String)

    // MARK: The payload's shape

    /// A built-in scenario's reader was handed another schema.
    case scenarioSchema(String)
    /// A schema lacks an entity the chat reader needs.
    case schemaEntity(String)
    /// A schema's entity differs from the one the chat reader writes.
    case entityShape(String, attributes: [String], toOne: [String], manyToMany: [String])
    /// The transit reader's directory does not exist.
    case feedDirectory(files: [String])
    /// A GTFS feed holds a file both plain and gzipped.
    case oneFeedFile(String)
    /// A mapping of several collections was given a JSON Lines payload.
    case mappingDocument(collections: Int)
    /// A payload, collection or feed holds nothing to read.
    case atLeastOne(Content)
    /// A collection's header row (`header_row: true`) is not an array of names.
    case headerRow(columnName: Bool)

    // MARK: Limits

    /// A string, number, element, line, row or nesting past its limit (`PayloadLimits`).
    case limit(Limit, Int)
    /// An element as long as a tape's 32-bit offsets can reach.
    case valueUnder4GiB

    // MARK: Values

    /// A value of another kind than the one asked for.
    case kind(ValueKind)
    /// A member name read as an attribute (`@key`) that does not read as its type.
    case memberNameAs(ValueKind)
    /// A key given by value (a reference, a to-one target's key) that is neither string nor integer.
    case referenceKey
    /// An entity's key, or a part of it, that is neither string nor integer.
    case entityKey(String, part: Bool)
    /// A required member absent or null.
    case valueForKey(String)
    /// An entity's key, or a value it is composed of, absent or null.
    case valueForEntityKey(String, KeyPart)
    /// A to-one target whose key is part of the entity's key is absent.
    case relationshipInKey(String, of: String)
    /// A key repeated in an object with another value.
    case sameValueForRepeatedKey(String)

    // MARK: CSV

    /// A CSV file without even a header line.
    case headerLine
    /// A CSV header that names a column twice.
    case distinctColumnNames
    /// A CSV header without a column the reader needs.
    case column(String)
    /// An empty field where the reader needs a value.
    case nonEmpty(String)
    /// A CSV row of another width than the header.
    case fields(Int)
    /// A quoted CSV field never closed.
    case closingQuote
    /// Text after a CSV field's closing quote.
    case separatorAfterClosingQuote
    /// Bytes that are not UTF-8: in JSON text, or in a CSV field read as UTF-8 text.
    case validUTF8(csvText: Bool)

    // MARK: JSON text

    /// No value where one should be; in a container being skipped over, its closing bracket would do too.
    case value(orClosing: Container?)
    /// An array just opened, or cut short after its `[`.
    case valueOrClosingBracket
    /// An object's member key; the first may be its `}`.
    case key(orClosingBrace: Bool)
    /// Neither a comma nor the container's end after a value; `of`: the object on the way being closed.
    case comma(orClosing: Container, of: [String]? = nil)
    /// The colon after a key, or after a collection's member name.
    case colon(afterMemberName: Bool)
    /// Text after an element's or a line's value.
    case nothingAfterValue
    /// A JSON Lines line holding a lone `{` or `[`: a document spread over lines, not JSON Lines.
    case wholeValuePerLine
    /// Text after the document a collection was read from.
    case endOfFileAfterDocument
    /// A key whose escapes do not decode.
    case validKeyString
    /// A word that starts like `true`, `false` or `null` and is not.
    case literal(String)
    /// A number cut off after its sign, point or exponent.
    case digit(after: NumberPart)
    /// A string holding a raw control character, a bad escape or a lone surrogate, or never closed.
    case stringContent(StringPart)
    /// A string (`container` nil), an object or an array that the file ends inside.
    case cutShort(Container?, startingAt: Int)

    // MARK: Streaming a collection

    /// After a collection's element, neither a comma nor the collection's end.
    case separator(after: ElementName, of: ElementCollection)
    /// The file ends where an element of the collection (or, just opened, its closing bracket) should be.
    case element(of: ElementCollection, orClosing: Bool)
    /// The reader lost where the element it delimited starts (a bug, not the payload's).
    case elementStart(Int)
    /// An object without the member leading to the collection, or any of the sibling collections.
    case member(named: [String], in: [String])
    /// A collection's key met a second time in its object.
    case oneMember(String, in: [String])
    /// In a collection that is an object, no member name where the next element's should be.
    case memberName(in: ElementCollection)
    /// A collection that is an object ends after a member's name (said "member member", as ever).
    case memberValue(ElementName)
    /// The document, or an object on the way to the collection, that does not open with `{`.
    case openingBrace(of: [String])
    /// The collection (nil: the document itself) that does not open with `[`.
    case openingBracket(of: ElementCollection?)
    /// An object on the way to the collection, ending where a member's value should be.
    case valueOfMember(in: [String])

    package var description: String {
        switch self {
        case .readable(let file): Self.text(of: file)
        case .regularFile(let inDirectory): inDirectory ? "a regular file in the payload directory" : "a regular file or a directory of them"
        case .gzipStream(let step): Self.text(of: step)
        case .output(let step): Self.text(of: step)
        case .spool(let step): Self.text(of: step)
        case .feedOutput(let output): Self.text(of: output)
        case .moreBytes: "more bytes"
        case .positiveScale: "a finite scale greater than 0"
        case .scaledName(jsonLines: true): "a JSON Lines name (.jsonl or .ndjson) for copies of a JSON Lines sample"
        case .scaledName(jsonLines: false): "a .json name: JSON Lines holds the elements of one array"
        case .integerKeysThatFit(let copies, let stride):
            "integer keys that \(copies) copies can move apart within 64 bits (each copy adds \(stride))"
        case .nameWithoutCopySuffix(let memberName):
            "a \(memberName ? "member name" : "key") that does not end in ~N (copies append ~c, so it could equal another copy's)"
        case .rewritableKey(let entity, let path): "the key of \(entity) at \(path), which --from rewrites per copy"
        case .scenarioSchema(let name): "the \(name) schema"
        case .schemaEntity(let name): "schema entity '\(name)'"
        case .entityShape(let name, let attributes, let toOne, let manyToMany):
            "entity '\(name)' with attributes \(attributes), to-one \(toOne), to-many \(manyToMany)"
        case .feedDirectory(let files): "a GTFS feed directory holding \(Self.listed(files, conjunction: "and"))"
        case .oneFeedFile(let file): "one \(file) in the feed, plain or gzipped"
        case .mappingDocument(let collections): "a JSON document holding the mapping's \(collections) collections"
        case .atLeastOne(let content): "at least one " + Self.text(of: content)
        case .headerRow(let columnName): (columnName ? "a column name (a string) in " : "") + Self.headerRow
        case .limit(let limit, let value): Self.text(of: limit, value)
        case .valueUnder4GiB: "a value smaller than 4 GiB"
        case .kind(let kind): Self.text(of: kind)
        case .memberNameAs(let kind): "\(Self.text(of: kind)) as the member name (@key)"
        case .referenceKey: "a key: a string or an integer"
        case .entityKey(let entity, let part): "a string or an integer (\(part ? "part of " : "")the key of \(entity))"
        case .valueForKey(let key): "a value for key \"\(key)\""
        case .valueForEntityKey(let entity, .whole): "a value for the key of \(entity)"
        case .valueForEntityKey(let entity, .wholeOrFallback): "a value for the key of \(entity), or the values its fallback is composed of"
        case .valueForEntityKey(let entity, .part): "a value for a part of the key of \(entity)"
        case .relationshipInKey(let relationship, let entity): "a \(relationship) (its key is part of the key of \(entity))"
        case .sameValueForRepeatedKey(let key): "one value for key \"\(key)\" (a repeated key must repeat its value)"
        case .headerLine: "a header line naming the columns"
        case .distinctColumnNames: "distinct column names"
        case .column(let name): "a column named \(name) in the header"
        case .nonEmpty(let column): "a non-empty \(column)"
        case .fields(let count): "\(count) fields, as in the header"
        case .closingQuote: "a closing quote for the field opened here"
        case .separatorAfterClosingQuote: "',' or a line break after a closing quote"
        case .validUTF8(csvText: false): "valid UTF-8"
        case .validUTF8(csvText: true): "valid UTF-8 text (a file in Latin-1 or Windows-1252 imports with --encoding latin-1, windows-1252 or auto)"
        case .value(let container): container.map { "\(Self.closer($0)) or a value" } ?? "a value"
        case .valueOrClosingBracket: "a value or ']'"
        case .key(let orClosingBrace): orClosingBrace ? "a key or '}'" : "a key"
        case .comma(let container, let owner): "',' or \(Self.closer(container))" + (owner.map { " closing \(Self.text(ofOwner: $0))" } ?? "")
        case .colon(let afterMemberName): "':' after a \(afterMemberName ? "member name" : "key")"
        case .nothingAfterValue: "nothing after the value"
        case .wholeValuePerLine: "one whole JSON value per line (JSON Lines)"
        case .endOfFileAfterDocument: "end of file after the document"
        case .validKeyString: "a valid key string"
        case .literal(let literal): "the literal \(literal)"
        case .digit(let part): "a digit after \(Self.text(of: part))"
        case .stringContent(let part): Self.text(of: part)
        case .cutShort(let container, let start):
            "\(container.map(Self.closer) ?? "a closing '\"'"): the value that starts at byte \(start) is cut short"
        case .separator(let element, let collection):
            "',' or \(Self.closer(collection.container)) after \(Self.text(of: element)) of \(Self.text(of: collection))"
        case .element(let collection, false): "an element of \(Self.text(of: collection))"
        case .element(let collection, true): "an element or \(Self.closer(collection.container)) in \(Self.text(of: collection))"
        case .elementStart(let index): "the start of element \(index)"
        case .member(let names, let owner): "key \(Self.listed(names.map(Self.quoted), conjunction: "or")) in \(Self.text(ofOwner: owner))"
        case .oneMember(let name, let owner): "one member \(Self.quoted(name)) in \(Self.text(ofOwner: owner))"
        case .memberName(let collection): "a member name in \(Self.text(of: collection))"
        case .memberValue(let element): "the value of member \(Self.text(of: element))"
        case .openingBrace(let owner): "'{' opening \(Self.text(ofOwner: owner))"
        case .openingBracket(let collection): "'[' opening \(collection.map(Self.text) ?? "the document")"
        case .valueOfMember(let owner): "a value in \(Self.text(ofOwner: owner))"
        }
    }

    private static let headerRow = "a header row, an array of column names (the mapping says header_row: true)"
}

// MARK: What the cases carry

extension PayloadExpectation {
    /// A file a reader opens or reads.
    package enum ReadableFile: String, Sendable, Codable {
        case file, jsonLinesFile, csvFile, payloadFile, preloadPayload
        /// The sample the scaler copies elements from.
        case sample
    }

    /// Where a gzip stream failed: opening, inflating, ending, starting to deflate, deflating.
    package enum GzipStep: String, Sendable, Codable {
        case zlibCanOpen, intact, rest, zlibCanStart, zlibCanWrite
    }

    /// Where writing a file failed: its path, creating it, a write, closing it.
    package enum OutputStep: String, Sendable, Codable {
        case filePath, writableFile, write, close
    }

    /// Where the spool of sibling collections failed: making its file, writing, seeking, reading back.
    package enum SpoolStep: String, Sendable, Codable {
        case temporaryFile, write, seek, readBack
    }

    /// Where a GTFS feed being written failed to go: its directory, or a file's final place.
    package enum FeedOutput: Sendable, Equatable, Codable {
        case directoryOrNothing, writableDirectory
        case placeFor(String)
    }

    /// What a payload with nothing to read lacks.
    package enum Content: Sendable, Equatable, Codable {
        /// An element in the collection.
        case element(in: ElementCollection)
        /// An element in any of the collections (their record paths).
        case elementInCollections([String])
        /// A line of JSON Lines holding a value.
        case jsonLine
        /// A row after a collection's header row.
        case rowAfterHeaderRow
        /// A row in any of a GTFS feed's files.
        case row(inFiles: [String])
        /// A record `--on-error skip` did not leave out.
        case readableRecord
    }

    /// What a `PayloadLimits` limit, or the parser's nesting depth, holds.
    package enum Limit: String, Sendable, Codable {
        case jsonString, jsonNumber, jsonElement, jsonLine, csvRow, nesting
    }

    /// The kinds of value a reader asks for.
    package enum ValueKind: String, Sendable, Codable {
        case string, boolean, integer, integerWithin64Bits, number, numberWithinDouble, finiteDecimal, object, array
        /// An array read by position as a row (a mapping's `[0]` paths).
        case rowByPosition
    }

    /// Which part of an entity's key is missing: the key, the key and its fallback's values, a part.
    package enum KeyPart: String, Sendable, Codable {
        case whole, wholeOrFallback, part
    }

    /// A JSON container: an object closes with `}`, an array with `]`.
    package enum Container: String, Sendable, Codable {
        case object, array
    }

    /// Where a number stopped before a digit: after its `-`, its `.` or its exponent's `e`.
    package enum NumberPart: String, Sendable, Codable {
        case minus, point, exponent
    }

    /// What a JSON string lacks.
    package enum StringPart: Sendable, Equatable, Codable {
        case character, escape, highSurrogate, lowSurrogate
        /// Its closing quote: the file ends inside the string opened at this byte.
        case closingQuote(openedAt: Int)
    }

    /// A collection being streamed, by its key path (empty: the document itself), as an array or an
    /// object whose members are the elements.
    package enum ElementCollection: Sendable, Equatable, Codable {
        case array([String])
        case object([String])

        var container: Container {
            switch self {
            case .array: return .array
            case .object: return .object
            }
        }
    }

    /// A collection's element: by index in an array, by name in an object.
    package enum ElementName: Sendable, Equatable, Codable {
        case index(Int)
        case member(String)
    }
}

// MARK: Rendering what the cases carry

extension PayloadExpectation {
    private static func text(of file: ReadableFile) -> String {
        switch file {
        case .file: return "a readable file"
        case .jsonLinesFile: return "a readable JSON Lines file"
        case .csvFile: return "a readable CSV file"
        case .payloadFile: return "a readable payload file"
        case .preloadPayload: return "a readable preload payload"
        case .sample: return "the sample to copy"
        }
    }

    private static func text(of step: GzipStep) -> String {
        switch step {
        case .zlibCanOpen: return "a gzip stream zlib can open"
        case .intact: return "a gzip stream"
        case .rest: return "the rest of the gzip stream"
        case .zlibCanStart: return "a gzip stream zlib can start"
        case .zlibCanWrite: return "a gzip stream zlib can write"
        }
    }

    private static func text(of step: OutputStep) -> String {
        switch step {
        case .filePath: return "a file path to write"
        case .writableFile: return "a writable file"
        case .write: return "a successful write"
        case .close: return "a successful close"
        }
    }

    private static func text(of step: SpoolStep) -> String {
        switch step {
        case .temporaryFile: return "a temporary file to set collections aside in"
        case .write: return "to write the temporary file collections are set aside in"
        case .seek: return "to seek the temporary file collections are set aside in"
        case .readBack: return "to read back the temporary file collections are set aside in"
        }
    }

    private static func text(of output: FeedOutput) -> String {
        switch output {
        case .directoryOrNothing: return "a directory for the GTFS feed, or nothing"
        case .writableDirectory: return "a writable directory for the GTFS feed"
        case .placeFor(let file): return "a place to put the written feed file \(file)"
        }
    }

    private static func text(of content: Content) -> String {
        switch content {
        case .element(let collection): return "element in \(text(of: collection))"
        case .elementInCollections(let paths): return "element in the collections \(listed(paths.map(quoted), conjunction: "or"))"
        case .jsonLine: return "element: a JSON value on a line of its own (JSON Lines)"
        case .rowAfterHeaderRow: return "row after the header row"
        case .row(let files): return "row in \(listed(files, conjunction: "or"))"
        case .readableRecord: return "record that can be read"
        }
    }

    private static func text(of limit: Limit, _ value: Int) -> String {
        switch limit {
        case .jsonString: return "a string of at most \(value) bytes (raise the limit with \(PayloadLimits.Option.jsonString))"
        case .jsonNumber: return "a number of at most \(value) characters (raise the limit with \(PayloadLimits.Option.jsonNumber))"
        case .jsonElement: return "an element of at most \(value) bytes (raise the limit with \(PayloadLimits.Option.jsonElement))"
        case .jsonLine: return "a line of at most \(value) bytes (raise it with \(PayloadLimits.Option.jsonElement))"
        case .csvRow: return "a row of at most \(value) bytes (raise the limit with \(PayloadLimits.Option.csvRow))"
        case .nesting: return "nesting at most \(value) deep"
        }
    }

    private static func text(of kind: ValueKind) -> String {
        switch kind {
        case .string: return "a string"
        case .boolean: return "true or false"
        case .integer: return "an integer"
        case .integerWithin64Bits: return "an integer within 64 bits"
        case .number: return "a number"
        case .numberWithinDouble: return "a number within the range of Double"
        case .finiteDecimal: return "a finite decimal number"
        case .object: return "an object"
        case .array: return "an array"
        case .rowByPosition: return "an array (a row read by position)"
        }
    }

    private static func text(of part: StringPart) -> String {
        switch part {
        case .character: return "a character or an escape (control characters must be escaped)"
        case .escape: return "an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\u and 4 hex digits)"
        case .highSurrogate: return "a high surrogate escape (\\uD800-\\uDBFF) before a low one"
        case .lowSurrogate: return "a low surrogate escape (\\uDC00-\\uDFFF) after a high one"
        case .closingQuote(let start): return "'\"' closing the string at byte \(start)"
        }
    }

    /// `the top-level array`, `array "channels"`, `object "events"`.
    private static func text(of collection: ElementCollection) -> String {
        switch collection {
        case .array(let path): return path.isEmpty ? "the top-level array" : "array \"\(path.joined(separator: "."))\""
        case .object(let path): return path.isEmpty ? "the top-level object" : "object \"\(path.joined(separator: "."))\""
        }
    }

    /// `element 3`, `member "138586341"`.
    private static func text(of element: ElementName) -> String {
        switch element {
        case .index(let index): return "element \(index)"
        case .member(let name): return "member \(JSONArrayElementReader.quotedName(name))"
        }
    }

    /// An object on the way to a collection, by its key path: `the document`, `"data.items"`.
    private static func text(ofOwner owner: [String]) -> String {
        owner.isEmpty ? "the document" : "\"\(owner.joined(separator: "."))\""
    }

    private static func text(of part: NumberPart) -> String {
        switch part {
        case .minus: return "'-'"
        case .point: return "'.'"
        case .exponent: return "the exponent's 'e'"
        }
    }

    private static func quoted(_ name: String) -> String { "\"\(name)\"" }

    private static func closer(_ container: Container) -> String {
        container == .object ? "'}'" : "']'"
    }

    /// `a`, `a or b`, `a, b or c`.
    private static func listed(_ items: [String], conjunction: String) -> String {
        items.count <= 1 ? items.joined() : items.dropLast().joined(separator: ", ") + " \(conjunction) " + (items.last ?? "")
    }
}
