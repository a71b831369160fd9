/* libFuzzer: the spheres CSV loader. Loads into a scene, then steps it a
 * little: whatever loads must be a valid scene. The same file is then read
 * as a packing (grit/pack.h: the CSV and its header of cell and figures). */
#include "fuzz_common.h"
#include "grit/grit.h"
#include "grit/io.h"
#include "grit/pack.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *p = fuzz_file(data, size, ".csv");
    grit_scene_def d = grit_default_scene_def();
    d.dt = 1e-5;
    grit_scene *s = grit_scene_create(&d);
    grit_frictmat_def m = grit_default_frictmat_def();
    grit_add_frictmat(s, &m);
    int n = 0;
    if (grit_io_load_spheres_csv(s, p, 0, NULL, &n) == GRIT_OK) {
        if (n <= 64) grit_step(s, 2);
    } else {
        fuzz_check_message(grit_last_error(s));
        if (grit_particle_count(s) != 0) abort(); /* an error changes nothing */
    }
    grit_scene_destroy(s);
    grit_packing pk = {.n = -7};
    char err[512];
    if (grit_packing_load(p, &pk, err, sizeof err) == GRIT_OK) {
        if (pk.n < 0 || (pk.n > 0 && (!pk.center || !pk.radius))) abort();
        grit_packing_free(&pk);
    } else {
        fuzz_check_message(err);
        if (pk.n != -7) abort(); /* an error returns nothing */
    }
    return 0;
}
