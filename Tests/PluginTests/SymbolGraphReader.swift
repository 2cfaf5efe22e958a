import Foundation

/// Reads the public symbols of modules built beside these tests, through the toolchain's
/// `swift-symbolgraph-extract`: what the compiler exports, protocol requirements included (a regex
/// over `public` lines missed those, and named files rather than types).
struct SymbolGraphReader {
    /// One public symbol as the listing shows it.
    struct Symbol {
        /// `Module.Owner: declaration`, with the type's conformances or the requirement's marks.
        let line: String
        let documented: Bool
        /// Module, then path components: the listing's order (a type before its members).
        let order: [String]
    }

    /// SCRATCH/TRIPLE/CONFIGURATION, where the tests and the modules they import were built.
    let products: URL
    /// The scratch directory (`.build` unless `--scratch-path` said otherwise).
    let scratch: URL

    init() throws {
        let tests = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        products = URL(fileURLWithPath: tests).deletingLastPathComponent()
        scratch = products.deletingLastPathComponent().deletingLastPathComponent()
    }

    /// The listing's lines for `modules`, in order.
    func listing(of modules: [String]) throws -> [String] {
        try symbols(of: modules).map(\.line)
    }

    /// Every public symbol of `modules` but the members that only satisfy a standard-library
    /// protocol their type's line names (whose signatures the protocol fixes), in listing order.
    func symbols(of modules: [String]) throws -> [Symbol] {
        var found: [Symbol] = []
        for module in modules {
            for (file, graph) in try graphs(of: module) {
                let extended = file.split(separator: "@").dropFirst().first.map { String($0.dropLast(".symbols.json".count)) }
                found += SymbolGraphListing(graph: graph, module: module, extendedModule: extended).symbols()
            }
        }
        return found.sorted { $0.order.lexicographicallyPrecedes($1.order) }
    }

    /// The module's symbol graph files (its own, and one per module it extends), decoded.
    private func graphs(of module: String) throws -> [(String, SymbolGraph)] {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("importbench-symbols-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: output) }
        try extract(module, into: output)
        let files = try FileManager.default.contentsOfDirectory(atPath: output.path).filter { $0.hasSuffix(".symbols.json") }.sorted()
        return try files.map { file in
            (file, try JSONDecoder().decode(SymbolGraph.self, from: Data(contentsOf: output.appendingPathComponent(file))))
        }
    }

    private func extract(_ module: String, into output: URL) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            [
                "swift-symbolgraph-extract", "-module-name", module, "-target", products.deletingLastPathComponent().lastPathComponent,
                "-I", products.appendingPathComponent("Modules").path, "-minimum-access-level", "public", "-skip-synthesized-members",
                "-output-dir", output.path,
            ] + clangModuleArguments()
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw ExtractionFailed(module: module, message: message) }
    }

    /// The C modules the Swift ones import: the package's own targets (their module maps lie in the
    /// build), its system libraries (module maps in Sources), and those of checked-out dependencies.
    private func clangModuleArguments() -> [String] {
        let manager = FileManager.default
        let builtMaps = ((try? manager.contentsOfDirectory(atPath: products.path)) ?? []).filter { $0.hasSuffix(".build") }
            .map { products.appendingPathComponent($0).appendingPathComponent("module.modulemap").path }
        let checkouts = scratch.appendingPathComponent("checkouts")
        let checkedOutMaps = (manager.enumerator(atPath: checkouts.path)?.compactMap { $0 as? String } ?? [])
            .filter { $0.hasSuffix("include/module.modulemap") }.map { checkouts.appendingPathComponent($0).path }
        let maps = (builtMaps + checkedOutMaps).filter { manager.fileExists(atPath: $0) }.sorted()
        let systemLibraries = ["CSQLite", "CZlib", "CJemalloc"].map { PublicSurfaceTests.root.appendingPathComponent("Sources/\($0)").path }
        return maps.flatMap { ["-Xcc", "-fmodule-map-file=\($0)"] } + systemLibraries.flatMap { ["-I", $0] }
    }

    struct ExtractionFailed: Error, CustomStringConvertible {
        let module: String
        let message: String
        var description: String { "swift-symbolgraph-extract could not read \(module) (build the tests first): \(message)" }
    }
}

/// One symbol graph file's symbols, as listing lines.
struct SymbolGraphListing {
    let graph: SymbolGraph
    let module: String
    /// The module whose types this file's symbols extend, for `Module@Extended.symbols.json`.
    let extendedModule: String?

