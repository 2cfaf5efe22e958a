import Testing

@testable import ImportBenchCore
@testable import ImportBenchPayload

@Suite("JSON byte masks")
struct JSONBytesTests {
    /// A mask and the bytes it looks for.
    struct Mask: CustomTestStringConvertible, Sendable {
        let name: String
        let targets: Set<UInt8>
        let mask: @Sendable (UInt64) -> UInt64
        var testDescription: String { name }
    }

    static let masks = [
        Mask(name: "quote or backslash", targets: [.quote, .backslash]) { JSONBytes.quoteOrBackslashMask($0) },
        Mask(name: "quote or bracket", targets: [.quote, .openBrace, .closeBrace, .openBracket, .closeBracket]) {
            JSONBytes.quoteOrBracketMask($0)
        },
    ]

    /// The splitter jumps straight to a mask's lowest set bit, so it must be the first byte sought:
    /// every byte value at every position, after bytes sought nowhere and before any bytes at all.
    @Test("a mask's lowest set bit is the first byte it looks for, or none is set", arguments: masks)
    func lowestSetBitIsExact(_ mask: Mask) {
        var random = SeededRandom(seed: 32)
        var wrong: [String] = []
        for position in 0..<8 {
            for byte in UInt8.min...UInt8.max {
                for _ in 0..<8 {
                    var bytes = (0..<8).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                    for before in 0..<position where mask.targets.contains(bytes[before]) { bytes[before] = UInt8(ascii: "a") }
                    bytes[position] = byte
                    let word = bytes.enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * $1.offset) }
                    let found = mask.mask(word)
                    let first = bytes.firstIndex { mask.targets.contains($0) }
                    let reported = found == 0 ? nil : found.trailingZeroBitCount / 8
                    if reported != first { wrong.append("\(bytes): \(String(describing: reported)) for \(String(describing: first))") }
                }
            }
        }
        #expect(wrong.count == 0, "first of them: \(wrong.prefix(5))")
    }
}
