// How much stack the calling thread has left, for the parsers that recurse on nested input:
// a budget counted from where a parse starts cannot know what the thread used before it.

import CThreadStack

/// The calling thread's stack bounds. Stateless.
package enum ThreadStack {
    /// The lowest address of the calling thread's stack (stacks grow down here), or nil when
    /// the system does not say. Costs a system call or two (on the main thread glibc reads
    /// /proc/self/maps): call it once per parse, not per level.
    package static func lowestAddress() -> UInt? {
        let low = stockpot_thread_stack_low()
        return low == 0 ? nil : UInt(low)
    }

    /// An address in the current frame: how deep the stack is now (the frame address, not a
    /// local's, which AddressSanitizer may keep on a fake stack elsewhere).
    @inline(__always)
    package static func currentAddress() -> UInt {
        UInt(stockpot_stack_address())
    }
}
