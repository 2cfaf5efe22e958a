import CSQLite

/// The store layer's one error: what SQLite said, and the SQL that made it say so. Codable, so
/// that an import measured in a child process hands it to its parent as a value.
public struct StoreError: Error, Sendable, Equatable, Codable {
    /// The extended result code (for example 2067 for SQLITE_CONSTRAINT_UNIQUE).
    public let extendedCode: Int32
    /// SQLite's own message for this failure.
    public let message: String
    /// The statement being prepared or executed, when there was one.
    public let sql: String?

    package init(extendedCode: Int32, message: String, sql: String? = nil) {
        self.extendedCode = extendedCode
        self.message = message
        self.sql = sql
    }

    /// The primary result code (`extendedCode & 0xff`), for matching families such as SQLITE_CONSTRAINT.
    public var primaryCode: Int32 { extendedCode & 0xff }

    /// A UNIQUE, NOT NULL, CHECK or FOREIGN KEY constraint refused the write.
    public var isConstraintViolation: Bool { primaryCode == SQLITE_CONSTRAINT }

    /// Another connection holds the lock this one needs; retrying later may succeed.
    public var isBusy: Bool { primaryCode == SQLITE_BUSY }

    static func from(_ db: OpaquePointer?, code: Int32, sql: String?) -> StoreError {
        let message: String
        if let db, let text = sqlite3_errmsg(db) {
            message = String(cString: text)
        } else if let text = sqlite3_errstr(code) {
            message = String(cString: text)
        } else {
            message = "unknown error"
        }
        let extended = db.map { sqlite3_extended_errcode($0) } ?? code
        return StoreError(extendedCode: extended == 0 ? code : extended, message: message, sql: sql)
    }
}

extension StoreError: CustomStringConvertible {
    /// The code, SQLite's message and the SQL, in one line.
    public var description: String {
        var text = "SQLite error \(extendedCode): \(message)"
        if let sql { text += " - while executing `\(sql)`" }
        return text
    }
}
