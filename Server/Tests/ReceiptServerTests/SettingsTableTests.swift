import Foundation
import ReceiptServer
import Testing

/// ``ServerSetting/all`` is the one table of settings: Server/README.md's table and `--help` say
/// what it says, and the variables read are the ones it names.
@Suite struct SettingsTableTests {
    /// Server/README.md's settings table, row by row.
    private static func readmeRows() throws -> [String] {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let header = try #require(lines.firstIndex(of: "| flag | variable | default | |"), "the README has no settings table")
        return Array(lines[(header + 2)...].prefix { $0.hasPrefix("|") })
    }

    @Test func theReadmeTableIsTheSettingsTable() throws {
        let rows = try Self.readmeRows()
        let expected = ServerSetting.all.map(\.readmeRow)
        #expect(rows.count == expected.count, "README rows: \(rows.count), settings: \(expected.count)")
        for (row, wanted) in zip(rows, expected) {
            #expect(row == wanted)
        }
    }

    @Test func everySettingHasItsOwnFlagAndVariable() {
        let flags = ServerSetting.all.map(\.flag)
        let variables = ServerSetting.all.map(\.variable)
        #expect(Set(flags).count == flags.count)
        #expect(Set(variables).count == variables.count)
        #expect(ServerSetting.named("max-body-size")?.variable == "RECEIPT_SERVER_MAX_BODY_SIZE")
        for setting in ServerSetting.all {
            // Every variable in the table is read: accepted rather than refused as unknown.
            #expect((try? ServerEnvironment([setting.variable: "x"])) != nil, "\(setting.variable)")
        }
    }

    /// `receipt-server --help` names every setting's flag and variable, from the table.
    @Test(.timeLimit(.minutes(1)))
    func helpNamesEverySetting() async throws {
        let server = try ServerProcess(["--help"])
        #expect(try await server.exitStatus(within: 20) == 0, "\(server.log)")
        for setting in ServerSetting.all {
            #expect(server.log.contains(setting.flag), "\(setting.flag)")
            #expect(server.log.contains(setting.variable), "\(setting.variable)")
        }
        try await server.stop()
    }
}
