/* Particle outlets (grit/outlet.h, docs/outlets.md): deleting the top
 * layer of a settled bed leaves every other contact's state byte for byte
 * and every other particle as it was; ids stay stable and are not reused;
 * the deleted mass plus the remaining one is the initial mass; the energy
 * balance stays closed through deletions (the linear law, the hertz law
 * with rolling resistance); a restart while particles are being deleted
 * continues bitwise; clumps go whole by their centre of mass, the clump
 * table compacted, the other contacts byte for byte, the mass and the
 * balance kept; errors. */
#include <string.h>

#include "core/scene_impl.h"
#include "core/storage.h"
#include "fixture.h"
#include "grit/clump.h"
#include "grit/io.h"
#include "grit/outlet.h"
#include "grit/restart.h"

static const double R = 1e-3, L = 8e-3;

static int material(grit_scene *s, bool hertz)
{
    if (hertz) {
        grit_hertzmat_def m = grit_default_hertzmat_def();
        m.young = 1e8;
        m.restitution = 0.5;
        m.rolling = GRIT_ROLLING_EPSD;
        m.mu_roll = 0.1;
        return fx_must(s, grit_add_hertzmat(s, &m), "HertzMat");
    }
    grit_frictmat_def m = grit_default_frictmat_def();
    m.young = 1e7;
    m.tan_phi = 0.5;
    return fx_must(s, grit_add_frictmat(s, &m), "FrictMat");
}

/* A bed of 4 x 4 x 6 spheres in a square box of walls, settled under
 * gravity with some damping (deterministic: the same call makes the same
 * scene). */
static grit_scene *bed(bool hertz, long settle)
{
    grit_scene_def d = grit_default_scene_def();
    d.dt = 2e-6;
    d.track_energy = true;
    d.gravity = v3(0, 0, -9.81);
    d.damping = 0.2;
    grit_scene *s = fx_scene(&d);
    const int m = material(s, hertz);
    fx_wall(s, m, 2, 0.0, 1);
    fx_wall(s, m, 0, 0.0, 1);
    fx_wall(s, m, 0, L, -1);
    fx_wall(s, m, 1, 0.0, 1);
    fx_wall(s, m, 1, L, -1);
    unsigned long long seed = 7;
    for (int k = 0; k < 6; k++)
        for (int j = 0; j < 4; j++)
            for (int i = 0; i < 4; i++) {
                /* draws in GCC's order, last argument first (fixture.h, fx_rand) */
                const double jy = 1e-5 * fx_rand(&seed), jx = 1e-5 * fx_rand(&seed);
                const grit_vec3 x = v3((2 * i + 1) * R + jx, (2 * j + 1) * R + jy, (2 * k + 1.01) * R * 1.0);
                fx_sphere(s, m, x, R * (0.97 + 0.02 * fx_rand(&seed)), v3_zero());
            }
    fx_must(s, grit_step(s, settle), "settle");
    return s;
}

static grit_outlet_def top_box(double zcut)
{
    grit_outlet_def o = grit_default_outlet_def();
    o.region = GRIT_REGION_BOX;
    o.lo = v3(-1, -1, zcut);
    o.hi = v3(1, 1, 1);
    return o;
}

static double live_mass(const grit_scene *s)
{
    double m = 0;
    for (int i = 0; i < s->b.n; i++) /* a clump's mass is its body's; members repeat it */
        if (isfinite(s->b.mi[i].m) && !(s->b.flags[i] & PF_MEMBER)) m += s->b.mi[i].m;
    return m;
}

