import CReference
import Foundation
import ImportBenchSchema
import ImportBenchStore
import ImportBenchStrategies

/// SQLite's own price for a set of rows: the ceiling's finished store replayed by a small C program
/// (`Sources/CReference`) into an empty store of the same schema and settings, the fastest way
/// SQLite allows (`Technique.bulk`). Whatever the ceiling spends above it is the harness's own cost,
/// not SQLite's.
package enum CReference {
    /// How the replay loads the rows.
    package enum Technique: Codable, Sendable, Equatable {
        /// SQLite's limit on an empty store: rows in pk order, `rowsPerInsert` rows per INSERT, every
        /// index (natural keys' uniqueness too) built after the rows, in the same transaction.
        /// Measured at 0.58-0.63x the plain replay's time (issue 46).
        case bulk(rowsPerInsert: Int)
        /// The replay of releases before issue 46: one row per INSERT into tables whose indexes
        /// exist already. Kept one release as `c_reference_plain_s`, so dated figures can be read.
        case plain
    }

    /// Rows per INSERT the first repetition of a benchmark tries, keeping the fastest for the rest
    /// (`Benchmark.measureAll`); the C program lowers any of them to fit the variable limit.
    package static let rowsPerInsertCandidates = [1, 10, 50, 200]

    package struct Measurement: Codable, Sendable, Equatable {
        /// BEGIN to the end of COMMIT, the inserts alone.
        package var seconds: Double
        /// The replaying thread's CPU time over the same span.
        package var cpuSeconds: Double
        package var rows: Int64
    }

    /// What one repetition's replays measured: the limit, with the rows per INSERT it used, and the
    /// plain replay beside it.
    package struct Replay: Codable, Sendable, Equatable {
        package var bulk: Measurement
        package var rowsPerInsert: Int
        package var plain: Measurement?
    }

    /// One replay, as plain values: a child process can be handed it and measure it there.
    package struct Job: Codable, Sendable, Equatable {
        package var sourcePath: String
        package var scratchPath: String
        /// Pragmas, then the tables (and, for the plain replay, the indexes).
        package var setupSQL: String
        /// The indexes, built after the rows inside the timed transaction; nil for the plain replay.
        package var indexSQL: String?
        /// Rows bound per INSERT statement.
        package var rowsPerInsert: Int
        /// In insertion order: entities in dependency order, then join tables.
        package var tables: [String]
    }

    /// Measures a replay where it is called, that is in whichever process: the result is only
    /// checked by `replay`. The scratch store is left for the caller to check and remove.
    package static func measure(_ job: Job) throws -> Measurement {
        var result = creference_result()
        let cStrings = job.tables.map { strdup($0) }
        defer { for string in cStrings { free(string) } }
        let code = cStrings.map { UnsafePointer($0) }.withUnsafeBufferPointer { names in
            creference_replay(
                job.sourcePath, job.scratchPath, job.setupSQL, job.indexSQL, names.baseAddress, Int32(names.count),
                Int32(clamping: job.rowsPerInsert), &result)
        }
        guard code == 0 else {
            let message = withUnsafeBytes(of: result.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            throw RunError.referenceReplayFailed(code: code, message: message)
        }
        return Measurement(seconds: result.seconds, cpuSeconds: result.cpu_seconds, rows: result.rows)
    }

    /// The job that replays `sourcePath`, a store of `schema`, into a new store at `scratchPath` with
    /// `settings`, by `technique`.
    package static func job(
        replaying sourcePath: String, schema: Schema, settings: StoreSettings, into scratchPath: String, technique: Technique
    ) -> Job {
        let pragmas = [settings.setupSQL, "PRAGMA foreign_keys = ON"]
        switch technique {
        case .bulk(let rows):
            return Job(
                sourcePath: sourcePath, scratchPath: scratchPath, setupSQL: (pragmas + schema.tableDDL).joined(separator: ";\n"),
                indexSQL: schema.indexDDL.joined(separator: ";\n"), rowsPerInsert: rows, tables: schema.tableNames)
        case .plain:
            return Job(
                sourcePath: sourcePath, scratchPath: scratchPath, setupSQL: (pragmas + schema.ddl).joined(separator: ";\n"),
                indexSQL: nil, rowsPerInsert: 1, tables: schema.tableNames)
        }
    }

    /// Replays the store at `sourcePath` into `scratchPath` (replaced, and removed afterwards) through
    /// `measuring`, and checks that the replayed store has `digest`, the source's, so the reference
    /// wrote the same rows. `measuring` is where the clock runs: `bench run` hands the job to a fresh
    /// child process, as it does every strategy's import, so the reference is measured in a process
    /// as lean and single-threaded as the ceiling's (glibc's mutexes, which SQLite's allocator
    /// takes, cost atomic instructions once a process has started a second thread).
    package static func replay(
        store sourcePath: String, digest expected: ContentDigest, schema: Schema, settings: StoreSettings, scratchPath: String,
        technique: Technique = .bulk(rowsPerInsert: CeilingStrategy.rowsPerInsert), measuring: (Job) throws -> Measurement = measure
    ) throws -> Measurement {
        DatabaseFile.remove(scratchPath)
        defer { DatabaseFile.remove(scratchPath) }
        let measurement = try measuring(
            job(replaying: sourcePath, schema: schema, settings: settings, into: scratchPath, technique: technique))
        let replayed = try schema.digest(of: StoreConnection(path: scratchPath))
        guard replayed == expected else {
            throw RunError.referenceDiffers(differences: expected.differences(from: replayed))
        }
        return measurement
    }
}

extension Schema {
    /// Every table the schema creates, entities in dependency order, then their join tables.
    package var tableNames: [String] {
        entities.map(\.name) + entities.flatMap { entity in entity.manyToMany.map { entity.joinTable($0) } }
    }
}
