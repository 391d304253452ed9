// The sync tests' child process: one device running DeviceWorkload against a store and a
// server, printing each event as a JSON line (flushed at once, so that a test that kills it
// knows every write it acknowledged).
//
// SyncDevice STORE SERVER DEVICE SEED ROUNDS WRITES POLICY KEYS [FIRST-COUNTER]

import Foundation
import SyncWorkload

let arguments = CommandLine.arguments
guard arguments.count >= 9, let device = Int(arguments[3]), let seed = UInt64(arguments[4]), let rounds = Int(arguments[5]),
    let writes = Int(arguments[6]), let keyCount = Int(arguments[8])
else {
    FileHandle.standardError.write("usage: SyncDevice STORE SERVER DEVICE SEED ROUNDS WRITES POLICY KEYS [FIRST-COUNTER]\n".data(using: .utf8)!)
    exit(64)
}
let workload = DeviceWorkload(
    storePath: arguments[1], server: arguments[2], device: device, seed: seed, rounds: rounds, writesPerRound: writes,
    keys: DeviceWorkload.keyPool(keyCount), policy: arguments[7])
do {
    let store = try workload.openStore()
    try await workload.run(store, firstCounter: arguments.count > 9 ? Int64(arguments[9]) ?? 0 : 0) { event in
        // One write(2) per event: nothing is held in a buffer when the process is killed.
        FileHandle.standardOutput.write((event.line + "\n").data(using: .utf8)!)
    }
    try store.close()
} catch {
    FileHandle.standardError.write("SyncDevice: \(error)\n".data(using: .utf8)!)
    exit(1)
}
