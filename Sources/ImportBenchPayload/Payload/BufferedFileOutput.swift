import CZlib
import Foundation

/// A file written through a large buffer, so generators stream payloads of any size. I/O errors are
/// sticky: the first one stops further output and is thrown by `close()`, which keeps the writers'
/// call sites free of `try` on every value. The bytes go to a hidden file beside `path`, renamed to
/// `path` only by a `close()` that succeeds: a full disk, an error or an abandoned writer leaves no
/// truncated file under the final name, and removes its partial one. A path ending in `.gz` is
/// written gzip-compressed (zlib, level 6) as the bytes stream through.
final class BufferedFileOutput {
    let path: String
    /// Where the bytes go until they are complete.
    let partialPath: String
    /// Bytes handed to the file so far, including those still buffered.
    private(set) var bytesWritten = 0

    private let file: UnsafeMutablePointer<FILE>
    private let buffer: UnsafeMutablePointer<UInt8>
    private let bufferCapacity: Int
    private var buffered = 0
    private var failure: PayloadError?
    private var isClosed = false
    /// Set for a `.gz` path: the deflater, and where its output goes before the file.
    private var deflater: UnsafeMutablePointer<z_stream>?
    private var compressed: UnsafeMutablePointer<UInt8>?
    private static let compressedChunk = 1 << 16

    /// Starts the partial file beside `path`; `path` itself is untouched until `close()`.
    init(path: String, bufferCapacity: Int) throws {
        let url = URL(fileURLWithPath: path)
        let partialPath = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).partial-\(getpid())").path
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw PayloadError(file: path, byteOffset: nil, path: nil, expected: .output(.filePath), found: "a directory")
        }
        guard let file = fopen(partialPath, "wbx") else {
            throw PayloadError(file: path, byteOffset: nil, path: nil, expected: .output(.writableFile), found: Self.systemError())
        }
        self.path = path
        self.partialPath = partialPath
        self.file = file
        self.bufferCapacity = max(bufferCapacity, 64)
        buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: self.bufferCapacity)
        guard path.hasSuffix(".gz") else { return }
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        guard czlib_deflate_init_gzip(stream, 6) == Z_OK else {
            stream.deallocate()
            fclose(file)
            unlink(partialPath)
            buffer.deallocate()
            throw PayloadError(file: path, byteOffset: nil, path: nil, expected: .gzipStream(.zlibCanStart), found: "zlib refused to start")
        }
        deflater = stream
        compressed = UnsafeMutablePointer<UInt8>.allocate(capacity: Self.compressedChunk)
    }

    deinit {
        if !isClosed {
            fclose(file)
            unlink(partialPath)
        }
        if let deflater {
            deflateEnd(deflater)
            deflater.deallocate()
        }
        compressed?.deallocate()
        buffer.deallocate()
    }

    @inline(__always)
    func append(_ byte: UInt8) {
        if buffered == bufferCapacity { flush() }
        buffer[buffered] = byte
        buffered += 1
        bytesWritten += 1
    }

    func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard var source = bytes.baseAddress else { return }
        var remaining = bytes.count
        bytesWritten += remaining
        while remaining > 0 {
            if buffered == bufferCapacity { flush() }
            let run = min(remaining, bufferCapacity - buffered)
            (buffer + buffered).update(from: source, count: run)
            buffered += run
            source += run
            remaining -= run
        }
    }

    func append(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Digits are produced backwards into a small stack buffer; Int.min's magnitude still fits UInt.
    func appendDecimal(_ value: Int) {
        var magnitude = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = digits.count
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if value < 0 { append(UInt8(ascii: "-")) }
            append(UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    /// A fixed-point number, `units / 10^fractionDigits`, every fraction digit written: exact and
    /// identical on every platform, which printing a Double is not guaranteed to be.
    func appendFixedPoint(_ units: Int, fractionDigits: Int) {
        guard fractionDigits > 0 else {
            appendDecimal(units)
            return
        }
        var divisor = 1
        for _ in 0..<fractionDigits { divisor *= 10 }
        if units < 0 { append(UInt8(ascii: "-")) }
        let magnitude = Int(units.magnitude)
        appendDecimal(magnitude / divisor)
        append(UInt8(ascii: "."))
        let fraction = magnitude % divisor
        var padding = divisor / 10
        while padding > 1 && fraction < padding {
            append(UInt8(ascii: "0"))
            padding /= 10
        }
        appendDecimal(fraction)
    }

    /// Flushes and closes the file, then gives it its final name; throws the first I/O error met
    /// since opening, and then removes the partial file instead.
    func close() throws {
        guard !isClosed else { return }
        flush()
        if deflater != nil, failure == nil { write(buffer, count: 0, finishing: true) }
        isClosed = true
        if fflush(file) != 0, failure == nil {
            failure = PayloadError(file: path, byteOffset: bytesWritten, path: nil, expected: .output(.write), found: Self.systemError())
        }
        if fclose(file) != 0, failure == nil {
            failure = PayloadError(file: path, byteOffset: bytesWritten, path: nil, expected: .output(.close), found: Self.systemError())
        }
        if failure == nil, rename(partialPath, path) != 0 {
            failure = PayloadError(file: path, byteOffset: nil, path: nil, expected: .output(.filePath), found: Self.systemError())
        }
        if let failure {
            unlink(partialPath)
            throw failure
        }
    }

    private func flush() {
        guard buffered > 0 else { return }
        defer { buffered = 0 }
        guard failure == nil, !isClosed else { return }
        write(buffer, count: buffered, finishing: false)
    }

    /// Hands `count` bytes to the file, through the deflater when there is one (`finishing` ends
    /// its stream: the gzip trailer).
    private func write(_ bytes: UnsafeMutablePointer<UInt8>, count: Int, finishing: Bool) {
        guard let deflater, let compressed else {
            if fwrite(bytes, 1, count, file) != count {
                failure = PayloadError(
                    file: path, byteOffset: bytesWritten - count, path: nil, expected: .output(.write), found: Self.systemError())
            }
            return
        }
        deflater.pointee.next_in = bytes
        deflater.pointee.avail_in = UInt32(count)
        repeat {
            deflater.pointee.next_out = compressed
            deflater.pointee.avail_out = UInt32(Self.compressedChunk)
            let code = deflate(deflater, finishing ? Z_FINISH : Z_NO_FLUSH)
            let produced = Self.compressedChunk - Int(deflater.pointee.avail_out)
            if produced > 0, fwrite(compressed, 1, produced, file) != produced {
                failure = PayloadError(file: path, byteOffset: bytesWritten, path: nil, expected: .output(.write), found: Self.systemError())
                return
            }
            if code == Z_STREAM_END { return }
            guard code == Z_OK || code == Z_BUF_ERROR else {
                failure = PayloadError(
                    file: path, byteOffset: bytesWritten, path: nil, expected: .gzipStream(.zlibCanWrite), found: "zlib error \(code)")
                return
            }
        } while finishing || deflater.pointee.avail_out == 0
    }

    private static func systemError() -> String { String(cString: strerror(errno)) }
}
