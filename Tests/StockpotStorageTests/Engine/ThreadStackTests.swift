// ThreadStack (StockpotCore): the stack depth the recursive parsers measure is on the calling
// thread's real stack, under AddressSanitizer too (`make sanitize-address`), whose
// use-after-return check keeps locals whose address is taken on a fake stack elsewhere.

import StockpotCore
import Testing

@Suite struct ThreadStackTests {
    @Test func theCurrentAddressIsOnTheThreadsOwnStack() throws {
        let low = try #require(ThreadStack.lowestAddress())
        let here = ThreadStack.currentAddress()
        #expect(here > low, "\(here) is below the stack's lowest address \(low)")
        #expect(here - low < 64 << 20, "\(here) is not within 64 MiB above the stack's lowest address \(low)")
    }

    @Test func theAddressGoesDownAsCallsNest() {
        let outer = ThreadStack.currentAddress()
        let inner = Self.addressNested(levels: 20)
        // Each level holds a frame of its own: 20 of them lie below the caller's frame.
        #expect(inner < outer)
        #expect(outer - inner >= 20 * 16, "20 nested calls used \(outer - inner) bytes of stack")
    }

    @inline(never)
    private static func addressNested(levels: Int) -> UInt {
        var padding = (levels, levels &* 3)
        return withUnsafeMutablePointer(to: &padding) { pointer in
            levels == 0 ? ThreadStack.currentAddress() : addressNested(levels: pointer.pointee.0 - 1)
        }
    }
}
