import CSQLite

final class TraceBox {
    let handler: (String) -> Void
    init(_ handler: @escaping (String) -> Void) { self.handler = handler }
}

extension StoreConnection {
    /// Calls `handler` with the SQL of every statement SQLite starts, as `sqlite3_trace_v2` reports it.
    /// An independent witness for the counters; trigger bodies arrive as text starting with `--`.
    package func traceStatements(_ handler: @escaping (String) -> Void) {
        let box = TraceBox(handler)
        traceBox = box
        let context = Unmanaged.passUnretained(box).toOpaque()
        sqlite3_trace_v2(
            handle, UInt32(SQLITE_TRACE_STMT),
            { _, context, statement, _ in
                guard let context, let statement else { return 0 }
                let box = Unmanaged<TraceBox>.fromOpaque(context).takeUnretainedValue()
                let stmt = OpaquePointer(statement)
                if let expanded = sqlite3_sql(stmt) {
                    box.handler(String(cString: expanded))
                }
                return 0
            }, context)
    }

    /// Stops tracing.
    package func stopTracing() {
        sqlite3_trace_v2(handle, 0, nil, nil)
        traceBox = nil
    }
}
