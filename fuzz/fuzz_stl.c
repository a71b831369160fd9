/* libFuzzer: the STL loader (ASCII and binary). */
#include "fuzz_common.h"
#include "grit/grit.h"
#include "grit/stl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *p = fuzz_file(data, size, ".stl");
    grit_scene_def d = grit_default_scene_def();
    d.dt = 1e-5;
    grit_scene *s = grit_scene_create(&d);
    grit_frictmat_def m = grit_default_frictmat_def();
    grit_add_frictmat(s, &m);
    grit_stl_def sd = grit_default_stl_def();
    int rc = grit_load_stl(s, p, &sd, NULL);
    if (rc < 0) {
        fuzz_check_message(grit_last_error(s));
        if (grit_particle_count(s) != 0) abort();
    }
    grit_scene_destroy(s);
    return 0;
}
