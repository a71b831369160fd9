/* grit: the concrete particle model (materials of type ConcreteMat, the law
 * cpm; docs/concrete.md): the state of its contacts, read from outside the
 * engine. */
#ifndef GRIT_CONCRETE_H
#define GRIT_CONCRETE_H

#include "grit/scene.h"
#include "grit/export.h"

GRIT_BEGIN_DECLS

typedef struct grit_concrete_state {
    bool cohesive;          /* made in the first cohesive_steps steps: carries tension until it cracks */
    double omega;           /* damage, 0 (intact) to 1 (cracked) */
    double kappa;           /* largest equivalent tensile strain so far */
    double eps_n, eps_n_pl; /* normal strain (with the confinement's shift), its plastic part (<= 0) */
    double eps_t[2];        /* elastic shear strain, local y and z */
    double sigma_n;         /* normal stress applied to the particles, Pa, tension positive */
    double sigma_t[2];      /* shear stress, local y and z, Pa */
    double ref_length;      /* L of the strains, m */
    double area;            /* A_c: force = A_c sigma, m^2 */
    double rel_residual_strength; /* 1 intact, 0 no tensile strength left */
    double stored_energy;   /* elastic energy held by the contact, J */
} grit_concrete_state;

/* The state of the i-th real contact (the order of grit_contact_get);
 * GRIT_EINVAL if there is no such contact, GRIT_ESTATE if its law is not
 * cpm. */
int grit_concrete_contact(const grit_scene *s, int i, grit_concrete_state *out);

typedef struct grit_concrete_summary {
    int contacts;        /* real contacts under the law cpm */
    int cohesive;        /* of which cohesive */
    int damaged;         /* cohesive with omega > 0 */
    int cracked;         /* cohesive with omega >= 0.99 (or removed ones are not counted: see broken) */
    double mean_omega;   /* over the cohesive contacts */
    long broken;         /* cohesive contacts removed by the law since the scene was made */
} grit_concrete_summary;

/* Counts over the scene's concrete contacts (for progress lines and tests). */
int grit_concrete_summarize(const grit_scene *s, grit_concrete_summary *out);

GRIT_END_DECLS

#endif
