// File names are built and parsed in one place (FileNames.swift; docs/format/segment.md "Name").

import Testing

@testable import StockpotStorage

@Suite struct FileNamesTests {
    @Test func namesAreTwelveZeroPaddedDigitsAndAnExtension() {
        #expect(FileNames.name(.segment, 7) == "000000000007.seg")
        #expect(FileNames.name(.hint, 7) == "000000000007.hint")
        #expect(FileNames.name(.blob, 123_456) == "000000123456.blob")
        #expect(FileNames.name(.dictionary, 1) == "000000000001.dict")
        #expect(FileNames.name(.snapshot, 999_999_999_999) == "999999999999.snap")
        #expect(FileNames.temporary(FileNames.name(.blob, 9)) == "000000000009.blob.tmp")
        #expect(FileNames.temporary(FileNames.manifest) == "MANIFEST.tmp")
    }

    @Test(arguments: FileKind.allCases)
    func namesRoundTrip(_ kind: FileKind) throws {
        for number in [1, 7, 10, 4_294_967_296, 999_999_999_999] as [UInt64] {
            let name = FileNames.name(kind, number)
            let parsed = try #require(FileNames.parse(name))
            #expect(parsed.kind == kind && parsed.number == number && !parsed.temporary)
            let temporary = try #require(FileNames.parse(FileNames.temporary(name)))
            #expect(temporary.kind == kind && temporary.number == number && temporary.temporary)
        }
    }

    @Test func namesSortInNumberOrder() {
        let numbers: [UInt64] = [1, 9, 10, 99, 100, 12_345, 999_999_999_999]
        let names = numbers.map { FileNames.name(.segment, $0) }
        #expect(names.sorted() == names)
    }

    @Test func temporaryNameParsesAsTemporary() throws {
        let parsed = try #require(FileNames.parse("000000000001.seg.tmp"))
        #expect(parsed.kind == .segment && parsed.number == 1 && parsed.temporary)
    }

    @Test(arguments: [
        "MANIFEST", "MANIFEST.tmp", "LOCK", "x.seg", "12.seg", "0000000000001.seg", "00000000001.seg",
        "000000000000.seg", "000000000001.SEG", "000000000001.log", "000000000001.seg.bak",
        "000000000001.tmp", "000000000001", "000000000001.", "000000000001seg", "00000000000a.seg",
        "+00000000001.seg", "-00000000001.seg", " 00000000001.seg", "000000000001.seg ",
        "000000000001.seg.tmp.tmp", "000000000001..seg", "", ".tmp", "000000000001.seg/",
        "٠٠٠٠٠٠٠٠٠٠٠١.seg",
    ])
    func foreignNamesAreRejected(_ name: String) {
        #expect(FileNames.parse(name) == nil)
    }
}
