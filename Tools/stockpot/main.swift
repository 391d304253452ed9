// The `stockpot` executable: hands its arguments to StockpotTools and exits with the status
// the command returns. All behaviour lives in StockpotTools.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import StockpotTools

exit(StockpotCommand.main(Array(CommandLine.arguments.dropFirst())).rawValue)
