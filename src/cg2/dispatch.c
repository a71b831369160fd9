/* grit: which geometry functor handles which pair of shapes, and in which
 * order it wants them (the name of a functor gives the order). Pairs
 * without a functor never collide (as in Woo; e.g. ellipsoid-infinite
 * cylinder). Facet-Ellipsoid and Capsule-Ellipsoid are grit extensions. */
#include <stdio.h>

#include "cg2/all.h"
#include "grit/shapes.h"

#define E(k, sw) {(uint8_t)(k), (uint8_t)(sw)}
#define NONE E(GRIT_CG2_NONE, 0)
/* the functor's order (A, B): row A, column B */
#define FWD(k) E(GRIT_CG2_##k, 0)
/* row B, column A: the particles are swapped */
#define REV(k) E(GRIT_CG2_##k, 1)

enum { S_ = GRIT_SHAPE_SPHERE, W_ = GRIT_SHAPE_WALL, F_ = GRIT_SHAPE_FACET, I_ = GRIT_SHAPE_INFCYLINDER,
       C_ = GRIT_SHAPE_CAPSULE, L_ = GRIT_SHAPE_ELLIPSOID, R_ = GRIT_SHAPE_ROD };

const grit_cg2_entry grit_cg2_dispatch[GRIT_SHAPE_COUNT][GRIT_SHAPE_COUNT] = {
    [S_] = {[S_] = FWD(SPHERE_SPHERE), [W_] = REV(WALL_SPHERE), [F_] = REV(FACET_SPHERE),
            [I_] = REV(INFCYLINDER_SPHERE), [C_] = FWD(SPHERE_CAPSULE), [L_] = FWD(SPHERE_ELLIPSOID),
            [R_] = REV(ROD_SPHERE)},
    [W_] = {[S_] = FWD(WALL_SPHERE), [W_] = NONE, [F_] = FWD(WALL_FACET), [I_] = NONE, [C_] = FWD(WALL_CAPSULE),
            [L_] = FWD(WALL_ELLIPSOID), [R_] = NONE},
    [F_] = {[S_] = FWD(FACET_SPHERE), [W_] = REV(WALL_FACET), [F_] = FWD(FACET_FACET), [I_] = FWD(FACET_INFCYLINDER),
            [C_] = FWD(FACET_CAPSULE), [L_] = FWD(FACET_ELLIPSOID), [R_] = NONE},
    [I_] = {[S_] = FWD(INFCYLINDER_SPHERE), [W_] = NONE, [F_] = REV(FACET_INFCYLINDER), [I_] = NONE,
            [C_] = FWD(INFCYLINDER_CAPSULE), [L_] = NONE, [R_] = NONE},
    [C_] = {[S_] = REV(SPHERE_CAPSULE), [W_] = REV(WALL_CAPSULE), [F_] = REV(FACET_CAPSULE),
            [I_] = REV(INFCYLINDER_CAPSULE), [C_] = FWD(CAPSULE_CAPSULE), [L_] = FWD(CAPSULE_ELLIPSOID), [R_] = NONE},
    [L_] = {[S_] = REV(SPHERE_ELLIPSOID), [W_] = REV(WALL_ELLIPSOID), [F_] = REV(FACET_ELLIPSOID), [I_] = NONE,
            [C_] = REV(CAPSULE_ELLIPSOID),
            [L_] = FWD(ELLIPSOID_ELLIPSOID), [R_] = NONE},
    [R_] = {[S_] = FWD(ROD_SPHERE), [W_] = NONE, [F_] = NONE, [I_] = NONE, [C_] = NONE, [L_] = NONE, [R_] = NONE},
};

const char *const grit_cg2_names[GRIT_CG2_KIND_COUNT] = {
    [GRIT_CG2_SPHERE_SPHERE] = "Cg2_Sphere_Sphere_L6Geom",
    [GRIT_CG2_FACET_SPHERE] = "Cg2_Facet_Sphere_L6Geom",
    [GRIT_CG2_WALL_SPHERE] = "Cg2_Wall_Sphere_L6Geom",
    [GRIT_CG2_INFCYLINDER_SPHERE] = "Cg2_InfCylinder_Sphere_L6Geom",
    [GRIT_CG2_ELLIPSOID_ELLIPSOID] = "Cg2_Ellipsoid_Ellipsoid_L6Geom",
    [GRIT_CG2_SPHERE_ELLIPSOID] = "Cg2_Sphere_Ellipsoid_L6Geom",
    [GRIT_CG2_WALL_ELLIPSOID] = "Cg2_Wall_Ellipsoid_L6Geom",
    [GRIT_CG2_WALL_FACET] = "Cg2_Wall_Facet_L6Geom",
    [GRIT_CG2_ROD_SPHERE] = "Cg2_Rod_Sphere_L6Geom",
    [GRIT_CG2_WALL_CAPSULE] = "Cg2_Wall_Capsule_L6Geom",
    [GRIT_CG2_CAPSULE_CAPSULE] = "Cg2_Capsule_Capsule_L6Geom",
    [GRIT_CG2_INFCYLINDER_CAPSULE] = "Cg2_InfCylinder_Capsule_L6Geom",
    [GRIT_CG2_FACET_CAPSULE] = "Cg2_Facet_Capsule_L6Geom",
    [GRIT_CG2_SPHERE_CAPSULE] = "Cg2_Sphere_Capsule_L6Geom",
    [GRIT_CG2_FACET_FACET] = "Cg2_Facet_Facet_L6Geom",
    [GRIT_CG2_FACET_INFCYLINDER] = "Cg2_Facet_InfCylinder_L6Geom",
    [GRIT_CG2_FACET_ELLIPSOID] = "Cg2_Facet_Ellipsoid_L6Geom",
    [GRIT_CG2_CAPSULE_ELLIPSOID] = "Cg2_Capsule_Ellipsoid_L6Geom",
};

