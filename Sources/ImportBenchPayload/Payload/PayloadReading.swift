/// How a payload is read, whatever its scenario: what a record that cannot be read does, how much
/// the reader may hold at once, and, when the caller wants the payload's identity, the hasher that
/// sees every byte read.
package struct PayloadReading {
    package var onError: PayloadErrorPolicy
    package var limits: PayloadLimits
    package var hasher: PayloadHasher?
    /// How a CSV payload's bytes are text (JSON is always UTF-8).
    package var encoding: TextEncoding
    /// What `Scenario.openPayload` does with a key-only reference to an object neither stored nor
    /// met earlier in the payload.
    package var missingReference: MissingReferencePolicy
    /// The keys stored before the import (a refresh's preload), which such references may name.
    package var storedKeys: StoredKeys?

    package init(
        onError: PayloadErrorPolicy = .fail, limits: PayloadLimits = .default, hasher: PayloadHasher? = nil, encoding: TextEncoding = .utf8,
        missingReference: MissingReferencePolicy = .fail, storedKeys: StoredKeys? = nil
    ) {
        self.missingReference = missingReference
        self.storedKeys = storedKeys
        self.onError = onError
        self.limits = limits
        self.hasher = hasher
        self.encoding = encoding
    }

    /// The options that change what a payload reads as, as `bench` takes them on its command line
    /// (`--on-error skip --encoding latin-1`): a seed store records them, so a store read one way is
    /// not adopted as the same payload read another. The limits count only under `skip`, which leaves
    /// out what passes one; under `fail` nothing is read past a limit. `auto` is recorded as given.
    package func contentOptions(omittingDefaults: Bool = false) -> String {
        let defaults = PayloadReading()
        var options = [
            ("--on-error", onError.rawValue, defaults.onError.rawValue),
            ("--missing-reference", missingReference.rawValue, defaults.missingReference.rawValue),
            ("--encoding", encoding.rawValue, defaults.encoding.rawValue),
        ]
        if onError == .skip {
            options += Self.limitOptions.map { ($0.option, "\(limits[keyPath: $0.limit])", "\(defaults.limits[keyPath: $0.limit])") }
        }
        return options.filter { !omittingDefaults || $0.1 != $0.2 }.map { "\($0.0) \($0.1)" }.joined(separator: " ")
    }

    /// The reading `contentOptions()` wrote, so what a seed store recorded can be judged as the
    /// scenario reads now (a store recorded `--encoding latin-1` for JSON before that stopped
    /// counting); nil for text `contentOptions()` would not write.
    package init?(contentOptions: String) {
        self.init()
        let words = contentOptions.split(separator: " ").map(String.init)
        guard words.count % 2 == 0 else { return nil }
        for index in stride(from: 0, to: words.count, by: 2) {
            let (option, value) = (words[index], words[index + 1])
            switch option {
            case "--on-error":
                guard let policy = PayloadErrorPolicy(rawValue: value) else { return nil }
                onError = policy
            case "--missing-reference":
                guard let policy = MissingReferencePolicy(rawValue: value) else { return nil }
                missingReference = policy
            case "--encoding":
                guard let given = TextEncoding(rawValue: value) else { return nil }
                encoding = given
            default:
                guard let limit = Self.limitOptions.first(where: { $0.option == option })?.limit, let bytes = Int(value), bytes > 0 else {
                    return nil
                }
                limits[keyPath: limit] = bytes
            }
        }
    }

    private static var limitOptions: [(option: String, limit: WritableKeyPath<PayloadLimits, Int>)] {
        [
            (PayloadLimits.Option.csvRow, \.longestCSVRowBytes),
            (PayloadLimits.Option.jsonElement, \.longestJSONElementBytes),
            (PayloadLimits.Option.jsonString, \.longestJSONStringBytes),
            (PayloadLimits.Option.jsonNumber, \.longestJSONNumberBytes),
        ]
    }
}
