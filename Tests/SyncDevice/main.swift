// The sync tests' child process: one device (a store) that makes changes and syncs; its
// workload is filled in by the convergence and kill tests.
print("sync-device")
