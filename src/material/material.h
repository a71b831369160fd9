/* grit internal: material types -- what the rest of the engine asks of a
 * material, and the resolved table of what each pair of materials makes
 * of a contact (grit/material.h says what the user sees).
 *
 * One file per type (frictmat.c, concretemat.c, hertzmat.c) defines the
 * grit_<type>_material class that GRIT_MATERIAL_TYPES puts in
 * grit_material_classes. */
#ifndef GRIT_MATERIAL_IMPL_H
#define GRIT_MATERIAL_IMPL_H

#include "core/scene_impl.h"

/* The FrictMat side of any material (every type is a FrictMat, as in Woo):
 * what FrictPhys contacts and the p-wave time step read. */
typedef struct grit_frict_params {
    double density, young, kt_div_kn, tan_phi;
} grit_frict_params;

typedef struct grit_material_class {
    const char *name;       /* "frictmat": the parameter group, the restart record */
    const char *class_name; /* "FrictMat" */
    const grit_param_table *table;
    size_t def_size;
    void (*fill_default)(void *def);
    grit_frict_params (*frict)(const grit_material *m);
    /* The law the material asks for (grit_law), or -1 for none. */
    int (*law)(const grit_material *m);
    /* Checks across parameters, after each is in its range: 0, or -1 with a
     * one-line message naming the parameter in err. NULL: none. */
    int (*check)(const void *def, char *err, size_t len);
} grit_material_class;

#define GRIT_MAT_CLASS_DECL(U, l, name) extern const grit_material_class grit_##l##_material;
GRIT_MATERIAL_TYPES(GRIT_MAT_CLASS_DECL)
#undef GRIT_MAT_CLASS_DECL
extern const grit_material_class *const grit_material_classes[GRIT_MAT_COUNT];

static inline grit_frict_params grit_material_frict(const grit_scene *s, int mat)
{
    const grit_material *m = &s->mats[mat];
    return grit_material_classes[m->type]->frict(m);
}

static inline const grit_matpair *grit_matpair_of(const grit_scene *s, int mat_a, int mat_b)
{
    return &s->pair_table[mat_a * s->pair_table_n + mat_b];
}

/* The Rayleigh time pi r sqrt(rho / G) / (0.1631 nu + 0.8766) of a particle
 * of radius r: the time a surface wave takes across its half circumference,
 * the usual critical step of Hertz contacts (docs/hertz.md). */
double grit_hertzmat_rayleigh_time(const grit_hertzmat_def *d, double r);

/* Checks that can only be made before a step: every pair of materials in
 * use has a physics functor, and the laws in use have valid parameters (a
 * LinEl6 contact needs char_len > 0). Runs when something changed. */
int grit_materials_check(grit_scene *s);

#endif
