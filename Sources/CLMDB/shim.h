// The LMDB C API, from Debian's liblmdb-dev. Only the StrideStore module imports this.
#include <lmdb.h>
#include <sys/types.h>

// Linux's fallocate(2), which glibc declares only under _GNU_SOURCE (Swift's Glibc module
// does not define it): the store reserves disk blocks ahead of the log's commits.
#define STRIDE_FALLOC_FL_KEEP_SIZE 0x01
extern int fallocate(int fd, int mode, off_t offset, off_t len);
