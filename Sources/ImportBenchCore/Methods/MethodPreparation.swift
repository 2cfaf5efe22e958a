import Foundation
import ImportBenchPayload

/// What a method is given to prepare with, once per benchmark (`MeasuredMethod.prepare`): the
/// payload every run reads, as the runs read it, and a directory that lives as long as the benchmark.
package struct MethodPreparation {
    package let scenario: any Scenario
    /// The payload's file, generated or recorded.
    package let payloadPath: String
    /// Where the payload came from: its generator's scale and seed, or a recorded file.
    package let payload: PayloadSource
    /// The run's reading options, as every run reads the payload.
    package let reading: PayloadReading
    /// The runs' store settings: a store made ahead for them is made with their page size.
    package let store: StoreSettings
    /// Removed with the benchmark's other temporary files.
    package let workDirectory: URL
    /// Says what is under way, for a front end's progress line.
    package let announce: (_ task: String) -> Void

    package init(
        scenario: any Scenario, payloadPath: String, payload: PayloadSource, reading: PayloadReading, store: StoreSettings = StoreSettings(),
        workDirectory: URL, announce: @escaping (_ task: String) -> Void = { _ in }
    ) {
        self.scenario = scenario
        self.payloadPath = payloadPath
        self.payload = payload
        self.reading = reading
        self.store = store
        self.workDirectory = workDirectory
        self.announce = announce
    }
}