/* ---- the remaining contacts and particles as they were ----------------------------------- */
static void contacts_identical(void)
{
    grit_scene *a = bed(false, 12000), *b = bed(false, 12000);
    const double zcut = 8 * R;
    CHECK(grit_add_outlet(b, &(grit_outlet_def){0}) < 0); /* an empty box */
    CHECK(grit_add_outlet(b, &(grit_outlet_def){.region = GRIT_REGION_BOX, .lo = top_box(zcut).lo,
                                                 .hi = top_box(zcut).hi}) == 0);
    const long rebuilds = b->stats.rebuilds;
    CHECK(grit_outlets_run(b) == GRIT_OK); /* what the next step does first */
    CHECK(b->stats.rebuilds == rebuilds);  /* no rebuild needed */
    /* the particles inside went, the others stay, with their ids */
    int gone = 0, cut_contacts = 0;
    double gone_mass = 0;
    for (int i = 0; i < a->b.n; i++) {
        const bool in = isfinite(a->b.mi[i].m) && a->b.pr[i].pos.z >= zcut;
        const int id = a->b.id[i], j = grit_idx(b, id);
        gone += in;
        if (in) {
            gone_mass += a->b.mi[i].m;
            CHECK(j < 0);
            continue;
        }
        CHECK(j >= 0);
        if (j < 0) continue;
        CHECK(!memcmp(&a->b.pr[i], &b->b.pr[j], sizeof a->b.pr[i]) && !memcmp(&a->b.vw[i], &b->b.vw[j], sizeof a->b.vw[i]));
    }
    grit_outlet_info info;
    CHECK(grit_outlet_get(b, 0, NULL, &info) == GRIT_OK);
    printf("  deleted %d of %d spheres above z = %g (%ld, %.6g kg)\n", gone, grit_particle_count(a) - 5, zcut,
           info.count, info.mass);
    CHECK(gone >= 16 && info.count == gone && info.mass == gone_mass);
    CHECK(grit_particle_count(b) == grit_particle_count(a) - gone);
    CHECK(grit_particle_id_end(b) == grit_particle_id_end(a));
    /* the contacts: the same list without the deleted particles' ones, each byte for byte */
    int k2 = 0, same = 0;
    for (int k = 0; k < a->c.n; k++) {
        const grit_pair *p = &a->c.pair[k];
        if (grit_idx(b, a->b.id[p->a]) < 0 || grit_idx(b, a->b.id[p->b]) < 0) {
            cut_contacts += (p->flags & CF_REAL) != 0;
            continue;
        }
        CHECK(k2 < b->c.n);
        if (k2 >= b->c.n) break;
        const grit_pair *q = &b->c.pair[k2];
        const bool ok = b->b.id[q->a] == a->b.id[p->a] && b->b.id[q->b] == a->b.id[p->b] && q->kind == p->kind &&
                        q->flags == p->flags && q->law == p->law &&
                        (!(p->flags & CF_REAL) ||
                         (!memcmp(&a->c.geom[k], &b->c.geom[k2], sizeof a->c.geom[k]) &&
                          !memcmp(&a->c.phys[k], &b->c.phys[k2], sizeof a->c.phys[k]) &&
                          !memcmp(&a->c.cold[k], &b->c.cold[k2], sizeof a->c.cold[k]) &&
                          (a->c.ext_n == 0 || !memcmp(a->c.ext + (size_t)k * a->c.ext_n, b->c.ext + (size_t)k2 * b->c.ext_n,
                                                      sizeof(double) * (size_t)a->c.ext_n))));
        same += ok;
        k2++;
    }
    CHECK(k2 == b->c.n && same == k2);
    printf("  %d contacts kept byte for byte, %d cut\n", same, cut_contacts);
    CHECK(cut_contacts > 0);
    /* ids are not reused */
    grit_sphere_def sd = grit_default_sphere_def();
    sd.pos = v3(L / 2, L / 2, 20 * R);
    sd.radius = R;
    CHECK(grit_add_sphere(b, &sd) == grit_particle_id_end(a));
    CHECK(grit_step(b, 200) == GRIT_OK);
    grit_scene_destroy(a);
    grit_scene_destroy(b);
}

