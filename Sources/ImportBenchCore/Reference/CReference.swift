import CReference
import Foundation
import ImportBenchStore

/// SQLite's own price for a set of rows: the ceiling's finished store replayed by a small C program
/// (`Sources/CReference`) into an empty store of the same schema and settings, with prepared
/// INSERTs, values bound without a copy and one transaction. Whatever the ceiling spends above it
/// is the harness's own cost, not SQLite's.
public enum CReference {
    public struct Measurement: Sendable, Equatable {
        /// BEGIN to the end of COMMIT, the inserts alone.
        public var seconds: Double
        public var rows: Int64
    }

    /// Replays the store at `sourcePath` into `scratchPath` (replaced, and removed afterwards) and
    /// checks that the replayed store has `digest`, the source's, so the reference wrote the same rows.
    public static func replay(
        store sourcePath: String, digest expected: ContentDigest, schema: Schema, settings: StoreSettings, scratchPath: String
    ) throws -> Measurement {
        DatabaseFile.remove(scratchPath)
        defer { DatabaseFile.remove(scratchPath) }
        let setup = ([settings.pragmas, "PRAGMA foreign_keys = ON"] + schema.ddl).joined(separator: ";\n")
        let tables = schema.tableNames
        var result = creference_result()
        let cStrings = tables.map { strdup($0) }
        defer { cStrings.forEach { free($0) } }
        let code = cStrings.map { UnsafePointer($0) }.withUnsafeBufferPointer { names in
            creference_replay(sourcePath, scratchPath, setup, names.baseAddress, Int32(names.count), &result)
        }
        guard code == 0 else {
            let message = withUnsafeBytes(of: result.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            throw CReferenceError.replayFailed(code: code, message: message)
        }
        let replayed = try schema.digest(of: Connection(path: scratchPath))
        guard replayed == expected else {
            throw CReferenceError.differentContent(expected.differences(from: replayed))
        }
        return Measurement(seconds: result.seconds, rows: result.rows)
    }
}

public enum CReferenceError: Error, CustomStringConvertible {
    case replayFailed(code: Int32, message: String)
    case differentContent([String])

    public var description: String {
        switch self {
        case .replayFailed(let code, let message):
            return "the C reference could not replay the ceiling's store: SQLite error \(code): \(message)"
        case .differentContent(let lines):
            return "the C reference's store differs from the ceiling's: \(lines.joined(separator: "; "))"
        }
    }
}

extension Schema {
    /// Every table the schema creates, entities in dependency order, then their join tables.
    var tableNames: [String] {
        entities.map(\.name) + entities.flatMap { entity in entity.manyToMany.map { entity.joinTable($0) } }
    }
}