bool grit_cg2_eval(const grit_scene *s, int kind, int a, int b, grit_vec3 shift, bool real,
                   const grit_l6geom *prev, grit_cg2_out *o)
{
#define CASE(K, fn) \
    case GRIT_CG2_##K: return fn(s, a, b, shift, real, prev, o)
    switch (kind) {
        CASE(SPHERE_SPHERE, cg2_sphere_sphere);
        CASE(FACET_SPHERE, cg2_facet_sphere);
        CASE(WALL_SPHERE, cg2_wall_sphere);
        CASE(INFCYLINDER_SPHERE, cg2_infcylinder_sphere);
        CASE(ELLIPSOID_ELLIPSOID, cg2_ellipsoid_ellipsoid);
        CASE(SPHERE_ELLIPSOID, cg2_sphere_ellipsoid);
        CASE(WALL_ELLIPSOID, cg2_wall_ellipsoid);
        CASE(WALL_FACET, cg2_wall_facet);
        CASE(ROD_SPHERE, cg2_rod_sphere);
        CASE(WALL_CAPSULE, cg2_wall_capsule);
        CASE(CAPSULE_CAPSULE, cg2_capsule_capsule);
        CASE(INFCYLINDER_CAPSULE, cg2_infcylinder_capsule);
        CASE(FACET_CAPSULE, cg2_facet_capsule);
        CASE(SPHERE_CAPSULE, cg2_sphere_capsule);
        CASE(FACET_FACET, cg2_facet_facet);
        CASE(FACET_INFCYLINDER, cg2_facet_infcylinder);
        CASE(FACET_ELLIPSOID, cg2_facet_ellipsoid);
        CASE(CAPSULE_ELLIPSOID, cg2_capsule_ellipsoid);
    default: return false;
    }
#undef CASE
}

/* Flat: a wall, or a facet without thickness. */
static bool is_flat(const grit_scene *s, int i)
{
    int sh = s->b.shape[i];
    return sh == GRIT_SHAPE_WALL || (sh == GRIT_SHAPE_FACET && !(s->facets[s->b.sidx[i]].half_thick > 0));
}

static int flat_pair_error(grit_scene *s, int i, int j)
{
    const char *ti = s->b.shape[i] == GRIT_SHAPE_FACET ? " with half_thick 0" : "";
    const char *tj = s->b.shape[j] == GRIT_SHAPE_FACET ? " with half_thick 0" : "";
    return grit_fail(s, GRIT_EINVAL,
                     "particles %d (%s%s, mask %u) and %d (%s%s, mask %u) may collide but are both flat: their "
                     "effective lengths are undefined (flat-flat, spec 2.5 rule 3); give the facet a half_thick > 0 "
                     "or masks sharing the lone bit %u",
                     s->b.id[j], grit_shape_name(s->b.shape[j]), tj, s->b.mask[j], s->b.id[i],
                     grit_shape_name(s->b.shape[i]), ti, s->b.mask[i], (unsigned)GRIT_MASK_LONE);
}

static bool pair_allowed(const grit_scene *s, int i, int j)
{
    uint32_t m = s->b.mask[i] & s->b.mask[j];
    return m != 0 && !(m & GRIT_MASK_LONE) &&
           grit_cg2_dispatch[s->b.shape[i]][s->b.shape[j]].kind != GRIT_CG2_NONE;
}

int grit_cg2_check_flat_pairs(grit_scene *s)
{
    /* one representative per (shape, mask) of the flat particles -- meshes
     * share a mask, so there are few -- and whether it has a twin */
    enum { MAXR = 64 };
    int rep[MAXR], nrep = 0;
    bool twin[MAXR];
    for (int i = 0; i < s->b.n; i++) {
        if (!is_flat(s, i)) continue;
        int k = 0;
        while (k < nrep && !(s->b.shape[rep[k]] == s->b.shape[i] && s->b.mask[rep[k]] == s->b.mask[i])) k++;
        if (k < nrep) {
            if (!twin[k] && pair_allowed(s, rep[k], i)) return flat_pair_error(s, i, rep[k]);
            twin[k] = true;
            continue;
        }
        for (k = 0; k < nrep; k++)
            if (pair_allowed(s, rep[k], i)) return flat_pair_error(s, i, rep[k]);
        if (nrep < MAXR) {
            twin[nrep] = false;
            rep[nrep++] = i;
        }
    }
    return 0;
}
