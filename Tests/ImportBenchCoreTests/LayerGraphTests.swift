import Foundation
import Testing

/// The layers are targets, and the direction between them is held here as well as by the
/// compiler (issue 48): a target depends only on layers below it, and a file imports only its own
/// target's declared dependencies, so a module that happens to be built first cannot be reached
/// without Package.swift saying so.
@Suite("Layers as targets")
struct LayerGraphTests {
    /// The package's Swift layers, lowest first: the order docs/internals.md's layout gives them.
    static let layers = [
        "ImportBenchStore", "ImportBenchSchema", "ImportBenchPayload", "ImportBenchStrategies", "ImportBenchCore", "ImportBenchReport",
        "ImportBenchCLI",
        "ImportBench", "bench",
    ]

    /// Each target of Package.swift and the targets (not products) it names as dependencies.
    static func targets() throws -> [String: [String]] {
        let manifest = try String(contentsOf: DocumentLinksTests.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        var targets: [String: [String]] = [:]
        let declaration = /\.(?:target|executableTarget|testTarget|systemLibrary)\(\s*name:\s*"(\w+)"/
        let matches = manifest.matches(of: declaration)
        for (index, match) in matches.enumerated() {
            let end = index + 1 < matches.count ? matches[index + 1].range.lowerBound : manifest.endIndex
            let text = manifest[match.range.upperBound..<end]
            var dependencies: [String] = []
            if let list = text.firstMatch(of: /dependencies:\s*\[([^\]]*)\]/) {
                let withoutProducts = list.output.1.replacing(/\.product\([^)]*\)/, with: "")
                dependencies = withoutProducts.matches(of: /"(\w+)"/).map { String($0.output.1) }
            }
            targets[String(match.output.1)] = dependencies
        }
        return targets
    }

    /// `target` and everything it reaches through its dependencies.
    static func reachable(from target: String, in targets: [String: [String]]) -> Set<String> {
        var seen: Set<String> = [target]
        var queue = [target]
        while let next = queue.popLast() {
            for dependency in targets[next] ?? [] where seen.insert(dependency).inserted { queue.append(dependency) }
        }
        return seen
    }

    @Test("the manifest is read: every layer is a target, with its dependencies")
    func manifestIsRead() throws {
        let targets = try Self.targets()
        for layer in Self.layers { #expect(targets[layer] != nil, "\(layer) is not a target of Package.swift") }
        #expect(targets["ImportBenchSchema"] == ["ImportBenchStore"])
        #expect(targets["ImportBenchCore"]?.contains("ImportBenchPayload") == true)
    }

    @Test("a layer depends only on layers below it", arguments: layers)
    func dependsDownward(layer: String) throws {
        let targets = try Self.targets()
        let below = Set(Self.layers.prefix { $0 != layer })
        let upward = (targets[layer] ?? []).filter { Self.layers.contains($0) && !below.contains($0) }
        #expect(upward.isEmpty, "\(layer) depends on \(upward), which are not below it")
    }

    @Test("a file imports only modules its target reaches through Package.swift", arguments: layers)
    func importsAreDeclared(layer: String) throws {
        let targets = try Self.targets()
        let allowed = Self.reachable(from: layer, in: targets)
        let folder = DocumentLinksTests.root.appendingPathComponent("Sources").appendingPathComponent(layer)
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        #expect(!files.isEmpty, "Sources/\(layer) holds no file")
        for file in files where file.pathExtension == "swift" {
            let text = try String(contentsOf: file, encoding: .utf8)
            for match in text.matches(of: /(?m)^(?:@\w+\s+)*(?:public\s+|package\s+|internal\s+)?import\s+(\w+)/) {
                let module = String(match.output.1)
                guard targets[module] != nil else { continue }
                #expect(allowed.contains(module), "\(file.lastPathComponent) in \(layer) imports \(module), which Package.swift does not give it")
            }
        }
    }

    @Test("docs/internals.md's layout lists the layers in this order")
    func layoutOrder() throws {
        let page = try String(contentsOf: DocumentLinksTests.root.appendingPathComponent("docs/internals.md"), encoding: .utf8)
        let listed = page.matches(of: /(?m)^Sources\/(\w+)\s/).map { String($0.output.1) }.filter(Self.layers.contains)
        #expect(listed == Self.layers, "the layout lists \(listed)")
    }
}
