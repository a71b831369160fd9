/* Materials that bring their own law: the registration lists are complete
 * and consistent, a pair of material types without a physics functor is a
 * clear error naming both, the law of a pair follows from its materials (and
 * its override), and a scene mixing laws gives every contact exactly what
 * the same contact gives in a scene of its law alone. */
#include "cg2/cg2.h"
#include "cp2/cp2.h"
#include "fixture.h"
#include "grit/reflect.h"
#include "material/material.h"
#include "shape/shape.h"

/* ---- the registration lists ------------------------------------------------ */
static void tables_complete(void)
{
    for (int t = 0; t < GRIT_SHAPE_COUNT; t++) {
        CHECK(grit_shape_classes[t] != NULL && grit_shape_classes[t]->aabb != NULL);
        CHECK(grit_shape_name(t) != NULL);
    }
    for (int k = 0; k < GRIT_CG2_KIND_COUNT; k++) CHECK(grit_cg2_names[k] != NULL);
    /* every functor is reachable from exactly its two shapes, both orders */
    int seen[GRIT_CG2_KIND_COUNT] = {0};
    for (int a = 0; a < GRIT_SHAPE_COUNT; a++)
        for (int b = 0; b < GRIT_SHAPE_COUNT; b++) {
            grit_cg2_entry e = grit_cg2_lookup(a, b), r = grit_cg2_lookup(b, a);
            CHECK((e.kind == GRIT_CG2_NONE) == (r.kind == GRIT_CG2_NONE));
            if (e.kind == GRIT_CG2_NONE) continue;
            CHECK(e.kind < GRIT_CG2_KIND_COUNT && e.kind == r.kind);
            CHECK(a == b ? e.swap == 0 : e.swap != r.swap);
            seen[e.kind]++;
        }
    for (int k = 0; k < GRIT_CG2_KIND_COUNT; k++) CHECK(seen[k] == 1 || seen[k] == 2);
    for (int l = 0; l < GRIT_LAW_COUNT; l++) {
        const grit_param_table *t = grit_law_param_table(l);
        CHECK(grit_law_name(l) && grit_law_woo_name(l) && t && !strcmp(t->name, grit_law_name(l)));
        CHECK(grit_law_find(grit_law_name(l)) == l);
        CHECK(grit_law_phys(l) >= 0 && grit_law_phys(l) < GRIT_PHYS_COUNT);
        CHECK(grit_reflect_group_find(t->name) == t && grit_reflect_def_size(t) > 0);
    }
    CHECK(grit_law_name(GRIT_LAW_COUNT) == NULL && grit_law_find("no_such_law") == -1);
    for (int p = 0; p < GRIT_PHYS_COUNT; p++) {
        int n = 0;
        for (int l = 0; l < GRIT_LAW_COUNT; l++) n += grit_law_phys(l) == p;
        CHECK(n >= 1 && grit_phys_name(p) != NULL); /* every physics has a law */
    }
    for (int t = 0; t < GRIT_MAT_COUNT; t++) {
        const grit_material_class *mc = grit_material_classes[t];
        CHECK(mc && mc->frict && mc->law && mc->fill_default && mc->table == grit_material_param_table(t));
        CHECK(!strcmp(mc->table->name, grit_material_type_name(t)));
        CHECK(grit_reflect_def_size(mc->table) == mc->def_size);
        CHECK(grit_material_type_find(grit_material_type_name(t)) == t);
        CHECK(grit_material_type_find(grit_material_class_name(t)) == t);
        for (int u = 0; u < GRIT_MAT_COUNT; u++) { /* the Cp2 list covers every pair, symmetrically */
            CHECK(grit_cp2_table[t][u] != 0 && grit_cp2_table[t][u] == grit_cp2_table[u][t]);
            CHECK(grit_cp2_find(grit_cp2_table, t, u, NULL, 0) < GRIT_PHYS_COUNT);
        }
    }
    CHECK(grit_material_type_find("NoSuchMat") == -1);
}

