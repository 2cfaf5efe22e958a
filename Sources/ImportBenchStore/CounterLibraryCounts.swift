import CSQLCounter
import Foundation

/// What the counter library (`CounterLibrary`), preloaded into a command, reported for a command
/// and every process it started: one line per process that opened a connection through the shared
/// libsqlite3 and exited through its exit handlers. No line at all means the counts were not
/// observed (SQLite linked in statically, or no process exited normally), never that they were zero.
package enum CounterLibraryCounts {
    /// The environment variable the library reads the counts file's path from.
    package static let environmentVariable = IMPORTBENCH_SQL_COUNTS_ENV

    /// The sum of the file's lines; nil when there are none (or no file).
    package static func read(_ path: String) throws(StoreError) -> SQLiteCounts? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        var total: SQLiteCounts?
        for (index, line) in text.split(separator: "\n").enumerated() {
            let counts = try parse(line, number: index + 1, path: path)
            total = total.map { $0 + counts } ?? counts
        }
        return total
    }

    /// One process's line: the tag, the format's version, then `name=value` fields.
    static func parse(_ line: Substring, number: Int, path: String) throws(StoreError) -> SQLiteCounts {
        let words = line.split(separator: " ")
        guard words.count >= 2, words[0] == IMPORTBENCH_SQL_COUNTS_TAG, Int(words[1]) == Int(IMPORTBENCH_SQL_COUNTS_VERSION) else {
            throw StoreError(
                extendedCode: 0,
                message:
                    "\(path), line \(number): expected '\(IMPORTBENCH_SQL_COUNTS_TAG) \(IMPORTBENCH_SQL_COUNTS_VERSION) ...', found '\(line.prefix(60))'"
            )
        }
        var fields: [Substring: Int64] = [:]
        for word in words.dropFirst(2) {
            let parts = word.split(separator: "=", maxSplits: 1)
            if parts.count == 2, let value = Int64(parts[1]) { fields[parts[0]] = value }
        }
        var raw = importbench_sql_counts()
        raw.connections_traced = fields["connections"] ?? 0
        raw.connections_closed = fields["closed"] ?? 0
        raw.fetches = fields["fetches"] ?? 0
        raw.inserts = fields["inserts"] ?? 0
        raw.updates = fields["updates"] ?? 0
        raw.upserts = fields["upserts"] ?? 0
        raw.deletes = fields["deletes"] ?? 0
        raw.others = fields["others"] ?? 0
        raw.transactions = fields["transactions"] ?? 0
        raw.vm_steps = fields["vm_steps"] ?? 0
        raw.rows_written = fields["rows_written"] ?? 0
        return SQLiteCounts(raw)
    }
}

extension SQLiteCounts {
    /// The two counts added, as the lines of two processes are.
    package static func + (lhs: SQLiteCounts, rhs: SQLiteCounts) -> SQLiteCounts {
        var result = lhs
        result.statements = lhs.statements + rhs.statements
        result.rowsWritten = lhs.rowsWritten + rhs.rowsWritten
        result.connectionsTraced = lhs.connectionsTraced + rhs.connectionsTraced
        result.connectionsClosed = lhs.connectionsClosed + rhs.connectionsClosed
        return result
    }
}
