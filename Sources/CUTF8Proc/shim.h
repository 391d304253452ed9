// libutf8proc (Debian: libutf8proc-dev): Unicode categories, case folding and diacritic
// stripping for the full-text tokenizer.
#include <utf8proc.h>
