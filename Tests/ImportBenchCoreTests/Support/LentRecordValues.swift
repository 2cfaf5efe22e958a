import ImportBenchStore

@testable import ImportBenchCore
@testable import ImportBenchPayload

/// Runs `body` with `values` as a batch would hold them: text lent from one buffer that lives until
/// `body` returns.
func withLentRecordValues<T>(_ values: [StoreValue], _ body: ([RecordValue]) throws -> T) rethrows -> T {
    var bytes: [UInt8] = []
    var ranges: [Range<Int>] = []
    for value in values {
        let start = bytes.count
        if case .text(let text) = value { bytes += text.utf8 }
        ranges.append(start..<bytes.count)
    }
    return try bytes.withUnsafeBytes { buffer in
        let lent = values.indices.map { index -> RecordValue in
            switch values[index] {
            case .null: .null
            case .integer(let integer): .integer(integer)
            case .real(let real): .real(real)
            case .text: .text(LentText(UnsafeRawBufferPointer(rebasing: buffer[ranges[index]])))
            }
        }
        return try body(lent)
    }
}
