import Foundation
import Testing

@testable import ImportBenchCore
@testable import ImportBenchPayload

/// Every sentence a `PayloadError` says it expected, written once, by `PayloadExpectation.description`
/// (issue 48, item 5): each case, or a representative value of it, against the exact text its call
/// site wrote before the cases existed. Docs, CLI snapshots and users' scripts read these messages,
/// so a change here is a change to what bench prints. Other tests compare cases, not this text.
@Suite("PayloadExpectation: what a payload error expected, and the text it says")
struct PayloadExpectationTests {
    struct Snapshot: CustomTestStringConvertible, Sendable {
        let expectation: PayloadExpectation
        let text: String
        var testDescription: String { text }

        init(_ expectation: PayloadExpectation, _ text: String) {
            self.expectation = expectation
            self.text = text
        }
    }

    static let files: [Snapshot] = [
        Snapshot(.readable(.file), "a readable file"),
        Snapshot(.readable(.jsonLinesFile), "a readable JSON Lines file"),
        Snapshot(.readable(.csvFile), "a readable CSV file"),
        Snapshot(.readable(.payloadFile), "a readable payload file"),
        Snapshot(.readable(.preloadPayload), "a readable preload payload"),
        Snapshot(.readable(.sample), "the sample to copy"),
        Snapshot(.regularFile(inDirectory: true), "a regular file in the payload directory"),
        Snapshot(.regularFile(inDirectory: false), "a regular file or a directory of them"),
        Snapshot(.gzipStream(.zlibCanOpen), "a gzip stream zlib can open"),
        Snapshot(.gzipStream(.intact), "a gzip stream"),
        Snapshot(.gzipStream(.rest), "the rest of the gzip stream"),
        Snapshot(.gzipStream(.zlibCanStart), "a gzip stream zlib can start"),
        Snapshot(.gzipStream(.zlibCanWrite), "a gzip stream zlib can write"),
        Snapshot(.output(.filePath), "a file path to write"),
        Snapshot(.output(.writableFile), "a writable file"),
        Snapshot(.output(.write), "a successful write"),
        Snapshot(.output(.close), "a successful close"),
        Snapshot(.spool(.temporaryFile), "a temporary file to set collections aside in"),
        Snapshot(.spool(.write), "to write the temporary file collections are set aside in"),
        Snapshot(.spool(.seek), "to seek the temporary file collections are set aside in"),
        Snapshot(.spool(.readBack), "to read back the temporary file collections are set aside in"),
        Snapshot(.feedOutput(.directoryOrNothing), "a directory for the GTFS feed, or nothing"),
        Snapshot(.feedOutput(.writableDirectory), "a writable directory for the GTFS feed"),
        Snapshot(.feedOutput(.placeFor("/p/.feed.partial-7/stops.txt")), "a place to put the written feed file /p/.feed.partial-7/stops.txt"),
        Snapshot(.moreBytes, "more bytes"),
    ]

    static let generating: [Snapshot] = [
        Snapshot(.positiveScale, "a finite scale greater than 0"),
        Snapshot(.scaledName(jsonLines: true), "a JSON Lines name (.jsonl or .ndjson) for copies of a JSON Lines sample"),
        Snapshot(.scaledName(jsonLines: false), "a .json name: JSON Lines holds the elements of one array"),
        Snapshot(
            .integerKeysThatFit(copies: 10, stride: 9_000_000_000_000_000_000),
            "integer keys that 10 copies can move apart within 64 bits (each copy adds 9000000000000000000)"),
        Snapshot(
            .nameWithoutCopySuffix(memberName: true),
            "a member name that does not end in ~N (copies append ~c, so it could equal another copy's)"),
        Snapshot(.nameWithoutCopySuffix(memberName: false), "a key that does not end in ~N (copies append ~c, so it could equal another copy's)"),
        Snapshot(.rewritableKey(entity: "order", path: "ref.id"), "the key of order at ref.id, which --from rewrites per copy"),
    ]

