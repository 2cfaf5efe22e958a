import GRDB
import ImportBench

// The products scenario's one table (Scenarios/products/README.md), as a catalogue app declares it:
// its columns are the feed's camelCase names, so the record names them one by one.

struct Product: ImportedRecord {
    static let databaseTableName = "product"
    static let keyColumn = "serialCode"
    static let payloadColumns = ["name", "brand", "category", "price", "currency", "stock", "active", "updatedAt", "description"]

    var naturalKey: String { serialCode }

    var pk: Int64?
    var serialCode: String
    var name: String?
    var brand: String?
    var category: String?
    var price: Double?
    var currency: String?
    var stock: Int64?
    var active: Bool?
    var updatedAt: String?
    var details: String?
    var importGeneration: Int64 = 0

    enum CodingKeys: String, CodingKey {
        case pk, serialCode, name, brand, category, price, currency, stock, active, updatedAt
        case details = "description"
        case importGeneration = "import_generation"
    }

    init(_ occurrence: BatchOccurrence, foreignKeys: [Int64?]) {
        let values = occurrence.attributes
        serialCode = occurrence.key.string ?? ""
        name = values[0].string
        brand = values[1].string
        category = values[2].string
        price = values[3].double
        currency = values[4].string
        stock = values[5].int64
        active = values[6].bool
        updatedAt = values[7].string
        details = values[8].string
    }
}
