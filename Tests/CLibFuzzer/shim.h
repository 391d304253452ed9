// libFuzzer's driver entry point (compiler-rt's FuzzerInterface.h), declared for Swift. The
// symbol is linked only into a build with `-sanitize=fuzzer`; the fuzz driver calls it only then.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
