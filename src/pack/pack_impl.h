/* grit: what the files of src/pack share (not public). */
#ifndef GRIT_PACK_IMPL_H
#define GRIT_PACK_IMPL_H

#include <stdint.h>
#include <stdio.h>

#include "grit/pack.h"

/* One error line into err; returns code. */
int pack_fail(char *err, size_t errlen, int code, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* splitmix64: small, fast, the same on every machine; a uniform double in
 * [0, 1) with 53 random bits. */
static inline double pack_uniform(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1.0p-53;
}

/* The shortest text that reads back as exactly x. */
void pack_exact(double x, char *buf, size_t len);
/* "name=value name=value ..." of every parameter of a table, exact values;
 * returns the length written (truncated to len). */
size_t pack_format_params(const grit_param_table *t, const void *def, char *buf, size_t len);

/* Append a line to a packing's info (allocates); -1 when out of memory. */
int pack_info_append(grit_packing *p, const char *line);

/* ---- the initial cloud (cloud.c) ----------------------------------------- */
/* The radii of the cell, largest first: n from def and radius +- spread or
 * the size distribution psd; the counts per size of psd into counts (its
 * n entries; may be NULL). */
int pack_radii(const grit_pack_def *def, const grit_psd *psd, double *r, int *counts, char *err, size_t errlen);
/* Centres of spheres of radii r (n of them) placed at random without
 * overlap in the periodic cube [0, edge)^3 of solid fraction phi0, sphere
 * after sphere in the given order. */
int pack_cloud(const double *r, int n, double phi0, uint64_t seed, grit_vec3 *pos, double *edge, char *err,
               size_t errlen);

/* ---- closed triangle meshes (stl_solid.c) -------------------------------- */
typedef struct pack_mesh pack_mesh;
/* Read an STL file, check that it is a closed, consistently oriented
 * surface, and index it for the queries; NULL with the status in *rc. */
pack_mesh *pack_mesh_load(const char *path, double scale, grit_vec3 shift, int *rc, char *err, size_t errlen);
/* The same from triangles in memory; `what` names them in errors. */
pack_mesh *pack_mesh_from_triangles(const grit_vec3 (*tri)[3], int n, const char *what, int *rc, char *err,
                                    size_t errlen);
void pack_mesh_free(pack_mesh *m);
void pack_mesh_bounds(const pack_mesh *m, grit_vec3 *lo, grit_vec3 *hi);
double pack_mesh_volume(const pack_mesh *m);
int pack_mesh_triangles(const pack_mesh *m);
/* Non-zero when the ball (c, r) lies entirely inside the solid. */
int pack_mesh_contains(const pack_mesh *m, grit_vec3 c, double r);

#endif
