import ReceiptCore
import ReceiptEntitlements
/// Apple's `verifyReceipt` request body: `{"receipt-data": "…", "password": "…",
/// "exclude-old-transactions": true}`.
public struct AppleVerifyReceiptRequest: Hashable, Sendable {
    /// `receipt-data`: the base64 receipt; nil when missing (or `null`).
    public var receiptData: String? {
        get { receiptDataText?.string }
        set { receiptDataText = newValue.map(ReceiptDataText.init) }
    }
    /// `receipt-data` as its bytes (as read from a body: no `String` made of it).
    var receiptDataText: ReceiptDataText?
    /// `password`: the app's shared secret; nil when missing (or `null`).
    public var password: String?
    /// `exclude-old-transactions`: `true` keeps only the latest transaction of each subscription.
    public var excludesOldTransactions: Bool

    /// Creates a request.
    public init(receiptData: String?, password: String? = nil, excludesOldTransactions: Bool = false) {
        self.receiptDataText = receiptData.map(ReceiptDataText.init)
        self.password = password
        self.excludesOldTransactions = excludesOldTransactions
    }

    /// Reads a JSON body strictly: it must be one JSON object (RFC 8259, UTF-8) whose members
    /// have distinct names; `receipt-data` and `password` must be strings, and
    /// `exclude-old-transactions` a boolean (`null` counts as absent). Other members are ignored
    /// (but must be valid JSON). A member of the wrong type is refused rather than read as absent
    /// or false, and a repeated name rather than one of its values picked, because a proxy or
    /// another parser in front may read such a body otherwise.
    ///
    /// An endpoint reads a body with its validator's receipt size limit
    /// (``AppleVerifyReceiptEndpoint/request(parsing:)``); this reads it with the default one,
    /// ``ReceiptLoader/maximumReceiptSize``. The limit changes no answer: a `receipt-data` text
    /// beyond it is only kept undecoded, for the validator to refuse (or decode) as it would
    /// a request made from its `String`.
    ///
    /// - Throws: ``Refusal``: 21000 for a body that is not such an object (`not_json_object`,
    ///   `duplicate_member`, `wrong_member_type`), 21002 for a `receipt-data` string that is not
    ///   valid UTF-8 (`receipt_data_not_utf8`).
    public init(parsing body: some Collection<UInt8>) throws(Refusal) {
        try self.init(parsing: body, maximumReceiptSize: ReceiptLoader.maximumReceiptSize)
    }

    /// Reads a JSON body as ``init(parsing:)`` does, decoding a `receipt-data` text as it is read
    /// only when it is within the text limit of `maximumReceiptSize` (the validator's
    /// ``ReceiptValidator/Configuration/maximumReceiptSize``): a longer one is refused by the
    /// validator before it is decoded.
    init(parsing body: some Collection<UInt8>, maximumReceiptSize: Int) throws(Refusal) {
        let read: Result<AppleVerifyReceiptRequest, Refusal> =
            body.withContiguousStorageIfAvailable { AppleVerifyReceiptRequestReader.read($0, maximumReceiptSize: maximumReceiptSize) }
            ?? Array(body).withUnsafeBufferPointer { AppleVerifyReceiptRequestReader.read($0, maximumReceiptSize: maximumReceiptSize) }
        self = try read.get()
    }

    /// Reads a JSON body as ``init(parsing:)`` does; nil when it refuses the body.
    public init?(jsonBody body: some Collection<UInt8>) {
        guard let request = try? AppleVerifyReceiptRequest(parsing: body) else { return nil }
        self = request
    }

    /// Why a body is not a request: Apple's status, a ``AppleVerifyReceiptEndpoint/FailureCode``
    /// and a sentence naming the member at fault.
    public struct Refusal: Error, Hashable, Sendable, CustomStringConvertible {
        /// 21000 (the body) or 21002 (`receipt-data`).
        public var status: AppleVerifyReceiptStatus
        /// The `receiptkit` code.
        public var code: String
        /// What is wrong, for people.
        public var message: String

        /// Creates a refusal.
        public init(status: AppleVerifyReceiptStatus, code: String, message: String) {
            self.status = status
            self.code = code
            self.message = message
        }

        /// `code: message`.
        public var description: String { "\(code): \(message)" }
    }
}