/* ---- mass and energy through a continuous outflow ---------------------------------------- */
/* The bed with its floor replaced by an outlet: the spheres fall through. */
static void drain(bool hertz)
{
    grit_scene *s = bed(hertz, 2500);
    const double m0 = live_mass(s);
    const double err0 = grit_energy_rel_error(s);
    grit_outlet_def o = grit_default_outlet_def();
    o.region = GRIT_REGION_CYLINDER; /* under a hole of radius 2.5 R at the floor's centre */
    o.center = v3(L / 2, L / 2, -5 * R);
    o.radius = 2.5 * R;
    o.height = 5 * R + 1.5 * R;
    CHECK(grit_add_outlet(s, &o) == 0);
    double worst = fabs(err0);
    long count = 0;
    for (int k = 0; k < 40; k++) {
        CHECK(grit_step(s, 500) == GRIT_OK);
        grit_outlet_info info;
        grit_outlet_get(s, 0, NULL, &info);
        count = info.count;
        CHECK(fabs(live_mass(s) + info.mass - m0) <= 1e-15 * m0);
        worst = fmax(worst, fabs(grit_energy_rel_error(s)));
    }
    grit_outlet_info info;
    grit_outlet_get(s, 0, NULL, &info);
    printf("  %s: %ld spheres deleted (%.4g kg, %.4g J), remaining + deleted mass - initial %.2g kg, energy "
           "balance error %.2g before, at most %.2g during (entry outlet %.4g J)\n",
           hertz ? "hertz+EPSD" : "linear", count, info.mass, info.energy, live_mass(s) + info.mass - m0, err0, worst,
           grit_energy(s, GRIT_E_OUTLET));
    CHECK(count >= 10);
    CHECK(info.energy == grit_energy(s, GRIT_E_OUTLET) && info.energy > 0);
    CHECK(worst <= 2e-3);
    /* the writers walk every id, the deleted ones too: a facet (its mesh is
     * made per id) and the spheres' files are written, and no message of a
     * missing particle is left behind (grit run silo failed at its first
     * frame after the orifice opened: "tessellate: particle id 109 does not
     * exist") */
    grit_facet_def fd = grit_default_facet_def();
    fd.v[0] = v3(0, 0, 1), fd.v[1] = v3(L, 0, 1), fd.v[2] = v3(0, L, 1);
    fd.material = 0;
    CHECK(grit_add_facet(s, &fd) >= 0);
    const char *files[4] = {"test_outlet_shapes.vtp", "test_outlet_particles.vtp", "test_outlet_contacts.vtp",
                            "test_outlet.csv"};
    for (int f = 0; f < 2; f++) {
        const grit_vtk_format fmt = f ? GRIT_VTK_ZLIB : GRIT_VTK_ASCII;
        CHECK(grit_vtk_write_shapes(s, files[0], fmt) == GRIT_OK);
        CHECK(grit_vtk_write_particles(s, files[1], fmt) == GRIT_OK);
        CHECK(grit_vtk_write_contacts(s, files[2], fmt) == GRIT_OK);
    }
    CHECK(grit_io_save_spheres_csv(s, files[3]) == GRIT_OK);
    CHECK(strstr(grit_last_error(s), "does not exist") == NULL);
    printf("  after the deletions: shapes, particles, contacts VTK and the spheres' CSV written (last message: "
           "'%s')\n", grit_last_error(s));
    for (int f = 0; f < 4; f++) remove(files[f]);
    grit_scene_destroy(s);
}

/* Deleting particles in contact keeps the balance: the same bed with and
 * without the top layer cut, the balance's change over the steps after. */
static void energy_at_deletion(bool hertz)
{
    grit_scene *a = bed(hertz, 12000), *b = bed(hertz, 12000);
    CHECK(grit_add_outlet(b, &(grit_outlet_def){.region = GRIT_REGION_BOX, .lo = top_box(8 * R).lo,
                                                 .hi = top_box(8 * R).hi}) == 0);
    const double ta = grit_energy_total(a) - grit_energy_initial(a);
    const double tb = grit_energy_total(b) - grit_energy_initial(b);
    CHECK(ta == tb);
    CHECK(grit_step(a, 1) == GRIT_OK && grit_step(b, 1) == GRIT_OK);
    grit_outlet_info info;
    grit_outlet_get(b, 0, NULL, &info);
    const double da = grit_energy_total(a) - grit_energy_initial(a) - ta;
    const double db = grit_energy_total(b) - grit_energy_initial(b) - tb;
    const double scale = fabs(grit_energy(b, GRIT_E_GRAV)) + info.energy;
    printf("  %s: %ld deleted with %.4g J; the balance moved %.3g J over that step (%.3g J without the "
           "deletion), scale %.3g J\n",
           hertz ? "hertz+EPSD" : "linear", info.count, info.energy, db, da, scale);
    CHECK(info.count >= 16 && info.energy > 0);
    CHECK(fabs(db) <= 1e-9 * scale + 10 * fabs(da));
    grit_scene_destroy(a);
    grit_scene_destroy(b);
}

static void balance_linear(void) { drain(false); energy_at_deletion(false); }
static void balance_hertz(void) { drain(true); energy_at_deletion(true); }

