import ReceiptCore
/// Whether the app was first obtained before a given version: the answer for an app that moved
/// from paid to free (or to subscriptions) and keeps what earlier buyers paid for.
///
/// See ``Receipt/purchasedBefore(version:)``.
public enum OriginalVersionAnswer: Sendable, Hashable, Codable {
    /// The original application version is lower than the given version.
    case purchasedBefore
    /// The original application version is the given version or higher.
    case purchasedAtOrAfter
    /// The receipt can not answer; the reason says why.
    case undetermined(Undetermined)

    /// Why a receipt can not say which version was first obtained.
    public enum Undetermined: Sendable, Hashable, Codable {
        /// A sandbox receipt: its original application version is always `1.0`.
        case sandbox
        /// An Xcode StoreKit-testing receipt: it has no meaningful original application version.
        case xcode
        /// The receipt has no original application version (attribute 19).
        case noOriginalApplicationVersion
        /// A version is not dotted numbers (`1`, `2.5`, `31.12.1`); the text is the offending one.
        case notDottedNumeric(String)
    }
}

extension Receipt {
    /// Whether the user first obtained the app before `version`, by the receipt's original
    /// application version (attribute 19).
    ///
    /// Pass the version in the platform's own terms: on iOS, iPadOS, tvOS, watchOS and visionOS
    /// the original application version is the `CFBundleVersion` (build number) of the version
    /// first obtained; on macOS it is the `CFBundleShortVersionString` (marketing version).
    /// Versions compare as dotted numbers, component by component, missing components being
    /// zero (`1.0` equals `1`, `1.10` is after `1.9`). Sandbox receipts always say `1.0` and Xcode
    /// receipts say nothing useful, so both are ``OriginalVersionAnswer/undetermined(_:)``:
    /// test the migration path with a production receipt or by injecting the version.
    public func purchasedBefore(version: String) -> OriginalVersionAnswer {
        switch environment {
        case .productionSandbox: return .undetermined(.sandbox)
        case .xcode: return .undetermined(.xcode)
        default: break
        }
        guard let original = originalApplicationVersion else { return .undetermined(.noOriginalApplicationVersion) }
        guard let originalComponents = DottedVersion.components(of: original) else {
            return .undetermined(.notDottedNumeric(original))
        }
        guard let givenComponents = DottedVersion.components(of: version) else {
            return .undetermined(.notDottedNumeric(version))
        }
        return DottedVersion.isLess(originalComponents, than: givenComponents) ? .purchasedBefore : .purchasedAtOrAfter
    }
}

/// Dotted numeric versions such as `31.12.1`.
enum DottedVersion {
    /// The numbers of `text`, or nil unless it is one or more ASCII digit runs (at most 18 digits
    /// each, so they fit an `Int`) separated by single dots.
    static func components(of text: String) -> [Int]? {
        var components: [Int] = []
        for part in text.split(separator: ".", omittingEmptySubsequences: false) {
            guard !part.isEmpty, part.utf8.count <= 18, part.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                  let value = Int(part)
            else { return nil }
            components.append(value)
        }
        return components
    }

    /// Whether `lhs` is lower than `rhs`, missing components counting as zero.
    static func isLess(_ lhs: [Int], than rhs: [Int]) -> Bool {
        for index in 0..<max(lhs.count, rhs.count) {
            let left = index < lhs.count ? lhs[index] : 0
            let right = index < rhs.count ? rhs[index] : 0
            if left != right { return left < right }
        }
        return false
    }
}
