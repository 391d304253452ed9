// Loading a fixture is not timed, but what it leaves dirty in the page cache is written back by
// the kernel seconds later, possibly in the middle of whatever is timed then. Workloads that
// time reads after an untimed load call this first, for both sides alike. (It removes one
// source of noise, not the largest; the report's spreads over processes show the rest.)

import Glibc

enum QuietDisk {
    /// Writes back every dirty page of every file system (`sync(2)`) and returns when done, so
    /// that no writeback of earlier work runs during the timing that follows.
    static func settle() {
        sync()
    }
}
