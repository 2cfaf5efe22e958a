import Foundation
import ImportBenchCore
import ImportBenchReport
import Yams

/// An expectations file, committed beside a plug-in's code: a YAML list whose entries are rules,
/// or mappings with the rule and the reason it holds.
///
///     - rule: grdb-cache.wall_s <= 0.8 * grdb-naive.wall_s
///       reason: caching pays on GRDB (README, the table)
///     - grdb-prewarm.fetch_count <= 0.01 * records
package enum ExpectationFile {
    /// The longest file read: rules are a few lines each.
    static let largestBytes = 1 << 20

    /// The file's rules in order, each located at its line; the first problem is thrown.
    package static func load(path: String) throws(ExpectationError) -> [ExpectationRule] {
        func fail(_ problem: ExpectationProblem, line: Int = 0) -> ExpectationError {
            ExpectationError(origin: .file(path: path, line: line), text: "", position: nil, problem: problem)
        }
        guard let data = FileManager.default.contents(atPath: path) else { throw fail(.unreadableFile("no such file, or no permission to read it")) }
        guard data.count <= largestBytes else { throw fail(.unreadableFile("larger than \(largestBytes) bytes: not an expectations file")) }
        let root: Node?
        do {
            root = try Yams.compose(yaml: String(decoding: data, as: UTF8.self))
        } catch {
            throw fail(.unreadableFile("not YAML: \(error)"))
        }
        guard let root else { return [] }
        guard case .sequence(let entries) = root else { throw fail(.badEntry("the file is not a list"), line: Self.line(root)) }
        var rules: [ExpectationRule] = []
        for entry in entries {
            let line = Self.line(entry)
            let (text, reason) = try rule(in: entry) { fail($0, line: line) }
            rules.append(try ExpectationRule(parsing: text, origin: .file(path: path, line: line), reason: reason))
        }
        return rules
    }

    /// An entry's rule and reason.
    private static func rule(
        in entry: Node, _ fail: (ExpectationProblem) -> ExpectationError
    ) throws(ExpectationError) -> (String, String?) {
        if let text = entry.string { return (text, nil) }
        guard case .mapping(let mapping) = entry else { throw fail(.badEntry("an entry is neither text nor a mapping")) }
        var rule: String?
        var reason: String?
        for (key, value) in mapping {
            switch key.string {
            case "rule": rule = value.string
            case "reason": reason = value.string
            default: throw fail(.badEntry("unknown key '\(key.string ?? "?")'"))
            }
        }
        guard let rule else { throw fail(.badEntry("a mapping without rule:")) }
        return (rule, reason)
    }

    /// 1-based line of a node, as Yams marks it.
    private static func line(_ node: Node) -> Int { node.mark?.line ?? 0 }
}