/* A pair of material types without a Cp2 entry: the message names both. */
static void missing_functor_message(void)
{
    uint8_t table[GRIT_MAT_COUNT][GRIT_MAT_COUNT];
    memcpy(table, grit_cp2_table, sizeof table);
    table[0][GRIT_MAT_COUNT - 1] = 0;
    table[GRIT_MAT_COUNT - 1][0] = 0;
    char err[256] = "";
    CHECK(grit_cp2_find(table, 0, GRIT_MAT_COUNT - 1, err, sizeof err) == GRIT_PHYS_NONE);
    CHECK(strstr(err, grit_material_class_name(0)) && strstr(err, grit_material_class_name(GRIT_MAT_COUNT - 1)));
    CHECK(strstr(err, "no physics functor") != NULL);
    printf("  %s\n", err);
}

/* ---- the law of a pair ------------------------------------------------------ */
static int mat_law(grit_scene *s, int law)
{
    grit_frictmat_def m = grit_default_frictmat_def();
    m.young = 1e7;
    m.law = law;
    return fx_must(s, grit_add_frictmat(s, &m), "material");
}

static void pair_laws(void)
{
    grit_scene *s = fx_scene_dt(1e-4);
    const int ie = mat_law(s, GRIT_LAW_IDEALELPL), ku = mat_law(s, GRIT_LAW_KUHN), l6 = mat_law(s, GRIT_LAW_LINEL6);
    CHECK(grit_pair_law(s, ie, ie) == GRIT_LAW_IDEALELPL);
    CHECK(grit_pair_law(s, ku, ku) == GRIT_LAW_KUHN);
    CHECK(grit_pair_law(s, ku, ie) == GRIT_LAW_IDEALELPL && grit_pair_law(s, ie, ku) == GRIT_LAW_IDEALELPL);
    CHECK(grit_pair_law(s, ku, l6) == GRIT_LAW_LINEL6); /* the first of the two in GRIT_LAWS */
    grit_pair_def p = grit_default_pair_def();
    p.law = 1 + GRIT_LAW_KUHN;
    CHECK(grit_set_pair(s, ku, ie, &p) == GRIT_OK);
    CHECK(grit_pair_law(s, ie, ku) == GRIT_LAW_KUHN);
    p.law = 0; /* auto again */
    CHECK(grit_set_pair(s, ku, ie, &p) == GRIT_OK);
    CHECK(grit_pair_law(s, ie, ku) == GRIT_LAW_IDEALELPL);
    CHECK(grit_pair_law(s, ie, 7) == GRIT_EINVAL && strstr(grit_last_error(s), "out of range"));
    int t = grit_get_material_type(s, ku);
    CHECK(t == GRIT_MAT_FRICTMAT);
    grit_frictmat_def back;
    CHECK(grit_get_material(s, ku, &back, sizeof back) == GRIT_OK && back.law == GRIT_LAW_KUHN);
    CHECK(grit_get_material(s, ku, &back, 3) == GRIT_EINVAL && strstr(grit_last_error(s), "bytes"));
    CHECK(grit_get_material_type(s, 9) == GRIT_EINVAL);
    grit_scene_destroy(s);
}

/* ---- mixed scenes ------------------------------------------------------------ */
/* Pairs of spheres (and a sphere on a wall) driven by imposed velocities,
 * each pair far from the others, so that every contact's force depends on
 * its own path only. `which` selects the pairs of the scene: bit 0 those of
 * material A (Kuhn), bit 1 those of material B (IdealElPl), bit 2 the one
 * between a sphere of A and a wall of B. Records the local force of every
 * contact at every step into F[pair][step]. */
enum { NPAIR = 7, NSTEP = 400 };
typedef struct {
    int ids[NPAIR][2];
    grit_vec3 F[NPAIR][NSTEP];
    int law[NPAIR];
} mixed_run;

