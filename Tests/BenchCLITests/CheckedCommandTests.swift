import ArgumentParser
import Foundation
import ImportBenchCore
import ImportBenchPayload
import Testing

@testable import ImportBenchCLI

/// A lower layer's refusal of the command line reaches it as that layer's own error, inside a usage
/// failure (exit 64), never flattened into a string (issue 48).
@Suite("Arguments checked against the lower layers")
struct CheckedCommandTests {
    /// The failure `parseAndCheck` throws for `arguments`, if a `CommandFailure`.
    private func refusal(_ arguments: [String]) -> CommandFailure? {
        do {
            _ = try BenchCommand.parseAndCheck(arguments)
            return nil
        } catch {
            return error as? CommandFailure
        }
    }

    @Test("a mapping past its limits is the loader's MappingError, its case and place kept, with exit 64")
    func mappingErrorKept() throws {
        let directory = try RunCommandEndToEndTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let mapping = directory.appendingPathComponent("many.yml")
        let entities = (0..<1_001).map { "  e\($0): {key: id, attributes: {v: text}}\n" }.joined()
        try Data("name: many\nelement: e0\nentities:\n\(entities)".utf8).write(to: mapping)
        for arguments in [
            ["generate", "--mapping", mapping.path, "--from", mapping.path, "--out", directory.appendingPathComponent("p.json").path],
            ["run", "--mapping", mapping.path, "--payload", mapping.path],
        ] {
            let failure = try #require(refusal(arguments), "\(arguments[0])")
            #expect(failure.exitCode == ExitStatus.usage.rawValue)
            guard case .usage(let cause) = failure.problem, let error = cause as? MappingError else {
                Issue.record("\(arguments[0]): \(failure.problem)")
                continue
            }
            #expect(error.problem == .overLimit(.entities, limit: 1_000, found: 1_001))
            // Where the entities begin, as `many.yml:4:3` says it.
            #expect(error.line == 4 && error.column == 3, "\(error)")
        }
    }

    @Test("a --pragma that does not parse is StorePragma's own error, with exit 64")
    func pragmaErrorKept() throws {
        let failure = try #require(refusal(["run", "--scenario", "products", "--pragma", "nonsense"]))
        #expect(failure.exitCode == ExitStatus.usage.rawValue)
        guard case .usage(let cause) = failure.problem else {
            Issue.record("\(failure.problem)")
            return
        }
        #expect(!(cause is ValidationError), "\(cause)")
        #expect(failure.message.hasSuffix("(see --help)"))
    }

    @Test("no command flattens a lower layer's error into a ValidationError's string")
    func noFlattening() throws {
        let sources = CommandLineReferenceTests.root.appendingPathComponent("Sources/ImportBenchCLI")
        for file in try FileManager.default.contentsOfDirectory(at: sources, includingPropertiesForKeys: nil) where file.pathExtension == "swift" {
            let text = try String(contentsOf: file, encoding: .utf8)
            #expect(!text.contains("ValidationError(error"), "\(file.lastPathComponent)")
            #expect(!text.contains("ValidationError(String(describing: error"), "\(file.lastPathComponent)")
        }
    }
}