    static let shapes: [Snapshot] = [
        Snapshot(.scenarioSchema("transit"), "the transit schema"),
        Snapshot(.schemaEntity("user"), "schema entity 'user'"),
        Snapshot(
            .entityShape("user", attributes: ["name", "role"], toOne: [], manyToMany: ["tags"]),
            #"entity 'user' with attributes ["name", "role"], to-one [], to-many ["tags"]"#),
        Snapshot(
            .feedDirectory(files: ["stops.txt", "trips.txt", "stop_times.txt"]),
            "a GTFS feed directory holding stops.txt, trips.txt and stop_times.txt"),
        Snapshot(.oneFeedFile("stops.txt"), "one stops.txt in the feed, plain or gzipped"),
        Snapshot(.mappingDocument(collections: 2), "a JSON document holding the mapping's 2 collections"),
        Snapshot(.atLeastOne(.element(in: .array(["channels"]))), #"at least one element in array "channels""#),
        Snapshot(.atLeastOne(.element(in: .array([]))), "at least one element in the top-level array"),
        Snapshot(.atLeastOne(.element(in: .object(["data", "events"]))), #"at least one element in object "data.events""#),
        Snapshot(.atLeastOne(.elementInCollections(["venues", "events"])), #"at least one element in the collections "venues" or "events""#),
        Snapshot(.atLeastOne(.elementInCollections(["a", "b.c", "d"])), #"at least one element in the collections "a", "b.c" or "d""#),
        Snapshot(.atLeastOne(.jsonLine), "at least one element: a JSON value on a line of its own (JSON Lines)"),
        Snapshot(.atLeastOne(.rowAfterHeaderRow), "at least one row after the header row"),
        Snapshot(
            .atLeastOne(.row(inFiles: ["stops.txt", "trips.txt", "stop_times.txt"])), "at least one row in stops.txt, trips.txt or stop_times.txt"),
        Snapshot(.atLeastOne(.readableRecord), "at least one record that can be read"),
        Snapshot(.headerRow(columnName: false), "a header row, an array of column names (the mapping says header_row: true)"),
        Snapshot(
            .headerRow(columnName: true), "a column name (a string) in a header row, an array of column names (the mapping says header_row: true)"),
    ]

    static let limits: [Snapshot] = [
        Snapshot(.limit(.jsonString, 64), "a string of at most 64 bytes (raise the limit with --max-json-string-bytes)"),
        Snapshot(.limit(.jsonNumber, 32), "a number of at most 32 characters (raise the limit with --max-json-number-bytes)"),
        Snapshot(.limit(.jsonElement, 1_024), "an element of at most 1024 bytes (raise the limit with --max-json-element-bytes)"),
        Snapshot(.limit(.jsonLine, 100), "a line of at most 100 bytes (raise it with --max-json-element-bytes)"),
        Snapshot(.limit(.csvRow, 256), "a row of at most 256 bytes (raise the limit with --max-csv-row-bytes)"),
        Snapshot(.limit(.nesting, 512), "nesting at most 512 deep"),
        Snapshot(.valueUnder4GiB, "a value smaller than 4 GiB"),
    ]

    static let values: [Snapshot] = [
        Snapshot(.kind(.string), "a string"),
        Snapshot(.kind(.boolean), "true or false"),
        Snapshot(.kind(.integer), "an integer"),
        Snapshot(.kind(.integerWithin64Bits), "an integer within 64 bits"),
        Snapshot(.kind(.number), "a number"),
        Snapshot(.kind(.numberWithinDouble), "a number within the range of Double"),
        Snapshot(.kind(.finiteDecimal), "a finite decimal number"),
        Snapshot(.kind(.object), "an object"),
        Snapshot(.kind(.array), "an array"),
        Snapshot(.kind(.rowByPosition), "an array (a row read by position)"),
        Snapshot(.memberNameAs(.integer), "an integer as the member name (@key)"),
        Snapshot(.memberNameAs(.number), "a number as the member name (@key)"),
        Snapshot(.memberNameAs(.boolean), "true or false as the member name (@key)"),
        Snapshot(.referenceKey, "a key: a string or an integer"),
        Snapshot(.entityKey("order", part: false), "a string or an integer (the key of order)"),
        Snapshot(.entityKey("order", part: true), "a string or an integer (part of the key of order)"),
        Snapshot(.valueForKey("cid"), #"a value for key "cid""#),
        Snapshot(.valueForEntityKey("order", .whole), "a value for the key of order"),
        Snapshot(.valueForEntityKey("order", .wholeOrFallback), "a value for the key of order, or the values its fallback is composed of"),
        Snapshot(.valueForEntityKey("order", .part), "a value for a part of the key of order"),
        Snapshot(.relationshipInKey("customer", of: "order"), "a customer (its key is part of the key of order)"),
        Snapshot(.sameValueForRepeatedKey("id"), #"one value for key "id" (a repeated key must repeat its value)"#),
    ]

    static let csv: [Snapshot] = [
        Snapshot(.headerLine, "a header line naming the columns"),
        Snapshot(.distinctColumnNames, "distinct column names"),
        Snapshot(.column("stop_sequence"), "a column named stop_sequence in the header"),
        Snapshot(.nonEmpty("stop_id"), "a non-empty stop_id"),
        Snapshot(.fields(3), "3 fields, as in the header"),
        Snapshot(.closingQuote, "a closing quote for the field opened here"),
        Snapshot(.separatorAfterClosingQuote, "',' or a line break after a closing quote"),
        Snapshot(.validUTF8(csvText: false), "valid UTF-8"),
        Snapshot(
            .validUTF8(csvText: true), "valid UTF-8 text (a file in Latin-1 or Windows-1252 imports with --encoding latin-1, windows-1252 or auto)"),
    ]

    static let json: [Snapshot] = [
        Snapshot(.value(orClosing: nil), "a value"),
        Snapshot(.value(orClosing: .object), "'}' or a value"),
        Snapshot(.value(orClosing: .array), "']' or a value"),
        Snapshot(.valueOrClosingBracket, "a value or ']'"),
        Snapshot(.key(orClosingBrace: true), "a key or '}'"),
        Snapshot(.key(orClosingBrace: false), "a key"),
        Snapshot(.comma(orClosing: .object), "',' or '}'"),
        Snapshot(.comma(orClosing: .array), "',' or ']'"),
        Snapshot(.comma(orClosing: .object, of: []), "',' or '}' closing the document"),
        Snapshot(.comma(orClosing: .object, of: ["data", "page"]), #"',' or '}' closing "data.page""#),
        Snapshot(.colon(afterMemberName: false), "':' after a key"),
        Snapshot(.colon(afterMemberName: true), "':' after a member name"),
        Snapshot(.nothingAfterValue, "nothing after the value"),
        Snapshot(.wholeValuePerLine, "one whole JSON value per line (JSON Lines)"),
        Snapshot(.endOfFileAfterDocument, "end of file after the document"),
        Snapshot(.validKeyString, "a valid key string"),
        Snapshot(.literal("null"), "the literal null"),
        Snapshot(.digit(after: .minus), "a digit after '-'"),
        Snapshot(.digit(after: .point), "a digit after '.'"),
        Snapshot(.digit(after: .exponent), "a digit after the exponent's 'e'"),
        Snapshot(.stringContent(.character), "a character or an escape (control characters must be escaped)"),
        Snapshot(.stringContent(.escape), #"an escape (\" \\ \/ \b \f \n \r \t or \u and 4 hex digits)"#),
        Snapshot(.stringContent(.highSurrogate), #"a high surrogate escape (\uD800-\uDBFF) before a low one"#),
        Snapshot(.stringContent(.lowSurrogate), #"a low surrogate escape (\uDC00-\uDFFF) after a high one"#),
        Snapshot(.stringContent(.closingQuote(openedAt: 1_005)), #"'"' closing the string at byte 1005"#),
        Snapshot(.cutShort(nil, startingAt: 13), #"a closing '"': the value that starts at byte 13 is cut short"#),
        Snapshot(.cutShort(.object, startingAt: 10), "'}': the value that starts at byte 10 is cut short"),
        Snapshot(.cutShort(.array, startingAt: 10), "']': the value that starts at byte 10 is cut short"),
    ]

    static let streaming: [Snapshot] = [
        Snapshot(.separator(after: .index(3), of: .array(["channels"])), #"',' or ']' after element 3 of array "channels""#),
        Snapshot(.separator(after: .index(0), of: .array([])), "',' or ']' after element 0 of the top-level array"),
        Snapshot(.separator(after: .member("138586341"), of: .object(["events"])), #"',' or '}' after member "138586341" of object "events""#),
        Snapshot(.element(of: .array(["channels"]), orClosing: false), #"an element of array "channels""#),
        Snapshot(.element(of: .object([]), orClosing: true), "an element or '}' in the top-level object"),
        Snapshot(.elementStart(4), "the start of element 4"),
        Snapshot(.member(named: ["channels"], in: []), #"key "channels" in the document"#),
        Snapshot(.member(named: ["venues", "events"], in: ["data"]), #"key "venues" or "events" in "data""#),
        Snapshot(.member(named: ["a", "b", "c"], in: ["x", "y"]), #"key "a", "b" or "c" in "x.y""#),
        Snapshot(.oneMember("channels", in: []), #"one member "channels" in the document"#),
        Snapshot(.memberName(in: .object(["events"])), #"a member name in object "events""#),
        // The member's name after a second "member", as the reader always wrote it.
        Snapshot(.memberValue(.member(#"say "hi""#)), #"the value of member member "say \"hi\"""#),
        Snapshot(.openingBrace(of: []), "'{' opening the document"),
        Snapshot(.openingBrace(of: ["data"]), #"'{' opening "data""#),
        Snapshot(.openingBracket(of: nil), "'[' opening the document"),
        Snapshot(.openingBracket(of: .array(["data", "items"])), #"'[' opening array "data.items""#),
        Snapshot(.valueOfMember(in: []), "a value in the document"),
        Snapshot(.valueOfMember(in: ["data"]), #"a value in "data""#),
    ]

    static let snapshots = files + generating + shapes + limits + values + csv + json + streaming

    @Test("each case says the sentence its call site wrote before", arguments: snapshots)
    func text(_ snapshot: Snapshot) {
        #expect(snapshot.expectation.description == snapshot.text)
    }

    @Test("a PayloadError says it after \"expected\", and its JSON (a child's report) decodes to the same case", arguments: snapshots)
    func inAnError(_ snapshot: Snapshot) throws {
        let error = PayloadError(file: "p.json", byteOffset: 7, path: "rows[2]", expected: snapshot.expectation, found: "'x'")
        #expect(error.description == "p.json at byte 7 (rows[2]): expected \(snapshot.text), found 'x'")
        let decoded = try JSONDecoder().decode(PayloadError.self, from: JSONEncoder().encode(error))
        #expect(decoded == error)
        #expect(decoded.expected == snapshot.expectation)
    }

    @Test("every case has a snapshot")
    func everyCase() {
        #expect(Set(Self.snapshots.map { Self.caseName($0.expectation) }).count == Self.caseCount)
        #expect(Set(Self.snapshots.map(\.text)).count == Self.snapshots.count, "no two snapshots say the same")
    }

    /// How many cases `PayloadExpectation` has: a case added fails to compile in `caseName` until
    /// named there, and this count with it makes `everyCase` ask for its snapshot.
    static let caseCount = 61

    static func caseName(_ expectation: PayloadExpectation) -> String {
        switch expectation {
        case .readable: "readable"
        case .regularFile: "regularFile"
        case .gzipStream: "gzipStream"
        case .output: "output"
        case .spool: "spool"
        case .feedOutput: "feedOutput"
        case .moreBytes: "moreBytes"
        case .positiveScale: "positiveScale"
        case .scaledName: "scaledName"
        case .integerKeysThatFit: "integerKeysThatFit"
        case .nameWithoutCopySuffix: "nameWithoutCopySuffix"
        case .rewritableKey: "rewritableKey"
        case .scenarioSchema: "scenarioSchema"
        case .schemaEntity: "schemaEntity"
        case .entityShape: "entityShape"
        case .feedDirectory: "feedDirectory"
        case .oneFeedFile: "oneFeedFile"
        case .mappingDocument: "mappingDocument"
        case .atLeastOne: "atLeastOne"
        case .headerRow: "headerRow"
        case .limit: "limit"
        case .valueUnder4GiB: "valueUnder4GiB"
        case .kind: "kind"
        case .memberNameAs: "memberNameAs"
        case .referenceKey: "referenceKey"
        case .entityKey: "entityKey"
        case .valueForKey: "valueForKey"
        case .valueForEntityKey: "valueForEntityKey"
        case .relationshipInKey: "relationshipInKey"
        case .sameValueForRepeatedKey: "sameValueForRepeatedKey"
        case .headerLine: "headerLine"
        case .distinctColumnNames: "distinctColumnNames"
        case .column: "column"
        case .nonEmpty: "nonEmpty"
        case .fields: "fields"
        case .closingQuote: "closingQuote"
        case .separatorAfterClosingQuote: "separatorAfterClosingQuote"
        case .validUTF8: "validUTF8"
        case .value: "value"
        case .valueOrClosingBracket: "valueOrClosingBracket"
        case .key: "key"
        case .comma: "comma"
        case .colon: "colon"
        case .nothingAfterValue: "nothingAfterValue"
        case .wholeValuePerLine: "wholeValuePerLine"
        case .endOfFileAfterDocument: "endOfFileAfterDocument"
        case .validKeyString: "validKeyString"
        case .literal: "literal"
        case .digit: "digit"
        case .stringContent: "stringContent"
        case .cutShort: "cutShort"
        case .separator: "separator"
        case .element: "element"
        case .elementStart: "elementStart"
        case .member: "member"
        case .oneMember: "oneMember"
        case .memberName: "memberName"
        case .memberValue: "memberValue"
        case .openingBrace: "openingBrace"
        case .openingBracket: "openingBracket"
        case .valueOfMember: "valueOfMember"
        }
    }
}
