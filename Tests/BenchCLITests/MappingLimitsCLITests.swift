import Foundation
import Testing

/// A mapping past its limits (issue 47) stops `bench schema` and `bench run` before anything is
/// made: a usage error naming the file, the line and column, the limit and what was found.
@Suite("Mapping limits on the command line")
struct MappingLimitsCLITests {
    @Test("a path of 20,000 segments and a mapping of 10,000 entities: exit 64, located, no results written")
    func refused() throws {
        let folder = try RunCommandEndToEndTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let deep = folder.appendingPathComponent("deep.yml").path
        let path = Array(repeating: "a", count: 20_000).joined(separator: ".")
        try Data("name: deep\nelement: item\nentities:\n  item:\n    key: id\n    attributes:\n      v: {type: text, path: \(path)}\n".utf8)
            .write(to: URL(fileURLWithPath: deep))
        let many = folder.appendingPathComponent("many.yml").path
        let entities = (0..<10_000).map { "  e\($0): {key: id, attributes: {v: text}}\n" }.joined()
        try Data("name: many\nelement: e0\nentities:\n\(entities)".utf8).write(to: URL(fileURLWithPath: many))
        let payload = folder.appendingPathComponent("p.json").path
        try Data(#"[{"id": "1", "v": "x"}]"#.utf8).write(to: URL(fileURLWithPath: payload))
        let csv = folder.appendingPathComponent("r.csv").path
        let cases = [
            (deep, "deep.yml:7:29: a path of 20,000 segments (member names and [positions]); a path has at most 64"),
            (many, "many.yml:4:3: 10,000 entities; a mapping declares at most 1,000"),
        ]
        for (mapping, message) in cases {
            for arguments in [
                ["schema", "--mapping", mapping],
                ["run", "--mapping", mapping, "--payload", payload, "--strategy", "naive", "--quiet", "--csv", csv],
            ] {
                let (status, output) = try IsolatedRunTests.bench(arguments)
                #expect(status == 64, "\(arguments[0]): \(output)")
                #expect(output.contains(message), "\(arguments[0]): \(output)")
                #expect(!FileManager.default.fileExists(atPath: csv))
            }
        }
    }
}
