import Foundation
import ReceiptCore
import Testing

@Suite struct DeviceIdentifierTests {
    @Test("UUID, MAC and hex text parse to the bytes that enter the GUID hash")
    func parsesEveryAcceptedForm() throws {
        #expect(try DeviceIdentifier(parsing: "956328D9-CC6A-47F4-BE40-6953FB0AB6C7").bytes.count == 16)
        #expect(try DeviceIdentifier(parsing: " 6c:40:08:b5:94:5e\n").bytes == [0x6c, 0x40, 0x08, 0xb5, 0x94, 0x5e])
        #expect(try DeviceIdentifier(parsing: "6c-40-08-b5-94-5e").bytes == [0x6c, 0x40, 0x08, 0xb5, 0x94, 0x5e])
        #expect(try DeviceIdentifier(parsing: "00ff").bytes == [0x00, 0xff])
    }

    @Test(
        "a mistyped identifier throws invalid_device_identifier instead of leaving the hash check off",
        arguments: ["", "   ", "956328D9-CC6A-47F4-BE40-6953FB0AB6CZ", "6c:40:08:b5:94", "abc", "not a device"]
    )
    func rejectsAnythingElse(_ text: String) {
        #expect(throws: ReceiptValidationError.self) { try DeviceIdentifier(parsing: text) }
        do {
            _ = try DeviceIdentifier(parsing: text)
        } catch {
            #expect(error.code == .invalidDeviceIdentifier)
            #expect(error.message.contains("'\(text)'"))
        }
    }
}
