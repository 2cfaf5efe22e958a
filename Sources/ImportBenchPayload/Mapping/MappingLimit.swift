/// The most a mapping file may hold. A mapping is written by hand and its loader's work grows with
/// it, linearly, so these bound what a hostile or generated file can cost before it is refused,
/// located (`MappingProblem.overLimit`). Real mappings are far below them: the ones in
/// `Scenarios/` are 0.6 to 3.1 KB, declare 1 to 7 entities and read paths of 1 to 3 segments
/// (`geometry.coordinates[0]`); deep API responses rarely reach 10
/// (`data.repository.pullRequests.edges[0].node.author.login` is 8).
package enum MappingLimit: String, Sendable, Codable, CaseIterable {
    /// The file's size in bytes: 1 MiB, over 300 times the largest built-in mapping.
    case fileBytes
    /// Segments (member names and positions) in one path: 64.
    case pathSegments
    /// Entities one mapping declares: 1,000.
    case entities
    /// Columns one entity declares (its key, attributes and to-one references): 1,000, half of the
    /// 2,000 columns SQLite allows in a table by default, the rest left to bench's own columns.
    case columns
    /// Values in the file (every key and every value, a mapping or list counting as one more), an
    /// alias (`*name`) counted each time it is used: 250,000. The built-in mappings hold 33 to 258.
    /// Without aliases a file's values are bounded by its size; an alias of a large block used
    /// many times (a "billion laughs") would multiply the loader's work in a small file.
    case values

    /// The limit itself.
    package var limit: Int {
        switch self {
        case .fileBytes: return 1 << 20
        case .pathSegments: return 64
        case .entities: return 1_000
        case .columns: return 1_000
        case .values: return 250_000
        }
    }

    /// What a message says of a mapping past the limit: what was found, and the limit.
    func sentence(limit: Int, found: Int?) -> String {
        let count = found.map(Self.grouped) ?? "more than \(Self.grouped(limit))"
        switch self {
        case .fileBytes:
            return "the mapping file holds \(count) bytes; a mapping file holds at most \(Self.grouped(limit))"
        case .pathSegments:
            return "a path of \(count) segments (member names and [positions]); a path has at most \(Self.grouped(limit))"
        case .entities:
            return "\(count) entities; a mapping declares at most \(Self.grouped(limit))"
        case .columns:
            return "\(count) columns in one entity (key, attributes, to-one references); an entity declares at most \(Self.grouped(limit))"
        case .values:
            return "\(count) values (keys and values, an alias counted each time it is used); a mapping holds at most \(Self.grouped(limit))"
        }
    }

    /// `20000` as `20,000`, whatever the locale.
    private static func grouped(_ value: Int) -> String {
        var digits = String(value.magnitude)
        var index = digits.endIndex
        while digits.distance(from: digits.startIndex, to: index) > 3 {
            index = digits.index(index, offsetBy: -3)
            digits.insert(",", at: index)
        }
        return value < 0 ? "-" + digits : digits
    }
}

extension MappingError {
    /// A mapping past `limit`, where `found` of what it counts were met (nil: more, read no further).
    static func overLimit(_ limit: MappingLimit, found: Int?, file: String?, line: Int? = nil, column: Int? = nil) -> MappingError {
        MappingError(file: file, line: line, column: column, problem: .overLimit(limit, limit: limit.limit, found: found))
    }
}
