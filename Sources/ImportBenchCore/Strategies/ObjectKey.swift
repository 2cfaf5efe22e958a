import ImportBenchStore

/// An object's identity across entities: (entity index, natural key).
struct ObjectKey: Hashable {
    let entity: Int
    let key: DatabaseValue
}
