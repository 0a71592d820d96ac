#include "crc32c.h"

#include <string.h>

static uint32_t table[8][256];
static int use_hardware = -1;

static void build_table(void) {
    for (uint32_t index = 0; index < 256; index++) {
        uint32_t crc = index;
        for (int bit = 0; bit < 8; bit++) crc = (crc & 1) ? (crc >> 1) ^ 0x82F63B78u : crc >> 1;
        table[0][index] = crc;
    }
    for (uint32_t index = 0; index < 256; index++) {
        for (int slice = 1; slice < 8; slice++) {
            uint32_t previous = table[slice - 1][index];
            table[slice][index] = (previous >> 8) ^ table[0][previous & 0xFF];
        }
    }
}

static uint32_t software(uint32_t crc, const unsigned char *bytes, size_t count) {
    while (count >= 8) {
        uint64_t word;
        memcpy(&word, bytes, 8);
        uint32_t low = (uint32_t)word ^ crc, high = (uint32_t)(word >> 32);
        crc = table[7][low & 0xFF] ^ table[6][(low >> 8) & 0xFF] ^ table[5][(low >> 16) & 0xFF] ^ table[4][low >> 24]
            ^ table[3][high & 0xFF] ^ table[2][(high >> 8) & 0xFF] ^ table[1][(high >> 16) & 0xFF] ^ table[0][high >> 24];
        bytes += 8;
        count -= 8;
    }
    while (count--) crc = (crc >> 8) ^ table[0][(crc ^ *bytes++) & 0xFF];
    return crc;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2"))) static uint32_t hardware(uint32_t crc, const unsigned char *bytes, size_t count) {
    uint64_t wide = crc;
    while (count >= 8) {
        uint64_t word;
        memcpy(&word, bytes, 8);
        wide = __builtin_ia32_crc32di(wide, word);
        bytes += 8;
        count -= 8;
    }
    crc = (uint32_t)wide;
    while (count--) crc = __builtin_ia32_crc32qi(crc, *bytes++);
    return crc;
}
#endif

uint32_t stride_crc32c(const void *bytes, size_t count) {
    if (use_hardware < 0) {
        // Benign race: every thread computes the same table and the same answer.
        build_table();
#if defined(__x86_64__)
        __builtin_cpu_init();
        use_hardware = __builtin_cpu_supports("sse4.2") ? 1 : 0;
#else
        use_hardware = 0;
#endif
    }
#if defined(__x86_64__)
    if (use_hardware) return ~hardware(~0u, bytes, count);
#endif
    return ~software(~0u, bytes, count);
}
