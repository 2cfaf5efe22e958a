import Foundation

/// The elements of a payload whose first element is a header row (`["asin", "brand", "rating"]`,
/// as compact exports write before rows given as arrays): that element is checked to be an array
/// of names and left out, the rows after it handed on, keeping their positions (`rows[1]` is the
/// first row in errors).
final class HeaderRowElements: JSONElementSource {
    private let elements: any JSONElementSource
    private var headerRead = false
    /// Whether there was a header row to check (the collection held an element).
    private var headerFound = false

    init(_ elements: any JSONElementSource) {
        self.elements = elements
    }

    var path: String { elements.path }
    var currentMemberName: String? { elements.currentMemberName }
    var limits: PayloadLimits { elements.limits }

    func elementPath(_ index: Int) -> String { elements.elementPath(index) }

    func located(_ error: PayloadError, in element: JSONArrayElement) -> PayloadError {
        elements.located(error, in: element)
    }

    /// A collection of a header row alone holds no row either; refused where it ended.
    func noElement() -> PayloadError {
        let ended = elements.noElement()
        guard headerFound else { return ended }
        return PayloadError(
            file: ended.file, byteOffset: ended.byteOffset, path: ended.path, expected: .atLeastOne(.rowAfterHeaderRow),
            found: "the header row alone")
    }

    func next() throws -> JSONArrayElementReader.Element? {
        if !headerRead {
            headerRead = true
            guard let header = try elements.next() else { return nil }
            try Self.check(header, of: elements)
            headerFound = true
        }
        return try elements.next()
    }

    /// Throws, located by `elements`, unless the element is an array of strings.
    static func check(_ header: JSONArrayElementReader.Element, of elements: any JSONElementSource) throws {
        let path = elements.path
        let limits = elements.limits
        func elementPath(_ index: Int) -> String { elements.elementPath(index) }
        func locate(_ error: PayloadError, _ header: JSONArrayElementReader.Element) -> PayloadError {
            switch header {
            case .delimited(let element): return elements.located(error, in: element)
            case .parsed(let tape, let index):
                return elements.located(error, in: JSONArrayElement(index: index, byteOffset: tape.baseOffset, bytes: Data()))
            }
        }
        let tape: JSONTape
        switch header {
        case .parsed(let parsed, _): tape = parsed
        case .delimited(let element):
            do {
                tape = try JSONTape(
                    bytes: element.bytes, baseOffset: element.byteOffset, file: path, recordPath: elementPath(element.index), limits: limits)
            } catch {
                throw locate(error, header)
            }
        }
        let root = tape.root
        guard root.kind == .array else { throw locate(tape.mismatch(at: root.index, expected: .headerRow(columnName: false)), header) }
        for name in try root.array() where name.kind != .string {
            throw locate(tape.mismatch(at: name.index, expected: .headerRow(columnName: true)), header)
        }
    }

}
