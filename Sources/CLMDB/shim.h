// The LMDB C API, from Debian's liblmdb-dev. Only the StrideStore module imports this.
#include <lmdb.h>
