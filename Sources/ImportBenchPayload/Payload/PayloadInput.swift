import CZlib
import Foundation

/// The bytes of a payload file as every reader takes them: the file's own, or, for a file that
/// starts with gzip's magic bytes (`.json.gz`, `.jsonl.gz`, a GTFS feed's `stops.txt.gz`), its
/// inflated content, streamed with zlib, one member after another. Memory stays a read buffer and
/// zlib's window, whatever the file inflates to; offsets in errors are the inflated bytes'.
package final class PayloadInput {
    package let path: String
    private let descriptor: Int32
    /// Set for a gzip file.
    private var stream: UnsafeMutablePointer<z_stream>?
    private var compressed: UnsafeMutablePointer<UInt8>?
    private static let compressedChunk = 1 << 16
    private var inputEnded = false
    private var finished = false
    /// Bytes `peek` read ahead, handed out first by `read`.
    private var pending: [UInt8] = []
    /// The file's bytes read so far (compressed ones, for a gzip file).
    package private(set) var fileBytesRead = 0
    /// Whether the file is gzip-compressed.
    package var isCompressed: Bool { stream != nil }

    /// Opens `path`; `expected` names what the reader wanted, for the error when it cannot.
    package init(path: String, expected: PayloadExpectation) throws(PayloadError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw PayloadError(file: path, byteOffset: nil, path: nil, expected: expected, found: String(cString: strerror(errno)))
        }
        self.path = path
        self.descriptor = descriptor
        var magic: (UInt8, UInt8) = (0, 0)
        let peeked = withUnsafeMutableBytes(of: &magic) { pread(descriptor, $0.baseAddress, 2, 0) }
        guard peeked == 2, magic == (0x1f, 0x8b) else { return }
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        guard czlib_inflate_init(stream) == Z_OK else {
            stream.deallocate()
            close(descriptor)
            throw PayloadError(file: path, byteOffset: nil, path: nil, expected: .gzipStream(.zlibCanOpen), found: "zlib refused to start")
        }
        self.stream = stream
        compressed = UnsafeMutablePointer<UInt8>.allocate(capacity: Self.compressedChunk)
    }

    deinit {
        if let stream {
            inflateEnd(stream)
            stream.deallocate()
        }
        compressed?.deallocate()
        close(descriptor)
    }

    /// Reads up to `count` bytes into `buffer`; 0 at the end. A read the system refuses, or a gzip
    /// stream that is truncated or damaged, throws, located at `offset` (the bytes read before).
    package func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int, offset: Int) throws(PayloadError) -> Int {
        if !pending.isEmpty {
            let served = min(count, pending.count)
            for index in 0..<served { buffer[index] = pending[index] }
            pending.removeFirst(served)
            return served
        }
        return try readFromFile(into: buffer, count: count, offset: offset)
    }

    /// Reads up to `chunk` bytes onto the end of a reader's buffer (`buffer[0..<count]` in use,
    /// `capacity` allocated, its first byte at `offset` in the payload), growing it first when less
    /// than a chunk is free, and feeds them to `hasher`; returns how many, 0 at the end.
    package func read(
        appendingTo buffer: inout UnsafeMutablePointer<UInt8>, capacity: inout Int, count: inout Int, chunk: Int, offset: Int,
        hasher: PayloadHasher?
    ) throws(PayloadError) -> Int {
        if capacity - count < chunk {
            let grown = max(capacity * 2, count + chunk)
            let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
            larger.update(from: buffer, count: count)
            buffer.deallocate()
            buffer = larger
            capacity = grown
        }
        let received = try read(into: buffer + count, count: chunk, offset: offset + count)
        hasher?.update(UnsafeRawBufferPointer(start: buffer + count, count: received))
        count += received
        return received
    }

    /// The first `count` bytes still to be read (fewer at the end), left for `read` to hand out:
    /// a reader looks at a byte order mark before it starts.
    package func peek(_ count: Int) throws(PayloadError) -> [UInt8] {
        var byte: UInt8 = 0
        while pending.count < count {
            let received = try readFromFile(into: &byte, count: 1, offset: pending.count)
            if received == 0 { break }
            pending.append(byte)
        }
        return Array(pending.prefix(count))
    }

    /// Drops `count` bytes `peek` read ahead.
    package func skip(_ count: Int) {
        pending.removeFirst(min(count, pending.count))
    }

    private func readFromFile(into buffer: UnsafeMutablePointer<UInt8>, count: Int, offset: Int) throws(PayloadError) -> Int {
        guard let stream else {
            while true {
                let received = Glibc.read(descriptor, buffer, count)
                if received >= 0 {
                    fileBytesRead += received
                    return received
                }
                if errno != EINTR { throw failure(offset, expected: .readable(.file), found: String(cString: strerror(errno))) }
            }
        }
        while !finished {
            if stream.pointee.avail_in == 0, !inputEnded { try fillCompressed(stream, offset: offset) }
            stream.pointee.next_out = buffer
            stream.pointee.avail_out = UInt32(clamping: count)
            let code = inflate(stream, Z_NO_FLUSH)
            let produced = count - Int(stream.pointee.avail_out)
            switch code {
            case Z_STREAM_END:
                // One member ends; another may follow (concatenated gzip files are one stream).
                if stream.pointee.avail_in == 0, !inputEnded { try fillCompressed(stream, offset: offset) }
                if stream.pointee.avail_in == 0, inputEnded { finished = true } else { inflateReset(stream) }
            case Z_OK:
                break
            case Z_BUF_ERROR where !inputEnded || produced > 0:
                break
            case Z_BUF_ERROR:
                throw truncated(offset + produced)
            default:
                let message = stream.pointee.msg.map { String(cString: $0) } ?? "zlib error \(code)"
                throw failure(
                    offset + produced, expected: .gzipStream(.intact), found: "damaged data (\(message)) at compressed byte \(compressedOffset)")
            }
            if produced > 0 { return produced }
            if inputEnded, stream.pointee.avail_in == 0, !finished { throw truncated(offset) }
        }
        return 0
    }

    /// The compressed bytes zlib has taken so far.
    private var compressedOffset: Int { fileBytesRead - Int(stream?.pointee.avail_in ?? 0) }

    private func fillCompressed(_ stream: UnsafeMutablePointer<z_stream>, offset: Int) throws(PayloadError) {
        guard let compressed else { return }
        while true {
            let received = Glibc.read(descriptor, compressed, Self.compressedChunk)
            if received > 0 {
                fileBytesRead += received
                stream.pointee.next_in = compressed
                stream.pointee.avail_in = UInt32(received)
                return
            }
            if received == 0 {
                inputEnded = true
                return
            }
            if errno != EINTR { throw failure(offset, expected: .readable(.file), found: String(cString: strerror(errno))) }
        }
    }

    private func truncated(_ offset: Int) -> PayloadError {
        failure(offset, expected: .gzipStream(.rest), found: "the file's end at compressed byte \(fileBytesRead): the file is truncated")
    }

    private func failure(_ offset: Int, expected: PayloadExpectation, found: String) -> PayloadError {
        PayloadError(file: path, byteOffset: offset, path: nil, expected: expected, found: found)
    }
}
