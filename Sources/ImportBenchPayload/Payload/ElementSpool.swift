import Foundation

/// Elements set aside in a temporary file, to be handed out later in the order they were written:
/// a collection a document holds before its turn. The file is made in the temporary directory a run
/// gives (`TMPDIR`, the run's own folder under `bench run`) and unlinked at once, so it never shows
/// in a directory and goes with the process, however it ends; memory stays one element.
final class ElementSpool {
    private let file: UnsafeMutablePointer<FILE>
    // Written and read by this class's own methods, one at a time: unchecked, like the readers' state.
    @exclusivity(unchecked) private var writeOffset: Int64 = 0
    /// Where the file's position is, so that a run of writes or of reads seeks once (a seek
    /// empties stdio's buffer); -1 when unknown.
    @exclusivity(unchecked) private var position: Int64 = 0
    /// Whether the last operation wrote: C requires a seek between a write and a read.
    @exclusivity(unchecked) private var writing = true
    private let path: String
    /// The bytes of the element read back last, reused: valid until the next read.
    @exclusivity(unchecked) private var readBuffer: UnsafeMutableRawBufferPointer
    /// The file's stdio buffer, freed after the file is closed.
    private let stdioBuffer: UnsafeMutableBufferPointer<CChar>
    /// One record as it is written, reused.
    @exclusivity(unchecked) private var record: [UInt8] = []

    /// `path` is the payload's, for errors.
    init(payloadPath path: String) throws(PayloadError) {
        var template = Array(FileManager.default.temporaryDirectory.appendingPathComponent("importbench-spool-XXXXXX").path.utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.map { mkstemp($0) } ?? -1 }
        guard descriptor >= 0 else {
            throw PayloadError(
                file: path, byteOffset: nil, path: nil, expected: .spool(.temporaryFile),
                found: String(cString: strerror(errno)))
        }
        template.withUnsafeBufferPointer { buffer in _ = buffer.baseAddress.map { unlink($0) } }
        guard let file = fdopen(descriptor, "w+b") else {
            close(descriptor)
            throw PayloadError(
                file: path, byteOffset: nil, path: nil, expected: .spool(.temporaryFile),
                found: String(cString: strerror(errno)))
        }
        // A megabyte at a time rather than stdio's 4 KB: the catalog example made a write or read
        // system call per 4 KB of elements set aside (3,763 for a 6.9 MB document). glibc sizes a
        // buffer it allocates itself by the file's block size, so the buffer is this class's.
        // Allocated once nothing can throw, so a spool that fails to open leaks nothing.
        stdioBuffer = .allocate(capacity: 1 << 20)
        readBuffer = .allocate(byteCount: 1 << 16, alignment: 1)
        setvbuf(file, stdioBuffer.baseAddress, _IOFBF, stdioBuffer.count)
        self.file = file
        self.path = path
    }

    deinit {
        fclose(file)
        stdioBuffer.deallocate()
        readBuffer.deallocate()
    }

    /// Where the next element written will start: give it to `read(from:count:)` later.
    var end: Int64 { writeOffset }

    /// Appends one element: its position in its collection, its byte in the payload, its member
    /// name when the collection is an object, its bytes.
    func write(index: Int, byteOffset: Int, memberName: String?, bytes: UnsafeRawBufferPointer) throws {
        // One write per record: its four numbers, the name, the bytes.
        record.removeAll(keepingCapacity: true)
        let nameLength = memberName?.utf8.count ?? -1
        for number in [Int64(index), Int64(byteOffset), Int64(nameLength), Int64(bytes.count)] {
            withUnsafeBytes(of: number) { record.append(contentsOf: $0) }
        }
        if let memberName { record.append(contentsOf: memberName.utf8) }
        record.append(contentsOf: bytes)
        try seek(to: writeOffset, writing: true)
        try record.withUnsafeBytes { raw in try put(raw) }
        writeOffset += Int64(record.count)
        position = writeOffset
    }

    /// The elements written from `start`, `count` of them, in order.
    func read(from start: Int64, count: Int) -> Reader {
        Reader(spool: self, offset: start, remaining: count)
    }

    /// One element as `read` gives it back; its bytes are lent until the next read.
    struct Element {
        let index: Int
        let byteOffset: Int
        let memberName: String?
        let bytes: UnsafeBufferPointer<UInt8>
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
        try seek(to: offset, writing: false)
        var header: (Int64, Int64, Int64, Int64) = (0, 0, 0, 0)
        try withUnsafeMutableBytes(of: &header) { raw in try get(raw) }
        let (index, byteOffset, nameLength, length) = (Int(header.0), Int(header.1), Int(header.2), Int(header.3))
        // The name and the bytes in one read, into the reused buffer.
        let total = max(nameLength, 0) + length
        if total > readBuffer.count {
            readBuffer.deallocate()
            readBuffer = .allocate(byteCount: max(total, readBuffer.count * 2), alignment: 1)
        }
        try get(UnsafeMutableRawBufferPointer(rebasing: readBuffer[..<total]))
        let name = nameLength >= 0 ? String(decoding: UnsafeRawBufferPointer(rebasing: readBuffer[..<nameLength]), as: UTF8.self) : nil
        let bytes = UnsafeMutableRawBufferPointer(rebasing: readBuffer[max(nameLength, 0)..<total])
        let element = Element(index: index, byteOffset: byteOffset, memberName: name, bytes: UnsafeBufferPointer(bytes.bindMemory(to: UInt8.self)))
        position = offset + Int64(4 * MemoryLayout<Int64>.size + total)
        return (element, position)
    }

    private func seek(to offset: Int64, writing: Bool) throws {
        guard offset != position || writing != self.writing else { return }
        guard fseeko(file, off_t(offset), SEEK_SET) == 0 else { throw failure(.seek) }
        position = offset
        self.writing = writing
    }

    private func put(_ bytes: UnsafeRawBufferPointer) throws {
        guard bytes.isEmpty || fwrite(bytes.baseAddress, 1, bytes.count, file) == bytes.count else { throw failure(.write) }
    }

    private func get(_ bytes: UnsafeMutableRawBufferPointer) throws {
        guard bytes.isEmpty || fread(bytes.baseAddress, 1, bytes.count, file) == bytes.count else { throw failure(.readBack) }
    }

    private func failure(_ step: PayloadExpectation.SpoolStep) -> PayloadError {
        PayloadError(
            file: path, byteOffset: nil, path: nil, expected: .spool(step),
            found: String(cString: strerror(errno)))
    }
}
