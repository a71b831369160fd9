/* grit: reflection for bindings (reflect.h). A new parameter group, public
 * constant or mirrored struct is one line in the matching table below. */
#include "grit/reflect.h"

#include <string.h>

#include "grit/arrays.h"
#include "grit/calibrate.h"
#include "grit/cell.h"
#include "grit/clump.h"
#include "grit/inlet.h"
#include "grit/io.h"
#include "grit/outlet.h"
#include "grit/pack.h"
#include "grit/scene.h"
#include "grit/shapes.h"
#include "grit/stl.h"
#include "grit/tester.h"
#include "grit/uniax.h"
#include "grit/version.h"
#include "law2/cpm.h"

/* ---- parameter groups ---------------------------------------------------- */
typedef struct group {
    const grit_param_table *table;
    size_t size;
    void (*fill)(void *def);
} group;

#define FILLER(type, fn) \
    static void fill_##type(void *d) { *(type *)d = fn(); }
FILLER(grit_scene_def, grit_default_scene_def)
FILLER(grit_pair_def, grit_default_pair_def)
FILLER(grit_tester_def, grit_default_tester_def)
#define MAT_FILLER(U, l, name) FILLER(grit_##l##_def, grit_default_##l##_def)
GRIT_MATERIAL_TYPES(MAT_FILLER)
#define LAW_FILLER(U, l, phys, name) FILLER(grit_##l##_def, grit_default_##l##_def)
GRIT_LAWS(LAW_FILLER)
FILLER(grit_pack_def, grit_default_pack_def)
FILLER(grit_clip_def, grit_default_clip_def)
FILLER(grit_uniax_def, grit_default_uniax_def)
FILLER(grit_calibrate_def, grit_default_calibrate_def)
#define GROUP(table, type) {&table, sizeof(type), fill_##type},
#define MAT_GROUP(U, l, name) GROUP(grit_##l##_param_table, grit_##l##_def)
#define LAW_GROUP(U, l, phys, name) GROUP(grit_##l##_param_table, grit_##l##_def)

static const group groups[] = {
    GROUP(grit_scene_param_table, grit_scene_def)
    GROUP(grit_pair_param_table, grit_pair_def)
    GROUP(grit_tester_param_table, grit_tester_def)
    GRIT_MATERIAL_TYPES(MAT_GROUP)
    GRIT_LAWS(LAW_GROUP)
    GROUP(grit_pack_param_table, grit_pack_def)
    GROUP(grit_clip_param_table, grit_clip_def)
    GROUP(grit_uniax_param_table, grit_uniax_def)
    GROUP(grit_calibrate_param_table, grit_calibrate_def)
};
enum { N_GROUPS = (int)(sizeof groups / sizeof groups[0]) };

static const group *find_group(const grit_param_table *t)
{
    for (int i = 0; i < N_GROUPS; i++)
        if (groups[i].table == t) return &groups[i];
    return NULL;
}

int grit_reflect_group_count(void) { return N_GROUPS; }

const grit_param_table *grit_reflect_group(int i)
{
    return i >= 0 && i < N_GROUPS ? groups[i].table : NULL;
}

const grit_param_table *grit_reflect_group_find(const char *name)
{
    for (int i = 0; name && i < N_GROUPS; i++)
        if (strcmp(groups[i].table->name, name) == 0) return groups[i].table;
    return NULL;
}

const grit_param_info *grit_reflect_param(const grit_param_table *t, int i)
{
    return t && i >= 0 && i < t->count ? &t->params[i] : NULL;
}

size_t grit_reflect_def_size(const grit_param_table *t)
{
    const group *g = find_group(t);
    return g ? g->size : 0;
}

int grit_reflect_def_default(const grit_param_table *t, void *def, size_t size)
{
    const group *g = find_group(t);
    if (!g || !def || size != g->size) return -1;
    g->fill(def);
    return 0;
}

/* ---- constants ------------------------------------------------------------- */
typedef struct constant {
    const char *name;
    long value;
} constant;