/* ---- restart while particles leave ------------------------------------------------------- */
static void restart_bitwise(void)
{
    grit_scene *a = bed(false, 2000);
    grit_outlet_def o = grit_default_outlet_def();
    o.region = GRIT_REGION_CYLINDER;
    o.center = v3(L / 2, L / 2, -5 * R);
    o.radius = 2.5 * R;
    o.height = 6.5 * R;
    CHECK(grit_add_outlet(a, &o) == 0);
    CHECK(grit_step(a, 6000) == GRIT_OK);
    grit_outlet_info ia, ib;
    grit_outlet_get(a, 0, NULL, &ia);
    CHECK(ia.count > 0);
    CHECK(grit_save(a, "test_outlet.grit") == GRIT_OK);
    grit_scene *b = grit_scene_load("test_outlet.grit");
    CHECK(b != NULL);
    if (!b) return;
    CHECK(grit_step(a, 8000) == GRIT_OK && grit_step(b, 8000) == GRIT_OK);
    grit_outlet_get(a, 0, NULL, &ia);
    grit_outlet_get(b, 0, NULL, &ib);
    bool same = grit_particle_count(a) == grit_particle_count(b) && grit_particle_id_end(a) == grit_particle_id_end(b) &&
                ia.count == ib.count && ia.mass == ib.mass && ia.energy == ib.energy;
    for (int id = 0; id < grit_particle_id_end(a) && same; id++) {
        const int i = grit_idx(a, id), j = grit_idx(b, id);
        same = (i < 0) == (j < 0) &&
               (i < 0 || (!memcmp(&a->b.pr[i], &b->b.pr[j], sizeof a->b.pr[i]) &&
                          !memcmp(&a->b.vw[i], &b->b.vw[j], sizeof a->b.vw[i])));
    }
    for (int e = 0; e < GRIT_E_COUNT; e++) same = same && grit_energy(a, e) == grit_energy(b, e);
    printf("  continued from step 8000 to 16000: %ld deleted in all, %d left, identical: %s\n", ia.count,
           grit_particle_count(a) - 5, same ? "yes" : "no");
    CHECK(same);
    remove("test_outlet.grit");
    grit_scene_destroy(a);
    grit_scene_destroy(b);
}

/* ---- clumps ------------------------------------------------------------------------------- */
/* `ns` layers of 4 x 4 spheres under `nc` layers of 2 x 4 two-sphere clumps
 * (members at -R and +R along x) in the box of bed(), settled. */
static grit_scene *clump_bed(int ns, int nc, long settle)
{
    grit_scene_def d = grit_default_scene_def();
    d.dt = 2e-6;
    d.track_energy = true;
    d.gravity = v3(0, 0, -9.81);
    d.damping = 0.2;
    grit_scene *s = fx_scene(&d);
    const int m = material(s, false);
    fx_wall(s, m, 2, 0.0, 1);
    fx_wall(s, m, 0, 0.0, 1);
    fx_wall(s, m, 0, L, -1);
    fx_wall(s, m, 1, 0.0, 1);
    fx_wall(s, m, 1, L, -1);
    unsigned long long seed = 11;
    for (int k = 0; k < ns; k++)
        for (int j = 0; j < 4; j++)
            for (int i = 0; i < 4; i++) {
                /* draws in GCC's order, last argument first (fixture.h, fx_rand) */
                const double ri = R * (0.97 + 0.02 * fx_rand(&seed)), jy = 1e-5 * fx_rand(&seed),
                             jx = 1e-5 * fx_rand(&seed);
                fx_sphere(s, m, v3((2 * i + 1) * R + jx, (2 * j + 1) * R + jy, (2 * k + 1.01) * R), ri, v3_zero());
            }
    const grit_vec3 c[2] = {v3(-R, 0, 0), v3(R, 0, 0)};
    for (int k = ns; k < ns + nc; k++)
        for (int j = 0; j < 4; j++)
            for (int i = 0; i < 2; i++) {
                const double r[2] = {R * (0.97 + 0.02 * fx_rand(&seed)), R * (0.97 + 0.02 * fx_rand(&seed))};
                grit_clump_def cd = grit_default_clump_def();
                cd.n = 2;
                cd.centers = c;
                cd.radii = r;
                cd.material = m;
                const double jy = 1e-5 * fx_rand(&seed), jx = 1e-5 * fx_rand(&seed); /* GCC's order */
                cd.pos = v3((4 * i + 2) * R + jx, (2 * j + 1) * R + jy, (2 * k + 1.01) * R);
                fx_must(s, grit_add_clump(s, &cd), "clump");
            }
    fx_must(s, grit_step(s, settle), "settle");
    return s;
}

