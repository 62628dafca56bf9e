/// A direct reading of the plainest `receipt verify` command lines, which a batch run repeats.
///
/// ArgumentParser builds its view of a command by reflection and checks every argument for a
/// completion-script request first, which is a third of the tool's start (about 11 of 37 million
/// instructions for one receipt, `callgrind`), paid again by every process of a batch.
/// `parseDirectly(_:)` reads only what it can read exactly as ArgumentParser does and
/// returns `nil` for everything else (help, version, `=` forms, `--`, an option named twice,
/// a value that starts with `-`, an unknown word, a check that fails), which then takes the
/// full path with its own messages. `VerifyDirectParseTests` holds the two equal, field by field,
/// on every command line it generates.
extension VerifyCommand {
    /// The `verify` command `arguments` (the words after the tool's name) ask for, when they are
    /// plain enough to read without ArgumentParser and pass `validate()`; `nil` otherwise.
    static func parseDirectly(_ arguments: ArraySlice<String>) -> VerifyCommand? {
        guard arguments.first == "verify" else { return nil }
        var files: [String] = []
        var roots: [String] = []
        var xcode = false, json = false, ndjson = false
        var bundleID: String?, applicationVersion: String?, deviceID: String?, backend: String?
        var verificationTime: String?, format: String?
        var rest = arguments.dropFirst()
        /// The value after an option given once; `nil` (take the full path) when it is missing,
        /// starts with `-`, or the option was given before.
        func value(_ current: String?) -> String? {
            guard current == nil, let next = rest.popFirst(), !next.hasPrefix("-") else { return nil }
            return next
        }
        func once(_ flag: inout Bool) -> Bool {
            guard !flag else { return false }
            flag = true
            return true
        }
        while let word = rest.popFirst() {
            switch word {
            case "--root":
                guard let next = rest.popFirst(), !next.hasPrefix("-") else { return nil }
                roots.append(next)
            case "--xcode": guard once(&xcode) else { return nil }
            case "--json": guard once(&json) else { return nil }
            case "--ndjson": guard once(&ndjson) else { return nil }
            case "--bundle-id": guard let next = value(bundleID) else { return nil }; bundleID = next
            case "--app-version": guard let next = value(applicationVersion) else { return nil }; applicationVersion = next
            case "--device-id": guard let next = value(deviceID) else { return nil }; deviceID = next
            case "--backend": guard let next = value(backend) else { return nil }; backend = next
            case "--at": guard let next = value(verificationTime) else { return nil }; verificationTime = next
            case "--format": guard let next = value(format) else { return nil }; format = next
            default:
                // A file, or `-` for standard input; any other word starting with `-` is an option
                // (or a cluster of short ones) this reading does not know.
                guard word == "-" || (!word.hasPrefix("-") && !word.isEmpty) else { return nil }
                files.append(word)
            }
        }
        guard !files.isEmpty else { return nil }
        var command = VerifyCommand()
        command.files = files
        command.validation = ValidationOptions()
        command.validation.roots = roots
        command.validation.xcode = xcode
        command.validation.bundleID = bundleID
        command.validation.applicationVersion = applicationVersion
        command.validation.deviceID = deviceID
        command.validation.backend = backend
        command.verificationTime = verificationTime ?? "creation"
        command.json = json
        command.ndjson = ndjson
        command.format = format
        // ArgumentParser runs the option group's checks and the command's after parsing; a
        // failure is reported by the full path, with its usage text.
        guard (try? command.validation.validate()) != nil, (try? command.validate()) != nil else { return nil }
        return command
    }
}
