/// A source of the elements of several collections that says which one the element last handed
/// out belongs to.
protocol CollectionElementSource: JSONElementSource {
    /// The collection (an index into the mapping's) of the element last handed out.
    var current: Int { get }
}

/// The elements of a document's collections, one collection after another in the mapping's order
/// (targets first): each is streamed by a reader of its own, opened when the one before it ends,
/// so memory stays one collection's reader and one element, and the file is read once per
/// collection (each reader skips what is not its collection at scanning speed). `current` says
/// which collection the element last handed out belongs to.
final class CollectionElements: CollectionElementSource {
    private let count: Int
    /// The collections' paths, for the refusal of a document in which every one is empty.
    private let names: [String]
    private let open: (Int) throws -> any JSONElementSource
    private var source: any JSONElementSource
    /// The collection of the element last handed out (an index into the mapping's collections).
    private(set) var current = 0

    /// `open(i)` opens collection `i` of `count`; the first is opened now, so a missing file fails here.
    init(count: Int, names: [String] = [], open: @escaping (Int) throws -> any JSONElementSource) throws {
        self.count = count
        self.names = names
        self.open = open
        source = try open(0)
    }

    var path: String { source.path }
    var limits: PayloadLimits { source.limits }
    var currentMemberName: String? { source.currentMemberName }

    func elementPath(_ index: Int) -> String { source.elementPath(index) }

    func located(_ error: PayloadError, in element: JSONArrayElement) -> PayloadError {
        source.located(error, in: element)
    }

    /// Every collection was empty: one alone says so itself; several, located where the last ended.
    func noElement() -> PayloadError {
        let ended = source.noElement()
        guard count > 1 else { return ended }
        return PayloadError.noElement(inCollections: names, file: ended.file, byteOffset: ended.byteOffset)
    }

    func next() throws -> JSONArrayElementReader.Element? {
        while true {
            if let element = try source.next() { return element }
            guard current + 1 < count else { return nil }
            current += 1
            source = try open(current)
        }
    }
}
