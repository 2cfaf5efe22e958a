import Foundation

/// Quotes an identifier for SQL, so entity and attribute names may be keywords (`type`, `text`, `key`).
@inline(__always)
package func quoted(_ identifier: String) -> String {
    "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}
