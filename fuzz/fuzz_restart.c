/* libFuzzer: the restart loader. The CRC is rewritten over the mutated bytes
 * (the last 4), so mutations reach the section parsers instead of all being
 * refused by the checksum; a file that loads is stepped. */
#include "fuzz_common.h"
#include "grit/grit.h"
#include "grit/restart.h"

static uint32_t crc32_ieee(const uint8_t *b, size_t n)
{
    uint32_t c = 0xffffffffu;
    for (size_t i = 0; i < n; i++) {
        c ^= b[i];
        for (int k = 0; k < 8; k++) c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1u)));
    }
    return c ^ 0xffffffffu;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t *b = malloc(size ? size : 1);
    if (size) memcpy(b, data, size);
    if (size >= 48) {
        const uint32_t c = crc32_ieee(b, size - 4);
        memcpy(b + size - 4, &c, 4);
    }
    const char *p = fuzz_file(b, size, ".grit");
    free(b);
    grit_scene *s = grit_scene_load(p);
    if (!s) fuzz_check_message(grit_create_error());
    else {
        if (grit_particle_count(s) <= 256) grit_step(s, 3);
        grit_scene_destroy(s);
    }
    return 0;
}
