import Foundation
import Testing

@testable import ImportBenchCore
@testable import ImportBenchPayload

/// The fast decimal path must give strtod's Double, bit for bit, or decline.
@Suite("Decimal numbers")
struct DecimalNumberTests {
    private func fast(_ text: String) -> Double? {
        Array(text.utf8).withUnsafeBufferPointer { DecimalNumber.fastDouble($0) }
    }

    @Test(arguments: [
        "0", "-0", "0.0", "-0.0", "1", "-1", "0.1", "0.3", "12.34", "-273.15", "1e5", "1E5", "1e+5", "2.5e-3", "-7.25E-10",
        "123456789012345", "0.000000000000001", "900719925474.099", "1e22", "1e-22", "4.35", "179.99999", "0.1e1",
    ])
    func matchesStrtod(_ text: String) throws {
        let value = try #require(fast(text), "\(text) should take the fast path")
        let expected = try #require(Double(text))
        #expect(value.bitPattern == expected.bitPattern, "\(text): \(value) is not strtod's \(expected)")
    }

    /// Beyond exactness the fast path declines, and the caller's strtod decides.
    @Test(arguments: ["1234567890123456", "0.12345678901234567", "1e23", "1e-23", "5e-324", "1.7976931348623157e308", "1e400", "0e999"])
    func declinesWhatItCannotRoundExactly(_ text: String) {
        #expect(fast(text) == nil)
    }

    /// Random decimals of every length the fast path takes, with and without exponents.
    @Test func randomDecimalsMatchStrtodBitForBit() throws {
        var random = SeededRandom(seed: 0xDEC1_3A1)
        var taken = 0
        for _ in 0..<50_000 {
            let text = randomDecimal(&random)
            let expected = try #require(Double(text))
            guard let value = fast(text) else { continue }
            taken += 1
            #expect(value.bitPattern == expected.bitPattern, "\(text): \(value) is not strtod's \(expected)")
        }
        // Most of them are within the fast path's reach: a path that declines everything fails.
        #expect(taken > 25_000)
    }

    private func randomDecimal(_ random: inout SeededRandom) -> String {
        var text = random.chance(0.3) ? "-" : ""
        if random.nextInt(below: 10) == 0 {
            text += "0"
        } else {
            text += String(random.nextInt(in: 1...9))
            for _ in 0..<random.nextInt(in: 0...8) { text += String(random.nextInt(below: 10)) }
        }
        let fractionDigits = random.nextInt(in: 0...10)
        if fractionDigits > 0 {
            text += "."
            for _ in 0..<fractionDigits { text += String(random.nextInt(below: 10)) }
        }
        if random.chance(0.25) { text += (random.chance(0.5) ? "e" : "E") + (random.chance(0.5) ? "-" : "") + String(random.nextInt(in: 0...30)) }
        return text
    }
}
