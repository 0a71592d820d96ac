// SHA-256 from the system's OpenSSL libcrypto (Debian's libssl-dev).
// Only StrideEvents' hashing imports this.
//
// The hot paths hash millions of inputs of a few hundred bytes, where EVP's per-hash
// set-up costs about 40% of the hash itself. OpenSSL 3 marks the direct SHA256_* calls
// deprecated in favour of EVP, but keeps them, and they run the same SHA-NI code; these
// wrappers are the one place that uses them.
#define OPENSSL_SUPPRESS_DEPRECATED 1
#include <openssl/sha.h>

/// SHA-256 of `first` followed by `second` (either may be empty) into `digest` (32 bytes).
static inline void stride_sha256_two(const void *first, size_t firstLength, const void *second, size_t secondLength,
                                     unsigned char *digest) {
    SHA256_CTX context;
    SHA256_Init(&context);
    if (firstLength > 0) SHA256_Update(&context, first, firstLength);
    if (secondLength > 0) SHA256_Update(&context, second, secondLength);
    SHA256_Final(digest, &context);
}

/// The state after hashing `prefix`, whose length is a multiple of 64 bytes (whole blocks),
/// for ``stride_sha256_resume``.
static inline void stride_sha256_prefix(const void *prefix, size_t length, SHA256_CTX *state) {
    SHA256_Init(state);
    if (length > 0) SHA256_Update(state, prefix, length);
}

/// SHA-256 of a prefix hashed into `state` followed by `rest`, into `digest` (32 bytes);
/// `state` is left as it was.
static inline void stride_sha256_resume(const SHA256_CTX *state, const void *rest, size_t length, unsigned char *digest) {
    SHA256_CTX context = *state;
    if (length > 0) SHA256_Update(&context, rest, length);
    SHA256_Final(digest, &context);
}

/// Starts a SHA-256 over bytes that arrive in pieces.
static inline void stride_sha256_begin(SHA256_CTX *state) { SHA256_Init(state); }

/// Adds `length` bytes to a SHA-256 begun with ``stride_sha256_begin``.
static inline void stride_sha256_add(SHA256_CTX *state, const void *bytes, size_t length) {
    if (length > 0) SHA256_Update(state, bytes, length);
}

/// The SHA-256 of what was added, into `digest` (32 bytes); `state` is left as it was.
static inline void stride_sha256_end(const SHA256_CTX *state, unsigned char *digest) {
    SHA256_CTX context = *state;
    SHA256_Final(digest, &context);
}
