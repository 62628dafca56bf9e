/// The receipt files of one directory, in listing order, each made into its ``ReceiptInput``
/// only when it is read.
///
/// The names lie one after another in one buffer (``DirectoryListing/PlainNames``), so a
/// directory of 20,000 files is two arrays rather than 20,000 paths: the listing, which runs
/// before the first receipt is verified, makes no path at all; the worker that verifies a file
/// makes its path (one `String`) and drops it. A class: the inputs are read through one reference.
final class DirectoryFiles: Sendable {
    /// The directory, as named on the command line.
    let directory: InputPath
    /// The directory's label and a `/` (unless the label ends with one), as UTF-8.
    private let labelPrefix: [UInt8]
    /// The directory's bytes and a `/` (unless they end with one).
    private let bytePrefix: [UInt8]
    /// The plain names.
    private let plain: DirectoryListing.PlainNames
    /// The names that are not plain.
    private let others: [DirectoryListing.Name]
    /// Every name, in listing order.
    private let order: [DirectoryListing.Listed]

    /// The files named `plain` and `others` inside `directory`, whose paths begin with
    /// `labelPrefix` (shown) and `bytePrefix` (opened).
    init(directory: InputPath, labelPrefix: String, bytePrefix: [UInt8], plain: DirectoryListing.PlainNames, others: [DirectoryListing.Name]) {
        self.directory = directory
        self.labelPrefix = Array(labelPrefix.utf8)
        self.bytePrefix = bytePrefix
        self.plain = plain
        self.others = others
        order = DirectoryListing.sorted(plain, others: others)
    }

    /// How many files there are.
    var count: Int { order.count }

    /// The file at `position` (0 ..< ``count``) in listing order.
    subscript(position: Int) -> ReceiptInput {
        let path: InputPath
        switch order[position] {
        case .plain(let range):
            let name = plain.bytes[range]
            if directory.isShownAsItIs {
                // The path is its label: the prefix's bytes and the name's, in one allocation.
                let prefix = labelPrefix
                path = InputPath(plain: String(unsafeUninitializedCapacity: prefix.count + name.count) { label in
                    _ = label.initialize(fromContentsOf: prefix)
                    _ = label[prefix.count...].initialize(fromContentsOf: name)
                    return prefix.count + name.count
                })
            } else {
                path = InputPath(bytes: bytePrefix + name)
            }
        case .other(let index):
            path = DirectoryListing.path(
                others[index], directory: directory, labelPrefix: String(decoding: labelPrefix, as: UTF8.self), bytePrefix: bytePrefix)
        }
        return ReceiptInput(label: path.label, source: .file(path))
    }
}