/* Whether every clump of s names its body and members back (what the
 * restart loader checks) and its rows are the compacted ones. */
static bool clump_table_ok(const grit_scene *s)
{
    int rows = 0;
    for (int c = 0; c < s->n_clumps; c++) {
        const grit_clump_data *d = &s->clumps[c];
        if (d->first != rows) return false;
        rows += d->n;
        for (int k = 0; k <= d->n; k++) {
            const int i = grit_idx(s, d->body + k);
            if (i < 0 || s->b.sidx[i] != c || (k == 0) != (s->b.shape[i] == GRIT_SHAPE_CLUMP)) return false;
        }
    }
    return rows == s->n_clump_loc;
}

/* Clumps whose centre of mass is in the region go whole; the clump table is
 * compacted; every remaining particle and contact is as it was, byte for
 * byte (surviving clumps' members lose contacts with deleted ones); the
 * mass adds up; the balance stays closed over the step after. */
static void clumps_deleted(void)
{
    grit_scene *a = clump_bed(3, 2, 12000), *b = clump_bed(3, 2, 12000);
    /* between the clump layers: the top one's centres are above, the lower's below */
    double zlo = INFINITY, zhi = -INFINITY;
    for (int c = 0; c < a->n_clumps; c++) {
        const double z = a->b.pr[grit_idx(a, a->clumps[c].body)].pos.z;
        if (c < 8) zlo = fmin(zlo, z), zhi = fmax(zhi, z);
    }
    double ztop = INFINITY;
    for (int c = 8; c < a->n_clumps; c++) ztop = fmin(ztop, a->b.pr[grit_idx(a, a->clumps[c].body)].pos.z);
    const double zcut = 0.5 * (zhi + ztop);
    printf("  lower clumps' centres z in [%.4g, %.4g] mm, upper from %.4g mm: cut at %.4g mm\n", 1e3 * zlo, 1e3 * zhi,
           1e3 * ztop, 1e3 * zcut);
    CHECK(zhi < ztop);
    const double m0 = live_mass(b);
    const double ta = grit_energy_total(a) - grit_energy_initial(a);
    const double tb = grit_energy_total(b) - grit_energy_initial(b);
    CHECK(grit_add_outlet(b, &(grit_outlet_def){.region = GRIT_REGION_BOX, .lo = top_box(zcut).lo,
                                                 .hi = top_box(zcut).hi}) == 0);
    CHECK(grit_outlets_run(b) == GRIT_OK);
    grit_outlet_info info;
    CHECK(grit_outlet_get(b, 0, NULL, &info) == GRIT_OK);
    CHECK(info.count == 8 && grit_get_clump_count(b) == 8 && grit_get_clump_count(a) == 16);
    CHECK(grit_particle_count(b) == grit_particle_count(a) - 8 * 3);
    CHECK(clump_table_ok(b));
    CHECK(fabs(live_mass(b) + info.mass - m0) <= 1e-15 * m0); /* sums in another order */
    double clump_mass = 0;
    for (int c = 8; c < 16; c++) clump_mass += a->b.mi[grit_idx(a, a->clumps[c].body)].m;
    CHECK(info.mass == clump_mass);
    printf("  %ld clumps deleted (%.6g kg; remaining + deleted - initial = %.3g kg), clump table %d -> %d\n",
           info.count, info.mass, live_mass(b) + info.mass - m0, grit_get_clump_count(a), grit_get_clump_count(b));
    /* the remaining particles, as they were, and the surviving clumps' geometry */
    int kept = 0;
    for (int i = 0; i < a->b.n; i++) {
        const int j = grit_idx(b, a->b.id[i]);
        if (j < 0) continue;
        kept += !memcmp(&a->b.pr[i], &b->b.pr[j], sizeof a->b.pr[i]) && !memcmp(&a->b.vw[i], &b->b.vw[j], sizeof a->b.vw[i]);
    }
    CHECK(kept == grit_particle_count(b));
    for (int c = 0; c < 8; c++) {
        grit_vec3 la, lb;
        double ra, rb;
        CHECK(grit_get_clump_member(a, a->clumps[c].body, 1, &la, &ra) == GRIT_OK &&
              grit_get_clump_member(b, a->clumps[c].body, 1, &lb, &rb) == GRIT_OK && !memcmp(&la, &lb, sizeof la) &&
              ra == rb);
    }
    /* the contacts */
    int k2 = 0, same = 0, cut = 0, cut_clump_clump = 0;
    for (int k = 0; k < a->c.n; k++) {
        const grit_pair *p = &a->c.pair[k];
        const bool ga = grit_idx(b, a->b.id[p->a]) < 0, gb = grit_idx(b, a->b.id[p->b]) < 0;
        if (ga || gb) {
            cut += (p->flags & CF_REAL) != 0;
            cut_clump_clump += (p->flags & CF_REAL) && ga != gb && (a->b.flags[p->a] & PF_MEMBER) &&
                               (a->b.flags[p->b] & PF_MEMBER);
            continue;
        }
        if (k2 >= b->c.n) break;
        const grit_pair *q = &b->c.pair[k2];
        same += b->b.id[q->a] == a->b.id[p->a] && b->b.id[q->b] == a->b.id[p->b] && q->flags == p->flags &&
                (!(p->flags & CF_REAL) || (!memcmp(&a->c.geom[k], &b->c.geom[k2], sizeof a->c.geom[k]) &&
                                           !memcmp(&a->c.phys[k], &b->c.phys[k2], sizeof a->c.phys[k]) &&
                                           !memcmp(&a->c.cold[k], &b->c.cold[k2], sizeof a->c.cold[k])));
        k2++;
    }
    printf("  %d contacts kept byte for byte of %d, %d real ones cut (%d between a deleted and a kept clump)\n", same,
           b->c.n, cut, cut_clump_clump);
    CHECK(k2 == b->c.n && same == b->c.n && cut_clump_clump > 0);
    /* the balance over the step after (the entries of particles and
     * contacts are booked anew in it), against the same step without the deletion */
    CHECK(grit_step(a, 1) == GRIT_OK && grit_step(b, 1) == GRIT_OK);
    const double da = grit_energy_total(a) - grit_energy_initial(a) - ta;
    const double db = grit_energy_total(b) - grit_energy_initial(b) - tb;
    const double scale = fabs(grit_energy(b, GRIT_E_GRAV)) + info.energy;
    printf("  %.4g J left with them (entry outlet %.4g J); the balance moved %.3g J over that step (%.3g J "
           "without the deletion), scale %.3g J\n",
           info.energy, grit_energy(b, GRIT_E_OUTLET), db, da, scale);
    CHECK(info.energy > 0 && info.energy == grit_energy(b, GRIT_E_OUTLET));
    CHECK(fabs(db) <= 1e-9 * scale + 10 * fabs(da));
    /* the compacted scene runs on and saves */
    CHECK(grit_step(b, 500) == GRIT_OK && clump_table_ok(b));
    CHECK(grit_save(b, "test_outlet_clumps.grit") == GRIT_OK);
    grit_scene *c = grit_scene_load("test_outlet_clumps.grit");
    CHECK(c != NULL && grit_get_clump_count(c) == 8);
    grit_scene_destroy(c);
    remove("test_outlet_clumps.grit");
    grit_scene_destroy(a);
    grit_scene_destroy(b);
}

