/* grit: which physics a pair of material types makes -- generated from
 * GRIT_CP2_LIST (cp2.h). */
#include <stdio.h>

#include "cp2/cp2.h"

/* Both orders; a pair of equal types is written twice with the same value. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Woverride-init"
const uint8_t grit_cp2_table[GRIT_MAT_COUNT][GRIT_MAT_COUNT] = {
#define ENTRY(A, B, P) [GRIT_MAT_##A][GRIT_MAT_##B] = GRIT_PHYS_##P + 1, [GRIT_MAT_##B][GRIT_MAT_##A] = GRIT_PHYS_##P + 1,
    GRIT_CP2_LIST(ENTRY)
#undef ENTRY
};
#pragma GCC diagnostic pop

int grit_cp2_find(const uint8_t table[GRIT_MAT_COUNT][GRIT_MAT_COUNT], int ta, int tb, char *err, size_t len)
{
    if (table[ta][tb]) return table[ta][tb] - 1;
    if (err)
        snprintf(err, len, "no physics functor (Cp2) for materials of types %s and %s: their particles cannot touch",
                 grit_material_class_name(ta), grit_material_class_name(tb));
    return GRIT_PHYS_NONE;
}
