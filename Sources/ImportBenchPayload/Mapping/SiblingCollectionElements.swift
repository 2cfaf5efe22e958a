import Foundation

/// A document's collections, siblings in one object (`{"events": {...}, "performances": [...],
/// "venueNames": {...}}`), read in one streaming pass and handed out in the mapping's order,
/// targets first: a collection the file holds before its turn is set aside in a spool (a temporary
/// file that leaves nothing behind) and handed out when its turn comes; one that comes in its turn
/// streams straight through, parsed in place. Memory stays one element.
final class SiblingCollectionElements: CollectionElementSource {
    private let reader: JSONArrayElementReader
    private let collections: [ElementCollection]
    /// Each collection's path as a record path writes it, joined once rather than per element.
    private let collectionPaths: [String]
    private let spool: ElementSpool
    // The state below is read and written on every element by this class's own methods, one at a
    // time (its reader's `next()`); checked, its accesses were about 5 % of the instructions decoding
    // the catalog example (swift_beginAccess and the runtime's access set), hence unchecked.
    /// Per collection: where its set-aside elements start in the spool, and how many there are.
    @exclusivity(unchecked) private var spooled: [(start: Int64, count: Int)?]
    @exclusivity(unchecked) private var replay: ElementSpool.Reader?
    /// An element read from the document for a later collection, still borrowing the reader's
    /// buffer: handed out if its turn comes before the next read, else set aside.
    @exclusivity(unchecked) private var held: (element: JSONArrayElementReader.Element, collection: Int)?
    @exclusivity(unchecked) private var readerDone = false
    /// Per collection, whether its first element was handed out (a header row is checked there).
    @exclusivity(unchecked) private var started: [Bool]
    /// The collection of the element last handed out.
    @exclusivity(unchecked) private(set) var current = 0
    /// For an element handed out from the spool: its member name (the reader has moved on).
    @exclusivity(unchecked) private var replayedName: String?
    @exclusivity(unchecked) private var replaying = false
    /// For elements handed out from the spool, parsed in place as the reader parses its own.
    private let workspace = JSONTapeWorkspace()

    /// `collections` in the mapping's order, all members of one object: the first's path names it.
    init(path: String, collections: [ElementCollection], chunkSize: Int, limits: PayloadLimits, hasher: PayloadHasher?) throws {
        self.collections = collections
        collectionPaths = collections.map { $0.arrayPath.joined(separator: ".") }
        reader = try JSONArrayElementReader(
            path: path, arrayPath: collections[0].arrayPath, chunkSize: chunkSize, limits: limits, hasher: hasher, acceptsObject: true,
            siblings: collections.dropFirst().map { $0.arrayPath.last ?? "" })
        spool = try ElementSpool(payloadPath: path)
        started = collections.map { _ in false }
        spooled = collections.map { _ in nil }
    }

    /// Whether `collections` can be read so: two or more, members of one object.
    static func canRead(_ collections: [ElementCollection]) -> Bool {
        guard collections.count > 1, let first = collections.first, !first.arrayPath.isEmpty else { return false }
        let parent = first.arrayPath.dropLast()
        let names = collections.map { $0.arrayPath.last }
        return collections.allSatisfy { $0.arrayPath.count == first.arrayPath.count && $0.arrayPath.dropLast() == parent }
            && Set(names).count == names.count
    }

    var path: String { reader.path }
    var limits: PayloadLimits { reader.limits }
    var currentMemberName: String? { replaying ? replayedName : reader.currentMemberName }

    func elementPath(_ index: Int) -> String {
        guard replaying else { return reader.elementPath(index) }
        let prefix = collectionPaths[current]
        if let name = replayedName { return JSONArrayElementReader.memberPath(prefix, name) }
        return "\(prefix)[\(index)]"
    }

    func located(_ error: PayloadError, in element: JSONArrayElement) -> PayloadError { error }

    /// Every collection was empty, or held a header row alone.
    func noElement() -> PayloadError {
        let ended = reader.noElement()
        guard started.contains(true) else { return ended }
        return PayloadError(file: ended.file, byteOffset: ended.byteOffset, path: ended.path, expected: ended.expected, found: "header rows alone")
    }

    func next() throws -> JSONArrayElementReader.Element? {
        while true {
            if var reading = replay {
                let element = try reading.next()
                replay = reading
                if let element {
                    replaying = true
                    replayedName = element.memberName
                    if let handed = try handOut(replayed(element)) { return handed }
                    continue
                }
                replay = nil
            }
            replaying = false
            guard current < collections.count else { return nil }
            if let stretch = spooled[current] {
                spooled[current] = nil
                replay = spool.read(from: stretch.start, count: stretch.count)
                continue
            }
            if let held, held.collection == current {
                self.held = nil
                if let handed = try handOut(held.element) { return handed }
                continue
            }
            if hasEnded(current) {
                current += 1
                continue
            }
            if let held {
                try setAside(held.element, of: held.collection)
                self.held = nil
            }
            // Only the collection whose turn it is is parsed as it is read; the others are set aside raw.
            reader.parsedTarget = current
            guard let element = try reader.next() else {
                readerDone = true
                continue
            }
            if reader.currentTarget == current {
                if let handed = try handOut(element) { return handed }
            } else {
                held = (element, reader.currentTarget)
            }
        }
    }

    /// An element read back from the spool: parsed where it lies (valid until the next read back),
    /// or, where the fast parse declines it (a scalar, a damaged element), copied for the checked one.
    private func replayed(_ element: ElementSpool.Element) -> JSONArrayElementReader.Element {
        if case .parsed(let tape, let length) = JSONTape.parsingPrefix(
            of: element.bytes, baseOffset: element.byteOffset, file: path, rootPrefix: elementPath(element.index),
            workspace: workspace, limits: limits),
            length == element.bytes.count
        {
            return .parsed(tape, index: element.index)
        }
        return .delimited(JSONArrayElement(index: element.index, byteOffset: element.byteOffset, bytes: Data(element.bytes)))
    }

    /// Whether the document has no more of `collection`: the reader met it and went on, or ended.
    private func hasEnded(_ collection: Int) -> Bool {
        readerDone || (reader.hasMet(collection) && reader.currentTarget != collection && held?.collection != collection)
    }

    /// The element, or nil for a header row checked and left out.
    private func handOut(_ element: JSONArrayElementReader.Element) throws -> JSONArrayElementReader.Element? {
        defer { started[current] = true }
        guard collections[current].headerRow, !started[current] else { return element }
        try HeaderRowElements.check(element, of: self)
        return nil
    }

    private func setAside(_ element: JSONArrayElementReader.Element, of collection: Int) throws {
        let start = spooled[collection]?.start ?? spool.end
        switch element {
        case .parsed(let tape, let index):
            try spool.write(
                index: index, byteOffset: tape.baseOffset, memberName: reader.currentMemberName, bytes: UnsafeRawBufferPointer(tape.bytes))
        case .delimited(let delimited):
            try delimited.bytes.withUnsafeBytes { bytes in
                try spool.write(index: delimited.index, byteOffset: delimited.byteOffset, memberName: reader.currentMemberName, bytes: bytes)
            }
        }
        spooled[collection] = (start, (spooled[collection]?.count ?? 0) + 1)
    }
}
