/// Work the benchmark does before or beside the imports failed (generating the payload, working out
/// the expected content in its scratch store, replaying the C reference): which step, where, why,
/// and that no import wrote anything because of it.
package struct PreparationError: Error, CustomStringConvertible {
    package let step: String
    package let directory: String
    package let cause: String

    package var description: String {
        "\(step) in \(directory) failed: \(cause). No store was written by this step; the temporary files are removed"
    }

    /// Runs `body`, turning a failure that is not the payload's (a full disk, an I/O error) into this type.
    static func during<T>(_ step: String, in directory: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error where error is PayloadError || error is ImportError || error is Interrupted || error is RunRequestError {
            throw error
        } catch {
            throw PreparationError(step: step, directory: directory, cause: String(describing: error))
        }
    }
}
