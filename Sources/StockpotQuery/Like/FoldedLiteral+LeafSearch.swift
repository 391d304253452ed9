// `%literal%` over a leaf's run of keys at once: when the keys' texts lie in slot order in the
// leaf's arena (as after a bulk build, a snapshot load or a compaction), one word-at-a-time
// search runs over all of them, and each hit is mapped forward to the key that holds it, or
// dropped when it starts between keys or runs past the end of one. No per-key call or setup.

import StockpotIndex

extension FoldedLiteral {
    /// The slots of `slots` whose text contains the literal, ignoring ASCII case, as bits (bit
    /// k for slot `slots.lowerBound + k`); nil when `slots` has more than 64 slots, or the
    /// texts are not all text laid out in slot order (or fill less than a word), for the caller
    /// to test key by key.
    ///
    /// Every key holding the literal is found: a search from a key's start meets the literal's
    /// first occurrence in it, and moves past a key only after a hit in it or after passing its
    /// end. Bytes between keys (dead text) yield hits that map to no key.
    func matchingSlots(in leaf: BorrowedIndexLeaf, _ slots: Range<Int>) -> UInt64? {
        guard slots.count <= 64, let text = leaf.textsInSlotOrder(slots), text.count >= 8 else { return nil }
        let length = bytes.count
        let end = text.count
        let last = end - length  // the last position a hit can start at
        var slot = slots.lowerBound
        var (slotStart, slotEnd) = leaf.textBounds(at: slot)
        var position = slotStart
        var found: UInt64 = 0
        search: while position <= last {
            // The word at `position` (most keys are passed by this branch alone, a few
            // instructions a word), or the text's last 8 bytes with the offsets before
            // `position` masked (as `occurs(in:)` does).
            let base: Int
            var candidates: UInt64
            if position &+ 8 <= end {
                base = position
                candidates = firstByteLanes(text, at: base)
                if candidates == 0 {
                    position = base &+ 8
                    continue search
                }
            } else {
                base = end &- 8
                candidates = firstByteLanes(text, at: base) & (~0 &<< UInt64(8 &* (position &- base)))
            }
            while candidates != 0 {
                let candidate = base &+ candidates.trailingZeroBitCount &>> 3
                if candidate > last { break search }
                if equalsAt(text, candidate) {
                    // Keys that end before the hit does hold neither it nor any later hit.
                    while slotEnd < candidate + length {
                        slot += 1
                        guard slot < slots.upperBound else { break search }
                        (slotStart, slotEnd) = leaf.textBounds(at: slot)
                    }
                    if slotStart <= candidate {
                        // A hit inside the key: it matches; go on from the next key's start.
                        found |= 1 &<< UInt64(slot - slots.lowerBound)
                        slot += 1
                        guard slot < slots.upperBound else { break search }
                        (slotStart, slotEnd) = leaf.textBounds(at: slot)
                    }
                    // Otherwise the hit starts before this key: no key holds it. Either way,
                    // no earlier key is left to find, so the search resumes at this key.
                    position = slotStart
                    continue search
                }
                candidates &= candidates &- 1
            }
            position = base + 8
        }
        return found
    }

    /// The high bit of each byte of the word at `offset` of `text` that may be the literal's
    /// first byte (ASCII case folded): every such byte is marked, and perhaps a byte above one,
    /// which the full comparison rejects.
    @inline(__always)
    private func firstByteLanes(_ text: UnsafeRawBufferPointer, at offset: Int) -> UInt64 {
        let word = (UInt64(littleEndian: text.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) | firstFold) ^ firstRepeated
        return (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
    }
}
