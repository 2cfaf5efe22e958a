/// Where a value lies inside a JSON object: member names and array positions, written
/// `channel.cid` or `geometry.coordinates[0]`. The empty path is the object itself.
package struct JSONPath: Sendable, Hashable, CustomStringConvertible {
    package enum Segment: Sendable, Hashable {
        case member(String)
        case position(Int)
    }

    package let segments: [Segment]

    package init(_ segments: [Segment]) {
        self.segments = segments
    }

    /// Parses `a.b[2].c`; nil, with the reason, when the text is not such a path. A member name
    /// holds no `.`, `[` or `]`: payload keys of that kind are not reachable through a mapping. A
    /// path of more than `MappingLimit.pathSegments` segments is refused, with how many it has.
    package static func parse(_ text: String) -> Result<JSONPath, MappingError> {
        let parsed = parseSegments(text)
        if case .success(let path) = parsed, path.segments.count > MappingLimit.pathSegments.limit {
            return .failure(MappingError.overLimit(.pathSegments, found: path.segments.count, file: nil))
        }
        return parsed
    }

    /// Parses in one pass over the text, in time linear in its length.
    private static func parseSegments(_ text: String) -> Result<JSONPath, MappingError> {
        if text.isEmpty || text == "." { return .success(JSONPath([])) }
        var segments: [Segment] = []
        var name = ""
        var characters = Array(text)[...]
        func closeName() -> MappingError? {
            guard !name.isEmpty else { return MappingError.pathSyntax(.emptyMember, in: text) }
            segments.append(.member(name))
            name = ""
            return nil
        }
        while let character = characters.popFirst() {
            switch character {
            case ".":
                if let error = closeName() { return .failure(error) }
            case "[":
                if !name.isEmpty, let error = closeName() { return .failure(error) }
                guard let close = characters.firstIndex(of: "]"), let position = Int(String(characters[..<close])), position >= 0 else {
                    return .failure(MappingError.pathSyntax(.positionExpected, in: text))
                }
                segments.append(.position(position))
                characters = characters[(close + 1)...]
                if let next = characters.first, next != ".", next != "[" {
                    return .failure(MappingError.pathSyntax(.separatorExpected, in: text))
                }
                if characters.first == "." {
                    characters = characters.dropFirst()
                    guard !characters.isEmpty else { return .failure(MappingError.pathSyntax(.endsWithDot, in: text)) }
                }
            case "]":
                return .failure(MappingError.pathSyntax(.unopenedBracket, in: text))
            default:
                name.append(character)
            }
        }
        if !name.isEmpty {
            segments.append(.member(name))
        } else if text.last == "." {
            return .failure(MappingError.pathSyntax(.endsWithDot, in: text))
        }
        return .success(JSONPath(segments))
    }

    /// `@key`: the member name of an element read from a collection that is an object keyed by it
    /// (`{"138586341": {...}}`), as `{@index}` is an element's position.
    package static let memberName = JSONPath([.member("@key")])

    /// `.`: the element itself, for a collection whose elements are scalars (`{"PLEYEL": "Salle Pleyel"}`).
    var isElementItself: Bool { segments.isEmpty }

    /// The last member name, which names a column when nothing else does.
    var lastMember: String? {
        for segment in segments.reversed() { if case .member(let name) = segment { return name } }
        return nil
    }

    package var description: String {
        var text = ""
        for segment in segments {
            switch segment {
            case .member(let name): text += text.isEmpty ? name : ".\(name)"
            case .position(let position): text += "[\(position)]"
            }
        }
        return text.isEmpty ? "." : text
    }
}

extension MappingError {
    /// A path that does not parse, before the loader places it in its file: why, and the path.
    static func pathSyntax(_ syntax: MappingProblem.PathSyntax, in path: String) -> MappingError {
        MappingError(file: nil, problem: .pathSyntax(syntax, path: path))
    }
}
