import CReference
import Foundation
import ImportBenchStore

/// SQLite's own price for a set of rows: the ceiling's finished store replayed by a small C program
/// (`Sources/CReference`) into an empty store of the same schema and settings, with prepared
/// INSERTs, values bound without a copy and one transaction. Whatever the ceiling spends above it
/// is the harness's own cost, not SQLite's.
package enum CReference {
    package struct Measurement: Codable, Sendable, Equatable {
        /// BEGIN to the end of COMMIT, the inserts alone.
        package var seconds: Double
        /// The replaying thread's CPU time over the same span.
        package var cpuSeconds: Double
        package var rows: Int64
    }

    /// One replay, as plain values: a child process can be handed it and measure it there.
    package struct Job: Codable, Sendable, Equatable {
        package var sourcePath: String
        package var scratchPath: String
        /// Pragmas, then the schema.
        package var setupSQL: String
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
            creference_replay(job.sourcePath, job.scratchPath, job.setupSQL, names.baseAddress, Int32(names.count), &result)
        }
        guard code == 0 else {
            let message = withUnsafeBytes(of: result.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            throw RunError.referenceReplayFailed(code: code, message: message)
        }
        return Measurement(seconds: result.seconds, cpuSeconds: result.cpu_seconds, rows: result.rows)
    }

    /// The job that replays `sourcePath`, a store of `schema`, into a new store at `scratchPath` with `settings`.
    package static func job(replaying sourcePath: String, schema: Schema, settings: StoreSettings, into scratchPath: String) -> Job {
        let setup = ([settings.setupSQL, "PRAGMA foreign_keys = ON"] + schema.ddl).joined(separator: ";\n")
        return Job(sourcePath: sourcePath, scratchPath: scratchPath, setupSQL: setup, tables: schema.tableNames)
    }

    /// Replays the store at `sourcePath` into `scratchPath` (replaced, and removed afterwards) through
    /// `measuring`, and checks that the replayed store has `digest`, the source's, so the reference
    /// wrote the same rows. `measuring` is where the clock runs: `bench run` hands the job to a fresh
    /// child process, as it does every strategy's import, so the reference is measured in a process
    /// as lean and single-threaded as the ceiling's (glibc's mutexes, which SQLite's allocator
    /// takes, cost atomic instructions once a process has started a second thread).
    package static func replay(
        store sourcePath: String, digest expected: ContentDigest, schema: Schema, settings: StoreSettings, scratchPath: String,
        measuring: (Job) throws -> Measurement = measure
    ) throws -> Measurement {
        DatabaseFile.remove(scratchPath)
        defer { DatabaseFile.remove(scratchPath) }
        let measurement = try measuring(job(replaying: sourcePath, schema: schema, settings: settings, into: scratchPath))
        let replayed = try schema.digest(of: Connection(path: scratchPath))
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