/* Clumps draining through a hole: the mass adds up exactly at every look,
 * the balance stays closed, a clump half inside (centre of mass out) stays. */
static void clumps_drain(void)
{
    grit_scene *s = clump_bed(0, 3, 2500);
    const double m0 = live_mass(s);
    const double err0 = grit_energy_rel_error(s);
    grit_outlet_def o = grit_default_outlet_def();
    o.region = GRIT_REGION_CYLINDER;
    o.center = v3(L / 2, L / 2, -5 * R);
    o.radius = 2.5 * R;
    o.height = 5 * R + 1.5 * R;
    CHECK(grit_add_outlet(s, &o) == 0);
    double worst = fabs(err0), worst_mass = 0;
    bool whole = true;
    for (int k = 0; k < 40; k++) {
        CHECK(grit_step(s, 500) == GRIT_OK);
        grit_outlet_info info;
        grit_outlet_get(s, 0, NULL, &info);
        worst_mass = fmax(worst_mass, fabs(live_mass(s) + info.mass - m0));
        worst = fmax(worst, fabs(grit_energy_rel_error(s)));
        whole = whole && clump_table_ok(s);
    }
    grit_outlet_info info;
    grit_outlet_get(s, 0, NULL, &info);
    const int clumps_gone = 24 - grit_get_clump_count(s);
    printf("  %ld deleted (%d clumps, %.4g kg, %.4g J), |remaining + deleted - initial| at most %.2g kg of %.4g kg, "
           "energy balance error %.2g before, at most %.2g during\n",
           info.count, clumps_gone, info.mass, info.energy, worst_mass, m0, err0, worst);
    CHECK(clumps_gone >= 1 && whole);
    CHECK(worst_mass <= 1e-15 * m0);
    CHECK(info.energy == grit_energy(s, GRIT_E_OUTLET) && info.energy > 0);
    CHECK(worst <= 2e-3);
    grit_scene_destroy(s);
}

