import ImportBenchCore

extension ResultsFile {
    /// What makes a row one repetition of one run: no two rows of a file may share all of these
    /// (a resumed import's row, which covers only the rest, is a measurement of its own).
    static let rowIdentity = [
        "scenario", "strategy", "scale", "batch_size", "preload", "journal_mode", "synchronous", "probe_reads_hz", "repetition",
        "resumed_from", "pragmas", "decode_ahead",
    ]

    /// Reads `path` as a bench results file held to the contract of its `csv_version`: one version
    /// from 1 to this bench's in every row, every column that version has, a finite non-negative
    /// number wherever a number is due (a count or the verdict in every row), and no run and
    /// repetition twice. An older version is read by column name (the upgrade Results/README.md
    /// documents); a newer one is refused. `compare` and `report` read results only so, and
    /// refuse, naming the file, line and column, what they cannot judge.
    package init(results path: String) throws(ResultsInputError) {
        try self.init(path: path, required: ["csv_version", "scenario", "strategy", "scale", "batch_size"])
        let version = try contractVersion()
        let location = Location(path: path)
        let missing = ResultColumns.columns.filter { $0.since <= version && !columns.contains($0.name) }.map(\.name)
        guard missing.isEmpty else {
            throw location.error(
                line: 1, expected: "every column of csv_version \(version), as its rows say",
                found: "no column named \(missing.joined(separator: ", "))")
        }
        let present = ResultColumns.columns.filter { columns.contains($0.name) }
        var seen: [[String]: Int] = [:]
        for row in rows {
            for column in present { try row.check(column) }
            let identity = Self.rowIdentity.map { row.text($0) ?? "" }
            if let earlier = seen[identity] {
                throw location.error(
                    line: row.line, expected: "one row per run and repetition",
                    found:
                        "the run and repetition of line \(earlier) again (\(Self.rowIdentity.filter { row.text($0)?.isEmpty == false }.map { "\($0) \(row.text($0) ?? "")" }.joined(separator: ", ")))"
                )
            }
            seen[identity] = row.line
        }
    }

    /// The file's one `csv_version`.
    private func contractVersion() throws(ResultsInputError) -> Int {
        let location = Location(path: path)
        var version: (value: Int, line: Int)?
        for row in rows {
            let text = row.text("csv_version") ?? ""
            guard let value = Int(text), value >= 1 else {
                throw location.error(
                    line: row.line, column: "csv_version", expected: "a whole number from 1 to \(ResultColumns.version)",
                    found: "'\(Self.excerpt(text))'")
            }
            guard value <= ResultColumns.version else {
                throw location.error(
                    line: row.line, column: "csv_version",
                    expected: "csv_version \(ResultColumns.version) or older (this bench's); a newer bench wrote it, so compare it with that one",
                    found: "\(value)")
            }
            if let version, version.value != value {
                throw location.error(
                    line: row.line, column: "csv_version", expected: "csv_version \(version.value) in every row, as line \(version.line) has",
                    found: "\(value): results of two versions in one file")
            }
            if version == nil { version = (value, row.line) }
        }
        return version?.value ?? ResultColumns.version
    }
}

extension ResultsFile.Row {
    /// Refuses a field its column cannot hold: text where a number is due, NaN, an infinity, a
    /// negative number, a fraction where a whole number is due, an empty count, a verdict that is
    /// neither true nor false.
    func check(_ column: ResultColumn) throws(ResultsInputError) {
        guard let text = text(column.name) else { return }
        func refuse(_ expected: String) -> ResultsInputError {
            file.error(line: line, column: column.name, expected: expected, found: text.isEmpty ? "an empty field" : "'\(ResultsFile.excerpt(text))'")
        }
        if text.isEmpty {
            // A command whose SQLite is its own: what it executed was not observed, and says so.
            if column.countsExecution, self.text("counted_at") == CountingLevel.notObserved.rawValue { return }
            if column.requiresValue { throw refuse(column.unit == .boolean ? "true or false" : "a count: a whole number, 0 or more") }
            return
        }
        switch column.unit {
        case .text:
            return
        case .boolean:
            guard text == "true" || text == "false" else { throw refuse("true or false") }
        case .integer, .bytes:
            // A seed beyond Int64 is written whole, as UInt64's text.
            guard UInt64(text) != nil else { throw refuse("a whole number, 0 or more") }
        case .seconds, .ratio:
            guard let value = Double(text), value.isFinite, value >= 0 else { throw refuse("a finite number, 0 or more") }
        }
    }
}
