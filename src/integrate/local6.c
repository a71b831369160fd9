/* grit: imposed motion along particle-local axes (see local6.h). */
#include "integrate/local6.h"

#include "core/storage.h"

grit_local6 *grit_local6_find(grit_scene *s, int id)
{
    for (int k = 0; k < s->n_local6; k++)
        if (s->local6[k].id == id) return &s->local6[k];
    return NULL;
}

/* Replace the component of a along the unit axis e by value. Written as a
 * correction along e (not as T (T^T a) with one entry changed) so that the
 * other components are untouched bit for bit when the axes are global ones. */
static inline grit_vec3 set_along(grit_vec3 a, grit_vec3 e, double value)
{
    return v3_madd(a, value - v3_dot(e, a), e);
}

void grit_local6_velocity(const grit_scene *s, int idx, grit_velw *vw)
{
    const grit_local6 *L = grit_local6_find((grit_scene *)s, s->b.id[idx]);
    if (!L) return;
    for (int j = 0; j < 3; j++) {
        if (L->what[j] == GRIT_IMPOSE_VEL) vw->v = set_along(vw->v, L->axes.c[j], L->value[j]);
        if (L->what[j + 3] == GRIT_IMPOSE_VEL) vw->w = set_along(vw->w, L->axes.c[j], L->value[j + 3]);
    }
}

void grit_local6_force(grit_scene *s, int idx)
{
    const grit_local6 *L = grit_local6_find(s, s->b.id[idx]);
    if (!L) return;
    grit_ft *ft = &s->b.ft[idx];
    for (int j = 0; j < 3; j++) {
        if (L->what[j] == GRIT_IMPOSE_FORCE) ft->f = set_along(ft->f, L->axes.c[j], L->value[j]);
        if (L->what[j + 3] == GRIT_IMPOSE_FORCE) ft->t = set_along(ft->t, L->axes.c[j], L->value[j + 3]);
    }
}

int grit_impose_local(grit_scene *s, int id, const grit_mat3 *axes, const double values[6], const uint8_t what[6])
{
    int i = grit_idx(s, id);
    if (i < 0) return grit_fail(s, GRIT_EINVAL, "impose_local: particle id %d does not exist", id);
    for (int a = 0; a < 3; a++) {
        if (!v3_isfinite(axes->c[a]))
            return grit_fail(s, GRIT_EINVAL, "impose_local: particle %d: axis %d is not finite", id, a);
        for (int b = a; b < 3; b++) {
            double d = v3_dot(axes->c[a], axes->c[b]) - (a == b ? 1.0 : 0.0);
            if (!(fabs(d) <= 1e-9))
                return grit_fail(s, GRIT_EINVAL,
                                 "impose_local: particle %d: axes %d and %d are not orthonormal (dot - delta = %g)",
                                 id, a, b, d);
        }
    }
    bool rot_vel = false;
    for (int j = 0; j < 6; j++) {
        if (what[j] > GRIT_IMPOSE_FORCE)
            return grit_fail(s, GRIT_EINVAL, "impose_local: particle %d: DoF %d: mode %u is not free/velocity/force",
                             id, j, what[j]);
        if (!isfinite(values[j]))
            return grit_fail(s, GRIT_EINVAL, "impose_local: particle %d: DoF %d: value %g is not finite", id, j,
                             values[j]);
        rot_vel = rot_vel || (j >= 3 && what[j] == GRIT_IMPOSE_VEL);
    }
    if (rot_vel && (s->b.flags[i] & PF_ASPHERICAL))
        return grit_fail(s, GRIT_EINVAL,
                         "impose_local: particle %d has anisotropic inertia: its angular velocity cannot be imposed", id);
    grit_local6 *L = grit_local6_find(s, id);
    if (!L) {
        if (s->n_local6 == s->cap_local6) {
            int cap = s->cap_local6 ? 2 * s->cap_local6 : 4;
            if (grit_grow((void **)&s->local6, sizeof *s->local6, cap))
                return grit_fail(s, GRIT_ENOMEM, "impose_local: out of memory");
            s->cap_local6 = cap;
        }
        L = &s->local6[s->n_local6++];
    }
    *L = (grit_local6){.id = id, .axes = *axes};
    for (int j = 0; j < 6; j++) {
        L->what[j] = what[j];
        L->value[j] = values[j];
    }
    s->b.flags[i] |= PF_LOCAL6;
    return GRIT_OK;
}

int grit_impose_local_clear(grit_scene *s, int id)
{
    int i = grit_idx(s, id);
    if (i < 0) return grit_fail(s, GRIT_EINVAL, "impose_local_clear: particle id %d does not exist", id);
    grit_local6 *L = grit_local6_find(s, id);
    if (L) *L = s->local6[--s->n_local6];
    s->b.flags[i] &= (uint16_t)~PF_LOCAL6;
    return GRIT_OK;
}
