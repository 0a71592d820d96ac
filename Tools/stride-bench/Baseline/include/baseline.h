// The raw LMDB limit: plain C-API loops over the same key and value sizes as Stride's log,
// so the benchmark can report Stride as a fraction of what LMDB itself does.
#pragma once
#include <stddef.h>

typedef struct {
    double seconds;  // wall time of the measured loop
    long count;      // records written or read
    int status;      // 0, or the LMDB / errno code that stopped the loop
} stride_baseline_result;

// Appends `count` records (8-byte ascending keys after any already stored, `value_size`-byte
// values) in transactions of `batch` records each, every commit durable.
stride_baseline_result stride_baseline_batched_put(const char *directory, long count, long batch, size_t value_size);

// Appends `count` records one per durable commit, after any already stored.
stride_baseline_result stride_baseline_single_commits(const char *directory, long count, size_t value_size);

// Walks every record of the environment written by stride_baseline_batched_put, touching
// each value's bytes.
stride_baseline_result stride_baseline_scan(const char *directory);
