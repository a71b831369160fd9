/* libFuzzer: the key=value parser of every parameter group (the command
 * line, restart files and Python all go through it). Input: a group index
 * byte, then "name=value". */
#include "fuzz_common.h"
#include "grit/grit.h"
#include "grit/reflect.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2 || size > 4096) return 0;
    const int ng = grit_reflect_group_count();
    const grit_param_table *t = grit_reflect_group(data[0] % ng);
    char *text = malloc(size);
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    char *eq = strchr(text, '=');
    if (eq) {
        *eq = '\0';
        static _Alignas(64) unsigned char def[1 << 16];
        memset(def, 0, sizeof def);
        char err[512] = "";
        if (grit_param_set_text(t, def, text, eq + 1, err, sizeof err)) fuzz_check_message(err);
    }
    free(text);
    return 0;
}
