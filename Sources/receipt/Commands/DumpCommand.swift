import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ReceiptKit

/// `receipt dump FILE`: show what a receipt contains WITHOUT verifying it.
struct DumpCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dump",
        abstract: "Show a receipt's container and every attribute, WITHOUT verifying anything.",
        discussion: """
            Reads the PKCS #7 container (DER or BER) and parses the receipt payload without checking \
            the signature or the certificate chain. The output is marked UNVERIFIED: anyone can \
            forge what it shows. Use `receipt verify` to decide anything.

            Shows the encoding (DER or BER), the digest algorithm, the embedded certificates \
            (subject, validity) and every receipt attribute; attributes ReceiptKit has no name for \
            are listed raw (type, version, hex).

            A compact JWS (a StoreKit 2 transaction or renewal info, an App Store Server \
            Notification, an app transaction; detected by content) shows its header, a summary of \
            its x5c certificates and its payload, equally unverified.

            Exit status: 0 the payload was parsed, 1 it is not a receipt, 2 usage error, 3 the file \
            could not be read or the output could not be written.

            Examples:
              receipt dump app.receipt
              receipt dump --json app.receipt | jq .receipt.in_app
              base64 -w0 app.receipt | receipt dump -
              receipt dump transaction.jws
            """
    )

    @Argument(help: ArgumentHelp("The receipt file (DER or base64) or JWS file, or - for standard input.", valueName: "file"))
    var file: String

    @Flag(help: "Print JSON.")
    var json = false

    func run() throws {
        let input = ReceiptInput.single(file)
        if let token = TokenDump.tokenBytes(of: input) {
            let dump = TokenDump(token, label: input.label)
            if json {
                try StandardOutput.writeLine(JSONText.encode(TokenDumpJSON(dump), compact: false))
            } else {
                try StandardOutput.write(dump.humanText)
            }
            if dump.status != .valid { throw ExitStatus.invalid.exitCode }
            return
        }
        let dump = ReceiptDump(input)
        if json {
            try StandardOutput.writeLine(JSONByteWriter.text(pretty: true) { $0.dump(dump) })
        } else {
            try StandardOutput.write(dump.humanText)
        }
        switch dump.status {
        case .valid: return
        case .invalid: throw ExitStatus.invalid.exitCode
        case .unreadable: throw ExitStatus.unreadable.exitCode
        }
    }
}
