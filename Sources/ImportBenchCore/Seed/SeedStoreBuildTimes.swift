/// Where building a seed store spends its time, in seconds: the phases a user can trade against each other.
public struct SeedStoreBuildTimes: Sendable, Equatable {
    /// Creating the tables and inserting the payload's unique objects (decoding included).
    public var load = 0.0
    /// Building the secondary indexes over the filled tables.
    public var indexes = 0.0
    public var vacuum = 0.0
    public var analyze = 0.0
    /// Everything, from opening the staging file to renaming it into place.
    public var total = 0.0

    public init() {}
}
