import Foundation

/// Elements set aside in a temporary file, to be handed out later in the order they were written:
/// a collection a document holds before its turn. The file is created unlinked (`tmpfile`), so it
/// never shows in a directory and goes with the process, however it ends; memory stays one element.
final class ElementSpool {
    private let file: UnsafeMutablePointer<FILE>
    private var writeOffset: Int64 = 0
    private let path: String

    /// `path` is the payload's, for errors.
    init(payloadPath path: String) throws(PayloadError) {
        guard let file = tmpfile() else {
            throw PayloadError(
                file: path, byteOffset: nil, path: nil, expected: "a temporary file to set collections aside in",
                found: String(cString: strerror(errno)))
        }
        self.file = file
        self.path = path
    }

    deinit {
        fclose(file)
    }

    /// Where the next element written will start: give it to `read(from:count:)` later.
    var end: Int64 { writeOffset }

    /// Appends one element: its position in its collection, its byte in the payload, its member
    /// name when the collection is an object, its bytes.
    func write(index: Int, byteOffset: Int, memberName: String?, bytes: UnsafeRawBufferPointer) throws {
        let name = memberName.map { Array($0.utf8) }
        let header: [Int64] = [Int64(index), Int64(byteOffset), Int64(name?.count ?? -1), Int64(bytes.count)]
        guard fseeko(file, off_t(writeOffset), SEEK_SET) == 0 else { throw failure("seek") }
        try header.withUnsafeBytes { raw in try put(raw) }
        if let name { try name.withUnsafeBytes { raw in try put(raw) } }
        try put(bytes)
        writeOffset = Int64(ftello(file))
    }

    /// The elements written from `start`, `count` of them, in order.
    func read(from start: Int64, count: Int) -> Reader {
        Reader(spool: self, offset: start, remaining: count)
    }

    /// One element as `read` gives it back.
    struct Element {
        let index: Int
        let byteOffset: Int
        let memberName: String?
        let bytes: Data
    }

    /// Hands the elements of one stretch of the spool back, one at a time.
    struct Reader {
        let spool: ElementSpool
        var offset: Int64
        var remaining: Int

        mutating func next() throws -> Element? {
            guard remaining > 0 else { return nil }
            remaining -= 1
            let (element, next) = try spool.element(at: offset)
            offset = next
            return element
        }
    }

    private func element(at offset: Int64) throws -> (Element, Int64) {
        guard fseeko(file, off_t(offset), SEEK_SET) == 0 else { throw failure("seek") }
        var header = [Int64](repeating: 0, count: 4)
        try header.withUnsafeMutableBytes { raw in try get(raw) }
        var name: String?
        if header[2] >= 0 {
            var bytes = [UInt8](repeating: 0, count: Int(header[2]))
            try bytes.withUnsafeMutableBytes { raw in try get(raw) }
            name = String(decoding: bytes, as: UTF8.self)
        }
        var data = Data(count: Int(header[3]))
        try data.withUnsafeMutableBytes { raw in try get(raw) }
        return (Element(index: Int(header[0]), byteOffset: Int(header[1]), memberName: name, bytes: data), Int64(ftello(file)))
    }

    private func put(_ bytes: UnsafeRawBufferPointer) throws {
        guard bytes.isEmpty || fwrite(bytes.baseAddress, 1, bytes.count, file) == bytes.count else { throw failure("write") }
    }

    private func get(_ bytes: UnsafeMutableRawBufferPointer) throws {
        guard bytes.isEmpty || fread(bytes.baseAddress, 1, bytes.count, file) == bytes.count else { throw failure("read back") }
    }

    private func failure(_ what: String) -> PayloadError {
        PayloadError(
            file: path, byteOffset: nil, path: nil, expected: "to \(what) the temporary file collections are set aside in",
            found: String(cString: strerror(errno)))
    }
}
