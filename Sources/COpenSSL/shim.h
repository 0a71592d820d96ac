// SHA-256 from the system's OpenSSL libcrypto (Debian's libssl-dev), through EVP.
// Only StrideEvents' hashing imports this.
#include <openssl/evp.h>
