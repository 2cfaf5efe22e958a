/// What fills the store before a refresh run: a recorded payload, or one generated to overlap the
/// measured payload (`overlap=0.9,changed=0.2`: 90 % of its objects already stored, 20 % of those
/// with other values). Codable as a keyed enum, not as its text: a file named `overlap=...` must stay a file.
package enum PreloadSpec: Codable, Hashable, Sendable {
    case file(String)
    case generated(overlap: Double, changed: Double)

    /// Parses `overlap=X,changed=Y` (each 0...1, `changed` defaults to 0); anything else is a file path.
    package init(parsing text: String) throws {
        guard text.hasPrefix("overlap=") || text.hasPrefix("changed=") else {
            self = .file(text)
            return
        }
        var overlap: Double?
        var changed = 0.0
        for part in text.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1).map { String($0) }
            guard pair.count == 2, let value = Double(pair[1]), (0...1).contains(value) else {
                throw RunError.refused(.invalidPreload(text: text, problem: .notAFraction))
            }
            switch pair[0] {
            case "overlap": overlap = value
            case "changed": changed = value
            default: throw RunError.refused(.invalidPreload(text: text, problem: .unknownName(pair[0])))
            }
        }
        guard let overlap else {
            throw RunError.refused(.invalidPreload(text: text, problem: .noOverlap))
        }
        self = .generated(overlap: overlap, changed: changed)
    }
}

extension PreloadSpec: CustomStringConvertible {
    package var description: String {
        switch self {
        case .file(let path): return path
        case .generated(let overlap, let changed): return "overlap=\(overlap),changed=\(changed)"
        }
    }
}
