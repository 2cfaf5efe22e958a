/// Counts every statement execution on one connection. Shared by its statements, so it is a class;
/// it is confined to the connection's thread like the connection itself.
package final class StatementCounter {
    /// Behind a pointer: a class's stored `var` costs a runtime exclusivity check on every access,
    /// two per statement execution in the import loop.
    private let storage: UnsafeMutablePointer<StatementCounts>

    package var counts: StatementCounts { storage.pointee }

    init() {
        storage = .allocate(capacity: 1)
        storage.initialize(to: StatementCounts())
    }

    deinit {
        storage.deinitialize(count: 1)
        storage.deallocate()
    }

    @inline(__always)
    func recordExecution(of kind: StatementKind) {
        storage.pointee[kind] += 1
    }

    @inline(__always)
    func recordVMSteps(_ steps: Int32) {
        storage.pointee.vmSteps += Int64(steps)
    }

    func recordCommit() {
        storage.pointee.transactions += 1
    }
}
