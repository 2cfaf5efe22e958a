import ArgumentParser

/// A command whose arguments are checked against the lower layers (a mapping loaded, a preload or
/// `--pragma` parsed, the runs planned) once they are parsed and validated, before it runs. What
/// those layers throw keeps its type and values: `BenchCommand` makes it a usage error (exit 64,
/// `CommandFailure.usage`) without flattening it into a `ValidationError`'s string, which
/// `validate()` would need (ArgumentParser gives any other error thrown there exit 1).
protocol CheckedCommand {
    /// Throws the lower layer's error for arguments it refuses.
    func check() throws
}