/* The rule is the centre of mass: a long clump lying across the region's
 * boundary with its centre outside stays, members inside and all; moved in,
 * it goes with its members. */
static void clump_rule(void)
{
    grit_scene_def d = grit_default_scene_def();
    d.dt = 2e-6;
    grit_scene *s = fx_scene(&d);
    const int m = material(s, false);
    const grit_vec3 c[3] = {v3(-2 * R, 0, 0), v3(0, 0, 0), v3(2 * R, 0, 0)};
    const double r[3] = {R, R, R};
    grit_clump_def cd = grit_default_clump_def();
    cd.n = 3;
    cd.centers = c;
    cd.radii = r;
    cd.material = m;
    cd.pos = v3(-0.5 * R, 0, 0); /* the right member's centre at x = 1.5 R is inside x >= 0, the body is not */
    const int body = grit_add_clump(s, &cd);
    CHECK(body >= 0);
    grit_outlet_def o = grit_default_outlet_def();
    o.lo = v3(0, -1, -1);
    o.hi = v3(1, 1, 1);
    CHECK(grit_add_outlet(s, &o) == 0);
    CHECK(grit_step(s, 3) == GRIT_OK);
    CHECK(grit_particle_count(s) == 4 && grit_get_clump_count(s) == 1);
    CHECK(grit_set_pos(s, body, v3(0.5 * R, 0, 0)) == GRIT_OK);
    CHECK(grit_step(s, 3) == GRIT_OK);
    grit_outlet_info info;
    CHECK(grit_outlet_get(s, 0, NULL, &info) == GRIT_OK);
    CHECK(grit_particle_count(s) == 0 && grit_get_clump_count(s) == 0 && info.count == 1);
    for (int k = 0; k <= 3; k++) CHECK(grit_idx(s, body + k) < 0);
    CHECK(grit_get_clump(s, body, NULL, NULL) == GRIT_EINVAL);
    grit_scene_destroy(s);
}

static void errors(void)
{
    grit_scene *s = fx_scene_dt(1e-5);
    grit_outlet_def o = grit_default_outlet_def();
    o.lo = v3(0, 0, 0);
    o.hi = v3(1, 1, NAN);
    CHECK(grit_add_outlet(s, &o) == GRIT_EINVAL && strstr(grit_last_error(s), "box"));
    o.region = GRIT_REGION_CYLINDER;
    o.radius = -1;
    o.height = 1;
    CHECK(grit_add_outlet(s, &o) == GRIT_EINVAL && strstr(grit_last_error(s), "cylinder"));
    o.region = 7;
    CHECK(grit_add_outlet(s, &o) == GRIT_EINVAL && strstr(grit_last_error(s), "region = 7"));
    CHECK(grit_outlet_count(s) == 0);
    CHECK(grit_outlet_get(s, 0, NULL, NULL) == GRIT_EINVAL);
    grit_scene_destroy(s);
}

int main(void)
{
    RUN(contacts_identical);
    RUN(balance_linear);
    RUN(balance_hertz);
    RUN(restart_bitwise);
    RUN(clumps_deleted);
    RUN(clumps_drain);
    RUN(clump_rule);
    RUN(errors);
    TEST_MAIN_END();
}
