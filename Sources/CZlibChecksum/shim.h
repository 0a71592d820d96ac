// zlib's CRC-32 (Debian's zlib1g-dev), for checking an export inflated from its zip.
// ZIPFoundation checks it with a table in Swift on Linux (its `canImport(zlib)` is false
// there), which took a third of reading a zipped export; zlib's is several times faster.
#include <zlib.h>