#define K(name) {#name, (long)(name)},
/* columns of the concrete law's state in a contact's ext doubles (law2/cpm.h) */
#define CPM_COL(name, field) {"GRIT_CPM_X_" #name, (long)(GRIT_CPM_X_STATE + offsetof(grit_cpm_state, field) / sizeof(double))},
static const constant constants[] = {
    K(GRIT_OK) K(GRIT_EINVAL) K(GRIT_ENOMEM) K(GRIT_ESTATE) K(GRIT_EIO) K(GRIT_EFORMAT) K(GRIT_ENUMERIC)
#define SHAPE_K(U, l) K(GRIT_SHAPE_##U)
    GRIT_SHAPES(SHAPE_K) K(GRIT_SHAPE_COUNT)
#define MAT_K(U, l, name) K(GRIT_MAT_##U)
    GRIT_MATERIAL_TYPES(MAT_K) K(GRIT_MAT_COUNT)
#define LAW_K(U, l, phys, name) K(GRIT_LAW_##U)
    GRIT_LAWS(LAW_K) K(GRIT_LAW_COUNT)
    K(GRIT_BLOCK_X) K(GRIT_BLOCK_Y) K(GRIT_BLOCK_Z) K(GRIT_BLOCK_RX) K(GRIT_BLOCK_RY) K(GRIT_BLOCK_RZ)
    K(GRIT_BLOCK_ALL)
    K(GRIT_MASK_PARTICLE) K(GRIT_MASK_BOUNDARY) K(GRIT_MASK_LONE)
    K(GRIT_E_COUNT) K(GRIT_E_DAMAGE) K(GRIT_E_INLET) K(GRIT_E_MASSDAMP)
    K(GRIT_CPM_X_PAIR) K(GRIT_CPM_X_COHESIVE) K(GRIT_CPM_X_L) K(GRIT_LAW_CPM_EXT_N)
    CPM_COL(EPS_N, epsN) CPM_COL(EPS_T, epsT) CPM_COL(KAPPA, kappa) CPM_COL(OMEGA, omega) CPM_COL(EPS_N_PL, epsNPl)
    CPM_COL(EPS_D, epsd) CPM_COL(SIGMA_N, sigmaN) CPM_COL(SIGMA_T, sigmaT) CPM_COL(SIGMA_NV, sigmaNv)
    CPM_COL(RRES, rres) CPM_COL(U, u)
    K(GRIT_PT_double) K(GRIT_PT_int) K(GRIT_PT_flag) K(GRIT_PT_vec3) K(GRIT_PT_choice)
    K(GRIT_P_NAN_OK) K(GRIT_P_MIN_EXCL) K(GRIT_P_MAX_EXCL)
    K(GRIT_ARRAYS_PARTICLES) K(GRIT_ARRAYS_CONTACTS) K(GRIT_CONTACT_REAL)
    K(GRIT_IMPOSE_FREE) K(GRIT_IMPOSE_VEL) K(GRIT_IMPOSE_FORCE)
    K(GRIT_TQ_NONE) K(GRIT_TQ_CONTACT) K(GRIT_TQ_BROKEN) K(GRIT_TQ_UN) K(GRIT_TQ_U) K(GRIT_TQ_F) K(GRIT_TQ_V)
    K(GRIT_TQ_FERR_REL) K(GRIT_TQ_FERR_ABS) K(GRIT_TQ_STEP) K(GRIT_TQ_TIME) K(GRIT_TQ_BOUNCES) K(GRIT_TQ_ENERGY)
    K(GRIT_OP_LT) K(GRIT_OP_LE) K(GRIT_OP_GT) K(GRIT_OP_GE)
    K(GRIT_VTK_BINARY) K(GRIT_VTK_ASCII) K(GRIT_VTK_ZLIB) K(GRIT_VTK_FLOAT32)
    K(GRIT_PACK_PRESSURE) K(GRIT_PACK_SOLID_FRACTION) K(GRIT_PACK_COMPRESS) K(GRIT_PACK_RELAX) K(GRIT_PACK_DONE)
    K(GRIT_CLIP_NONE) K(GRIT_CLIP_CUBOID) K(GRIT_CLIP_CYLINDER) K(GRIT_CLIP_HYPERBOLOID) K(GRIT_CLIP_STL)
    K(GRIT_UNIAX_BOTH) K(GRIT_UNIAX_TENSION) K(GRIT_UNIAX_COMPRESSION) K(GRIT_UNIAX_SECTION_AUTO)
    K(GRIT_UNIAX_SECTION_BOX) K(GRIT_UNIAX_SECTION_HULL) K(GRIT_UNIAX_SECTION_YADE) K(GRIT_UNIAX_RUNNING) K(GRIT_UNIAX_STOP_FALL)
    K(GRIT_UNIAX_STOP_STRAIN) K(GRIT_UNIAX_STOP_STEPS) K(GRIT_UNIAX_STOP_MONITOR)
};
enum { N_CONSTANTS = (int)(sizeof constants / sizeof constants[0]) };

int grit_reflect_constant_count(void) { return N_CONSTANTS; }
const char *grit_reflect_constant_name(int i) { return i >= 0 && i < N_CONSTANTS ? constants[i].name : NULL; }
long grit_reflect_constant_value(int i) { return i >= 0 && i < N_CONSTANTS ? constants[i].value : 0; }

/* ---- struct sizes ------------------------------------------------------------ */
typedef struct sized {
    const char *name;
    size_t size;
} sized;

#define S(type) {#type, sizeof(type)},
static const sized sizes[] = {
    S(grit_vec3) S(grit_quat) S(grit_param_info) S(grit_param_table)
    S(grit_sphere_def) S(grit_wall_def) S(grit_facet_def)
    S(grit_infcylinder_def) S(grit_capsule_def) S(grit_ellipsoid_def) S(grit_rod_def)
    S(grit_clump_def) S(grit_clump_props) S(grit_inlet_def) S(grit_inlet_clump) S(grit_inlet_shape) S(grit_outlet_def)
    S(grit_tester_state) S(grit_tester_cond) S(grit_tester_stage)
    S(grit_contact_info) S(grit_stats) S(grit_array_info) S(grit_array_view)
    S(grit_stl_def) S(grit_stl_info) S(grit_stl_mesh)
    S(grit_pack_state) S(grit_pack_opts) S(grit_packing) S(grit_psd)
    S(grit_cell_ctrl_def) S(grit_cell_ctrl_state)
    S(grit_uniax_specimen) S(grit_uniax_curve) S(grit_uniax_state) S(grit_uniax_opts) S(grit_uniax_result)
    S(grit_calibrate_run) S(grit_calibrate_opts) S(grit_calibrate_result)
};

size_t grit_reflect_sizeof(const char *type)
{
    for (size_t i = 0; type && i < sizeof sizes / sizeof sizes[0]; i++)
        if (strcmp(sizes[i].name, type) == 0) return sizes[i].size;
    return 0;
}

const char *grit_version(void) { return GRIT_VERSION; }