    /// Members a standard-library protocol fixes, by the protocol's name.
    static let witnesses: [String: Set<String>] = [
        "Sequence": ["makeIterator()"], "Collection": ["startIndex", "endIndex", "subscript(_:)", "count", "index(after:)"],
        "BidirectionalCollection": ["index(before:)"], "IteratorProtocol": ["next()"], "RawRepresentable": ["init(rawValue:)", "rawValue"],
        "Decodable": ["init(from:)"], "Encodable": ["encode(to:)"], "CustomStringConvertible": ["description"],
        "ExpressibleByStringLiteral": ["init(stringLiteral:)"], "ExpressibleByIntegerLiteral": ["init(integerLiteral:)"],
        "ExpressibleByNilLiteral": ["init(nilLiteral:)"], "Hashable": ["hash(into:)", "hashValue"], "Equatable": ["==(_:_:)"],
    ]
    /// Conformances another one listed implies, left off a type's line.
    static let implied: [String: Set<String>] = [
        "RandomAccessCollection": ["BidirectionalCollection", "Collection", "Sequence"], "Hashable": ["Equatable"],
        "Codable": ["Decodable", "Encodable"], "Error": ["Sendable"],
        "ExpressibleByStringLiteral": ["ExpressibleByExtendedGraphemeClusterLiteral", "ExpressibleByUnicodeScalarLiteral"],
    ]
    static let alwaysImplied: Set<String> = ["SendableMetatype", "Escapable", "Copyable"]

    func symbols() -> [SymbolGraphReader.Symbol] {
        let byID = Dictionary(graph.symbols.map { ($0.identifier.precise, $0) }, uniquingKeysWith: { first, _ in first })
        let conformances = conformanceNames(byID: byID)
        let requirements = Set(graph.relationships.filter { $0.kind == "requirementOf" }.map(\.source))
        let defaulted = Set(graph.relationships.filter { $0.kind == "defaultImplementationOf" }.map(\.target))
        let defaults = Set(graph.relationships.filter { $0.kind == "defaultImplementationOf" }.map(\.source))
        let owners = Dictionary(
            graph.relationships.filter { $0.kind == "memberOf" }.map { ($0.source, $0.target) }, uniquingKeysWith: { first, _ in first })
        return graph.symbols.compactMap { symbol in
            let id = symbol.identifier.precise
            // A default implementation is listed with its requirement, marked "defaulted".
            if defaults.contains(id) { return nil }
            if let owner = owners[id], isWitness(symbol, of: conformances[owner] ?? []) { return nil }
            var marks: [String] = []
            if requirements.contains(id) { marks.append("required") }
            if defaulted.contains(id) { marks.append("defaulted") }
            return line(for: symbol, conformances: conformances[id] ?? [], marks: marks)
        }
    }

    private func line(for symbol: SymbolGraph.Symbol, conformances: [String], marks: [String]) -> SymbolGraphReader.Symbol {
        let path = symbol.pathComponents
        var owner = ([extendedModule ?? module] + path.dropLast()).joined(separator: ".")
        if extendedModule != nil { owner += ", extended in \(module)" }
        var declaration = (symbol.declarationFragments ?? []).map(\.spelling).joined()
        if !conformances.isEmpty { declaration += ": " + conformances.joined(separator: ", ") }
        if !marks.isEmpty { declaration += "  [\(marks.joined(separator: ", "))]" }
        return SymbolGraphReader.Symbol(
            line: "\(owner): \(declaration)", documented: !(symbol.docComment?.lines.isEmpty ?? true),
            order: [extendedModule ?? module] + path + [isType(symbol) ? "" : declaration])
    }

    /// A type's line sorts before its members' (an empty last component).
    private func isType(_ symbol: SymbolGraph.Symbol) -> Bool {
        ["swift.struct", "swift.class", "swift.enum", "swift.protocol", "swift.typealias"].contains(symbol.kind.identifier)
    }

    private func isWitness(_ symbol: SymbolGraph.Symbol, of conformances: [String]) -> Bool {
        guard let name = symbol.pathComponents.last, !isType(symbol) else { return false }
        let protocols = conformances.flatMap { [$0] + (Self.implied[$0] ?? []) }
        return protocols.contains { Self.witnesses[$0]?.contains(name) ?? false }
    }

    /// Per type, the protocols it conforms to that no other listed one implies, sorted.
    private func conformanceNames(byID: [String: SymbolGraph.Symbol]) -> [String: [String]] {
        var names: [String: Set<String>] = [:]
        for relationship in graph.relationships where relationship.kind == "conformsTo" {
            let target =
                byID[relationship.target]?.pathComponents.joined(separator: ".")
                ?? relationship.targetFallback.map { $0.split(separator: ".").last.map(String.init) ?? $0 } ?? relationship.target
            names[relationship.source, default: []].insert(target)
        }
        return names.mapValues { conformances in
            var kept = conformances.subtracting(Self.alwaysImplied)
            if kept.isSuperset(of: ["Decodable", "Encodable"]) { kept.insert("Codable") }
            for protocolName in kept { kept.subtract(Self.implied[protocolName] ?? []) }
            return kept.sorted()
        }
    }
}

/// The parts of a symbol graph file the listing reads.
struct SymbolGraph: Decodable {
    struct Symbol: Decodable {
        struct Identifier: Decodable { let precise: String }
        struct Kind: Decodable { let identifier: String }
        struct Fragment: Decodable { let spelling: String }
        struct DocComment: Decodable {
            struct Line: Decodable { let text: String }
            let lines: [Line]
        }
        let identifier: Identifier
        let kind: Kind
        let pathComponents: [String]
        let declarationFragments: [Fragment]?
        let docComment: DocComment?
    }
    struct Relationship: Decodable {
        let kind: String
        let source: String
        let target: String
        let targetFallback: String?
    }
    let symbols: [Symbol]
    let relationships: [Relationship]
}