static void drive(int which, bool simd, mixed_run *R)
{
    grit_scene_def d = grit_default_scene_def();
    d.dt = 1e-4;
    d.simd = simd;
    d.track_energy = true;
    grit_scene *s = fx_scene(&d);
    const int A = mat_law(s, GRIT_LAW_KUHN), B = mat_law(s, GRIT_LAW_IDEALELPL);
    memset(R, 0, sizeof *R);
    for (int q = 0; q < NPAIR; q++) R->ids[q][0] = R->ids[q][1] = -1;
    const double r = 0.1;
    for (int q = 0; q < NPAIR; q++) {
        const int group = q < 3 ? 0 : (q < 6 ? 1 : 2);
        if (!(which & (1 << group))) continue;
        const grit_vec3 o = v3(3.0 * q, 0, 1.0);
        int a, b;
        if (group < 2) {
            const int m = group == 0 ? A : B;
            a = fx_sphere(s, m, o, r, v3_zero());
            b = fx_sphere(s, m, v3_add(o, v3(0, 0, 0.199)), r, v3_zero());
        } else {
            a = fx_wall(s, B, 2, 0.0, 1);
            b = fx_sphere(s, A, v3(3.0 * q, 0, 0.0995), r, v3_zero());
        }
        grit_set_blocked(s, a, GRIT_BLOCK_ALL);
        grit_set_blocked(s, b, GRIT_BLOCK_ALL);
        R->ids[q][0] = a;
        R->ids[q][1] = b;
    }
    for (int k = 0; k < NSTEP; k++) {
        for (int q = 0; q < NPAIR; q++) {
            if (R->ids[q][1] < 0) continue;
            /* a path into sliding that turns, different for each pair */
            const double ph = 0.7 * (q % 3), t = k * 1e-4; /* pairs q and q + 3: one path, two laws */
            grit_set_vel(s, R->ids[q][1], v3(0.1 * cos(30 * t + ph), 0.08 * sin(20 * t + ph), 0.002 * sin(50 * t)));
            grit_set_angvel(s, R->ids[q][1], v3(0.3 * sin(10 * t + ph), 0, 0.2 * cos(15 * t)));
        }
        CHECK(grit_step(s, 1) == GRIT_OK);
        for (int q = 0; q < NPAIR; q++) {
            if (R->ids[q][1] < 0) continue;
            int c = grit_contact_find(s, R->ids[q][0], R->ids[q][1]);
            CHECK(c >= 0);
            if (c < 0) continue;
            grit_contact_info ci;
            grit_contact_get(s, c, &ci);
            R->F[q][k] = ci.force;
        }
    }
    const grit_contacts *C = &s->c;
    for (int k = 0; k < C->n; k++)
        for (int q = 0; q < NPAIR; q++) {
            int ia = grit_idx(s, R->ids[q][0]), ib = grit_idx(s, R->ids[q][1]);
            if ((C->pair[k].a == ia && C->pair[k].b == ib) || (C->pair[k].a == ib && C->pair[k].b == ia))
                R->law[q] = C->pair[k].law;
        }
    grit_scene_destroy(s);
}

static void mixed_laws_match_alone(void)
{
    static mixed_run all, alone_a, alone_b, alone_w;
    for (int simd = 0; simd < 2; simd++) {
        drive(7, simd, &all);
        drive(1, simd, &alone_a);
        drive(2, simd, &alone_b);
        drive(4, simd, &alone_w);
        int slipping = 0, diff = 0;
        for (int q = 0; q < NPAIR; q++) {
            const mixed_run *ref = q < 3 ? &alone_a : (q < 6 ? &alone_b : &alone_w);
            CHECK(all.law[q] == (q < 3 ? GRIT_LAW_KUHN : GRIT_LAW_IDEALELPL));
            for (int k = 0; k < NSTEP; k++) {
                diff += memcmp(&all.F[q][k], &ref->F[q][k], sizeof(grit_vec3)) != 0;
                /* the path reaches the friction limit (0.5 |fx|) */
                slipping += hypot(all.F[q][k].y, all.F[q][k].z) >= 0.5 * fabs(all.F[q][k].x) * (1 - 1e-9);
            }
        }
        CHECK(diff == 0);
        CHECK(slipping > 100);
        /* Kuhn's and IdealElPl's forces differ on the same path (otherwise
         * this test could not tell the laws apart) */
        double d = 0;
        for (int k = 0; k < NSTEP; k++) d = fmax(d, v3_norm(v3_sub(all.F[0][k], all.F[3][k])));
        CHECK(d > 1e-6);
        printf("  simd %d: %d contacts x %d steps identical to their scenes alone (Kuhn and IdealElPl), %d slipping "
               "steps, Kuhn vs IdealElPl on one path differ by up to %.3g N\n",
               simd, NPAIR, NSTEP, slipping, d);
    }
}

int main(void)
{
    RUN(tables_complete);
    RUN(missing_functor_message);
    RUN(pair_laws);
    RUN(mixed_laws_match_alone);
    TEST_MAIN_END();
}
