/// The package's version: the one place that states it. The `receipt` CLI's `--version` prints
/// it, and the tests check that CHANGELOG.md's newest release is this version.
public enum ReceiptKitVersion {
    /// The semantic version of this release, e.g. `0.1.0`.
    public static let current = "0.1.0"
}
