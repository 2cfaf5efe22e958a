/// Counts every statement execution on one connection. Shared by its statements, so it is a class;
/// it is confined to the connection's thread like the connection itself.
public final class StatementCounter {
    public private(set) var counts = StatementCounts()

    init() {}

    @inline(__always)
    func recordExecution(of kind: StatementKind) {
        counts[kind] += 1
    }

    @inline(__always)
    func recordVMSteps(_ steps: Int32) {
        counts.vmSteps += Int64(steps)
    }

    func recordCommit() {
        counts.transactions += 1
    }
}
