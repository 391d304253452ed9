// `stockpot sync init-server`: the server tables of the soups, and a device role's grants.

import StockpotSync

extension SyncCommand {
    func runInitServer() throws(ToolFailure) -> ExitCode {
        do throws(SyncError) {
            try StoreSync.initializeServer(server ?? "", soups: soups, deviceRole: deviceRole)
        } catch {
            throw Self.failure(error)
        }
        let role = deviceRole.map { "; role \($0) may sync them" } ?? ""
        StandardStream.output.write(
            "initialized \(soups.count) soup\(soups.count == 1 ? "" : "s") on \(ConnectionString.redacted(server ?? ""))\(role)\n")
        return .success
    }
}
