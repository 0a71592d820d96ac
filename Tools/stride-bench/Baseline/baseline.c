#include "baseline.h"

#include <lmdb.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int open_env(const char *directory, MDB_env **env, MDB_dbi *dbi) {
    mkdir(directory, 0700);
    int rc = mdb_env_create(env);
    if (rc) return rc;
    mdb_env_set_mapsize(*env, (size_t)8 << 30);
    rc = mdb_env_open(*env, directory, MDB_NOTLS, 0600);
    if (rc) return rc;
    MDB_txn *txn;
    rc = mdb_txn_begin(*env, NULL, 0, &txn);
    if (rc) return rc;
    rc = mdb_dbi_open(txn, NULL, MDB_INTEGERKEY, dbi);
    if (rc) { mdb_txn_abort(txn); return rc; }
    return mdb_txn_commit(txn);
}

static stride_baseline_result put_loop(const char *directory, long count, long batch, size_t value_size) {
    stride_baseline_result result = {0, 0, 0};
    MDB_env *env;
    MDB_dbi dbi;
    if ((result.status = open_env(directory, &env, &dbi))) return result;
    unsigned char *value = malloc(value_size);
    for (size_t i = 0; i < value_size; i++) value[i] = (unsigned char)(i * 31);
    // Keys go on after the last one already stored, so that single commits can follow a
    // batched run into the same environment, as Stride's single appends follow its own.
    uint64_t key = 0;
    MDB_txn *first;
    if ((result.status = mdb_txn_begin(env, NULL, MDB_RDONLY, &first))) { free(value); mdb_env_close(env); return result; }
    MDB_cursor *cursor;
    if (!(result.status = mdb_cursor_open(first, dbi, &cursor))) {
        MDB_val k, v;
        if (mdb_cursor_get(cursor, &k, &v, MDB_LAST) == 0 && k.mv_size == sizeof key) memcpy(&key, k.mv_data, sizeof key);
        mdb_cursor_close(cursor);
    }
    mdb_txn_abort(first);
    if (result.status) { free(value); mdb_env_close(env); return result; }
    double began = now();
    while (result.count < count && !result.status) {
        MDB_txn *txn;
        if ((result.status = mdb_txn_begin(env, NULL, 0, &txn))) break;
        for (long i = 0; i < batch && result.count < count; i++) {
            key++;
            memcpy(value, &key, sizeof key);
            MDB_val k = {sizeof key, &key}, v = {value_size, value};
            if ((result.status = mdb_put(txn, dbi, &k, &v, MDB_APPEND))) break;
            result.count++;
        }
        if (result.status) { mdb_txn_abort(txn); break; }
        result.status = mdb_txn_commit(txn);
    }
    result.seconds = now() - began;
    free(value);
    mdb_env_close(env);
    return result;
}

stride_baseline_result stride_baseline_batched_put(const char *directory, long count, long batch, size_t value_size) {
    return put_loop(directory, count, batch, value_size);
}

stride_baseline_result stride_baseline_single_commits(const char *directory, long count, size_t value_size) {
    return put_loop(directory, count, 1, value_size);
}

stride_baseline_result stride_baseline_scan(const char *directory) {
    stride_baseline_result result = {0, 0, 0};
    MDB_env *env;
    MDB_dbi dbi;
    if ((result.status = open_env(directory, &env, &dbi))) return result;
    double began = now();
    MDB_txn *txn;
    if ((result.status = mdb_txn_begin(env, NULL, MDB_RDONLY, &txn))) { mdb_env_close(env); return result; }
    MDB_cursor *cursor;
    if ((result.status = mdb_cursor_open(txn, dbi, &cursor))) { mdb_txn_abort(txn); mdb_env_close(env); return result; }
    MDB_val k, v;
    volatile uint64_t sink = 0;
    while (mdb_cursor_get(cursor, &k, &v, MDB_NEXT) == 0) {
        // Touch the value as a decoder would: its first and last bytes and its length.
        const unsigned char *bytes = v.mv_data;
        sink += bytes[0] + bytes[v.mv_size - 1] + v.mv_size;
        result.count++;
    }
    result.seconds = now() - began;
    mdb_cursor_close(cursor);
    mdb_txn_abort(txn);
    mdb_env_close(env);
    (void)sink;
    return result;
}
