// liblz4 (Debian: liblz4-dev): block compression with dictionaries for segment records.
#include <lz4.h>
#include <lz4hc.h>
