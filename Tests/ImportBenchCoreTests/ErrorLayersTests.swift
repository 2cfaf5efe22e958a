import Foundation
import ImportBenchSchema
import Testing

/// One error type per layer (issue 33): each layer throws its own, carrying values, and wraps or
/// passes on what it meets from the layers below. A new `Error` type in a layer fails here.
@Suite("One error type per layer")
struct ErrorLayersTests {
    /// Each layer, the source folders it spans, and its one error type.
    static let layers: [(layer: String, folders: [String], error: String)] = [
        ("store", ["ImportBenchStore"], "StoreError"),
        ("schema", ["ImportBenchSchema"], "SchemaProblem"),
        ("payload", ["ImportBenchPayload/Payload", "ImportBenchPayload/Records", "ImportBenchPayload/Readers"], "PayloadError"),
        ("mapping", ["ImportBenchPayload/Mapping"], "MappingError"),
        ("strategies", ["ImportBenchStrategies"], "StrategyError"),
        ("methods", ["ImportBenchCore/Methods", "ImportBenchCore/Commands", "ImportBenchCore/Seed"], "ImportError"),
        (
            "run",
            [
                "ImportBenchCore/Runner", "ImportBenchCore/Scenarios", "ImportBenchCore/Reference", "ImportBenchCore/Probe",
                "ImportBenchCore/Metrics", "ImportBenchCore/Verifier",
            ],
            "RunError"
        ),
        ("results", ["ImportBenchReport"], "ResultsInputError"),
        ("expectations", ["ImportBenchExpectations"], "ExpectationError"),
        ("command line", ["ImportBenchCLI"], "CommandFailure"),
    ]

    /// Thrown and caught inside one file, never past it: the scanner's failure is a position
    /// only (three words, so its hot calls stay cheap), which the parser turns into a
    /// `PayloadError` with the record path.
    /// The rules' scanner likewise fails with a problem and a column, which the rule's parser turns
    /// into an `ExpectationError` with the rule and where it was given.
    static let internalToOneFile: Set<String> = ["Failure in JSONTapeParser.swift", "Failure in ExpectationRule+Parsing.swift"]

    /// The names of the types declared or extended in `text` that conform to `Error`, directly or
    /// through a protocol of Foundation's that refines it, or that declare a protocol refining it.
    /// A declaration's conformances run from its name to its `{` or `where`, across lines.
    static func errorTypes(in text: String) -> [String] {
        let declaration =
            /(?m)^[ \t]*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|private|fileprivate|indirect|final|open|distributed)\s+)*(?:struct|enum|class|actor|protocol|extension)\s+([\w.]+)\s*(?:<[^{]*?>)?\s*:([^{]*?)(?:\bwhere\b[^{]*)?\{/
        let refinements: Set<String> = ["Error", "Swift.Error", "LocalizedError", "CustomNSError", "RecoverableError"]
        return text.matches(of: declaration).compactMap { match in
            let conformances = match.output.2.split(whereSeparator: { $0 == "," || $0 == "&" }).map {
                $0.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            return conformances.contains(where: refinements.contains) ? String(match.output.1) : nil
        }
    }

    /// Every `Error` type under `folder`, with the file it is in.
    static func errorTypes(under folder: String) throws -> [(type: String, file: String)] {
        let root = DocumentLinksTests.root.appendingPathComponent("Sources").appendingPathComponent(folder)
        let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        return try files.filter { $0.pathExtension == "swift" }.flatMap { file in
            errorTypes(in: try String(contentsOf: file, encoding: .utf8)).map { ($0, file.lastPathComponent) }
        }
    }

    @Test("the declarations are found: structs, enums, classes, extensions and protocols conforming to Error in any spelling; others are not")
    func finder() {
        let text = """
            package struct PayloadError: Error, Sendable {
            enum Other: Equatable {
                indirect enum Problem: Swift.Error, CustomStringConvertible {
            struct Note: CustomStringConvertible {
            @usableFromInline final class Boxed: Sendable, Error {
            struct Generic<T>: Sendable,
                Error where T: Sendable
            {
            struct Composed: Error & Sendable {
            extension Note: LocalizedError {}
            protocol Failing: Error {
            struct Written: CustomStringConvertible {
                let error: Error
            """
        #expect(Self.errorTypes(in: text) == ["PayloadError", "Problem", "Boxed", "Generic", "Composed", "Note", "Failing"])
    }

    @Test("each layer declares exactly its one error type", arguments: layers.indices)
    func oneErrorTypePerLayer(index: Int) throws {
        let layer = Self.layers[index]
        let found = try layer.folders.flatMap { try Self.errorTypes(under: $0) }
        let others = found.filter { $0.type != layer.error && !Self.internalToOneFile.contains("\($0.type) in \($0.file)") }
        #expect(others.isEmpty, "the \(layer.layer) layer's one error is \(layer.error); also found: \(others)")
        #expect(found.contains { $0.type == layer.error }, "the \(layer.layer) layer lost \(layer.error)")
    }

    @Test("every source folder belongs to a layer")
    func everyFolderHasALayer() throws {
        let sources = DocumentLinksTests.root.appendingPathComponent("Sources")
        let covered = Set(Self.layers.flatMap(\.folders))
        for module in try FileManager.default.contentsOfDirectory(atPath: sources.path) where module.hasPrefix("ImportBench") {
            let moduleURL = sources.appendingPathComponent(module)
            let folders = try FileManager.default.contentsOfDirectory(atPath: moduleURL.path).filter { name in
                var isDirectory: ObjCBool = false
                return FileManager.default.fileExists(atPath: moduleURL.appendingPathComponent(name).path, isDirectory: &isDirectory)
                    && isDirectory.boolValue
            }
            if module == "ImportBenchCore" || module == "ImportBenchPayload" {
                for folder in folders { #expect(covered.contains("\(module)/\(folder)"), "Sources/\(module)/\(folder) is in no layer") }
            } else if !covered.contains(module) {
                let errors = try Self.errorTypes(under: module)
                #expect(errors.isEmpty, "Sources/\(module) is in no layer, and declares \(errors)")
            }
        }
    }
}
