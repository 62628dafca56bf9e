import ArgumentParser

/// The tool's options that take one value (`--bundle-id`, `--at`, `--backend`, …) are parsed as
/// lists and checked here: ArgumentParser keeps the last value of a repeated single-valued option
/// without a word, so `receipt verify --bundle-id com.a --bundle-id com.b` would check `com.b`
/// alone, and a script that appends a second `--bundle-id` would silently replace its first.
/// A second value is a usage error naming the option instead.
///
/// Each command that has such options gives its usage line itself (`CommandConfiguration.usage`),
/// because ArgumentParser shows a list option as repeatable (`[--bundle-id <id> ...]`);
/// `HelpTests` holds every usage line to the options the help lists.
enum SingleValuedOption {
    /// The one value of `option` given as `values`, or nil when it was not given.
    /// - Throws: `ValidationError` when it was given more than once.
    static func value<Value>(_ values: [Value], _ option: String) throws -> Value? {
        guard values.count <= 1 else {
            throw ValidationError("\(option) can be given once, not \(values.count) times")
        }
        return values.first
    }
}
