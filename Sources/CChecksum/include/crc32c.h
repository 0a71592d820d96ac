// CRC-32C (Castagnoli) for the per-event checksum: the SSE4.2 instruction where the CPU has
// it, a slicing-by-8 table elsewhere. Swift cannot reach the instruction itself.
#pragma once
#include <stddef.h>
#include <stdint.h>

// The CRC-32C of `count` bytes at `bytes` (initial value ~0, final xor ~0).
uint32_t stride_crc32c(const void *bytes, size_t count);

// Asks the CPU to start loading the first bytes at `address` into its cache (a hint: no
// effect on what the program computes). A scan calls it on the next event while it decodes
// the current one.
static inline void stride_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }
