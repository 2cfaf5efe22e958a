/// Where building a seed store spends its time, in seconds: the phases a user can trade against each other.
package struct SeedStoreBuildTimes: Sendable, Equatable {
    /// Creating the tables and inserting the payload's unique objects (decoding included).
    package var load = 0.0
    /// Building the secondary indexes over the filled tables.
    package var indexes = 0.0
    package var vacuum = 0.0
    package var analyze = 0.0
    /// Everything, from opening the staging file to renaming it into place.
    package var total = 0.0

    package init() {}
}
