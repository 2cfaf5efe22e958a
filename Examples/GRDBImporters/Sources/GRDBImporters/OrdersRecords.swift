import GRDB
import ImportBench

// The orders feed of Scenarios/examples/orders (a payload read through its mapping.yml), as a shop
// app declares its tables: snake_case columns, as the mapping names them.

/// An orders record: columns in snake_case.
protocol OrdersRecord: ImportedRecord {}

extension OrdersRecord {
    static var databaseColumnDecodingStrategy: DatabaseColumnDecodingStrategy { .convertFromSnakeCase }
    static var databaseColumnEncodingStrategy: DatabaseColumnEncodingStrategy { .convertToSnakeCase }
}

struct Customer: OrdersRecord {
    static let databaseTableName = "customer"
    static let keyColumn = "email"
    static let payloadColumns = ["name", "tier"]

    var naturalKey: String { email }

    var pk: Int64?
    var email: String
    var name: String?
    var tier: String?
    var importGeneration: Int64 = 0

    init(_ occurrence: BatchOccurrence, foreignKeys: [Int64?]) {
        email = occurrence.key.string ?? ""
        name = occurrence.attributes[0].string
        tier = occurrence.attributes[1].string
    }
}

struct OrderedProduct: OrdersRecord {
    static let databaseTableName = "product"
    static let keyColumn = "sku"
    static let payloadColumns = ["title", "price"]

    var naturalKey: String { sku }

    var pk: Int64?
    var sku: String
    var title: String?
    var price: Double?
    var importGeneration: Int64 = 0

    init(_ occurrence: BatchOccurrence, foreignKeys: [Int64?]) {
        sku = occurrence.key.string ?? ""
        title = occurrence.attributes[0].string
        price = occurrence.attributes[1].double
    }
}

struct Tag: OrdersRecord {
    static let databaseTableName = "tag"
    static let keyColumn = "slug"
    static let payloadColumns: [String] = []

    var naturalKey: String { slug }

    var pk: Int64?
    var slug: String
    var importGeneration: Int64 = 0

    init(_ occurrence: BatchOccurrence, foreignKeys: [Int64?]) {
        slug = occurrence.key.string ?? ""
    }
}

struct Order: OrdersRecord {
    static let databaseTableName = "order"
    static let keyColumn = "id"
    static let payloadColumns = ["placed_at", "status", "total", "currency", "customer_pk", "replaces_pk"]

    var naturalKey: String { id }

    var pk: Int64?
    var id: String
    var placedAt: String?
    var status: String?
    var total: Double?
    var currency: String?
    var customerPk: Int64?
    var replacesPk: Int64?
    var importGeneration: Int64 = 0
    var importListed: Int64?

    init(_ occurrence: BatchOccurrence, foreignKeys: [Int64?]) {
        let values = occurrence.attributes
        id = occurrence.key.string ?? ""
        placedAt = values[0].string
        status = values[1].string
        total = values[2].double
        currency = values[3].string
        customerPk = foreignKeys[0]
        replacesPk = foreignKeys[1]
    }
}

struct OrderLine: OrdersRecord {
    static let databaseTableName = "line"
    static let keyColumn = "key"
    static let payloadColumns = ["quantity", "unit_price", "order_pk", "product_pk"]

    var naturalKey: String { key }

    var pk: Int64?
    var key: String
    var quantity: Int64?
    var unitPrice: Double?
    var orderPk: Int64?
    var productPk: Int64?
    var importGeneration: Int64 = 0

    init(_ occurrence: BatchOccurrence, foreignKeys: [Int64?]) {
        key = occurrence.key.string ?? ""
        quantity = occurrence.attributes[0].int64
        unitPrice = occurrence.attributes[1].double
        orderPk = foreignKeys[0]
        productPk = foreignKeys[1]
    }
}
