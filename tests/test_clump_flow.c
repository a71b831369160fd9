/* Clumps through inlets and outlets (grit/inlet.h, grit/outlet.h,
 * docs/inlets.md, docs/outlets.md): an inlet with clump templates inserts
 * whole clumps inside its region, overlapping nothing, at its mass rate,
 * each template by its mass fraction, turned uniformly at random; with an
 * outlet deleting them the remaining mass plus the deleted one is the
 * inserted one and the energy balance stays closed; a restart while clumps
 * pour in and leave continues bitwise; templates scaled by a size
 * distribution and spinning at the inlet's angular velocity are their
 * templates scaled and bring their rotational energy; bad templates and
 * scales are refused naming the field and the value. */
#include <string.h>

#include "core/scene_impl.h"
#include "core/storage.h"
#include "fixture.h"
#include "grit/clump.h"
#include "grit/inlet.h"
#include "grit/outlet.h"
#include "grit/restart.h"

static const double RHO = 2500, R = 1e-3;

/* two templates: a dumbbell of overlapping spheres, a triangle of three */
static const grit_vec3 DUMB_C[2] = {{-0.6e-3, 0, 0}, {0.6e-3, 0, 0}};
static const double DUMB_R[2] = {1e-3, 1e-3};
static const grit_vec3 TRI_C[3] = {{0, 0, 0}, {1.6e-3, 0, 0}, {0.8e-3, 1.4e-3, 0}};
static const double TRI_R[3] = {0.8e-3, 0.8e-3, 0.7e-3};

/* the scene under gravity and its material */
static grit_scene *scene(int *m) { return fx_gravity_scene(1e-5, RHO, 1e7, 0.4, m); }

static grit_inlet_def clump_inlet(int m)
{
    grit_inlet_def d = grit_default_inlet_def();
    d.region = GRIT_REGION_BOX;
    d.lo = v3(0, 0, 0.02);
    d.hi = v3(0.02, 0.02, 0.035);
    d.mass_rate = 0.1;
    d.material = m;
    d.vel = v3(0.1, 0, -0.5);
    d.seed = 5;
    d.n_clumps = 2;
    d.clumps[0] = (grit_inlet_clump){2, DUMB_C, DUMB_R, 0.4};
    d.clumps[1] = (grit_inlet_clump){3, TRI_C, TRI_R, 0.6};
    return d;
}

/* the mass of the live particles: clump bodies and free spheres */
static double live_mass(const grit_scene *s)
{
    double m = 0;
    for (int i = 0; i < s->b.n; i++)
        if (isfinite(s->b.mi[i].m) && !(s->b.flags[i] & PF_MEMBER)) m += s->b.mi[i].m;
    return m;
}

/* Members of the clumps with ids from first on: how many lie outside the
 * box (by their sphere) or overlap another sphere or a floor wall at all. */
static int check_new(const grit_scene *s, int first, const grit_inlet_def *d, int *clumps)
{
    int bad = 0;
    for (int id = first; id < grit_particle_id_end(s); id++) {
        const int i = grit_idx(s, id);
        if (i < 0) continue;
        if (s->b.shape[i] == GRIT_SHAPE_CLUMP) {
            ++*clumps;
            continue;
        }
        const grit_vec3 x = s->b.pr[i].pos;
        const double r = s->b.pr[i].r;
        bad += x.x - r < d->lo.x || x.x + r > d->hi.x || x.y - r < d->lo.y || x.y + r > d->hi.y || x.z - r < d->lo.z ||
               x.z + r > d->hi.z;
        for (int j = 0; j < s->b.n; j++) {
            if (j == i) continue;
            if (s->b.shape[j] == GRIT_SHAPE_SPHERE) {
                if ((s->b.flags[j] & PF_MEMBER) && s->b.sidx[j] == s->b.sidx[i]) continue; /* its own clump */
                bad += v3_norm(v3_sub(s->b.pr[j].pos, x)) < r + s->b.pr[j].r;
            } else if (s->b.shape[j] == GRIT_SHAPE_WALL)
                bad += fabs(x.z - s->b.pr[j].pos.z) < r;
        }
    }
    return bad;
}

/* ---- insertion: inside, clear, at the rate, by the fractions, turned at random ------------- */
static void inlet_inserts_clumps(void)
{
    int m;
    grit_scene *s = scene(&m);
    fx_wall(s, m, 2, 0.0, 1);
    const grit_inlet_def d = clump_inlet(m);
    CHECK(grit_add_inlet(s, &d) == 0);
    /* a sphere in the region from the start: nothing may be put on it */
    const int ball = fx_sphere(s, m, v3(0.01, 0.01, 0.03), 3 * R, v3_zero());
    CHECK(grit_set_blocked(s, ball, GRIT_BLOCK_ALL) == GRIT_OK);
    int bad = 0, clumps = 0;
    double worst_lag = 0;
    for (int k = 0; k < 3000; k++) {
        const int first = grit_particle_id_end(s);
        CHECK(grit_inlets_run(s) == GRIT_OK); /* what the step does first: look before anything moves */
        bad += check_new(s, first, &d, &clumps);
        CHECK(grit_step(s, 1) == GRIT_OK);
        grit_inlet_info info;
        grit_inlet_get(s, 0, NULL, &info);
        worst_lag = fmax(worst_lag, fabs(info.mass - d.mass_rate * (grit_time(s) - grit_dt(s))));
    }
    grit_inlet_info info;
    grit_inlet_get(s, 0, NULL, &info);
    /* the templates' shares and the orientations: the dumbbell's axis */
    double mass3 = 0, mass_one[2] = {0, 0}, az = 0;
    int n2 = 0;
    for (int c = 0; c < s->n_clumps; c++) {
        const grit_clump_data *cd = &s->clumps[c];
        const int i = grit_idx(s, cd->body);
        mass_one[cd->n - 2] = s->b.mi[i].m;
        if (cd->n == 3) mass3 += s->b.mi[i].m;
        else {
            const grit_vec3 a = v3_sub(s->b.pr[grit_idx(s, cd->body + 2)].pos, s->b.pr[grit_idx(s, cd->body + 1)].pos);
            az += fabs(a.z) / v3_norm(a);
            n2++;
        }
    }
    printf("  %ld clumps (%d checked at insertion), %.5f kg in %.3f s (largest lag %.2e kg, clumps %.2e/%.2e kg), "
           "triangles %.3f of the mass (0.6), dumbbells' mean |axis z| %.3f (uniform: 0.5), %ld places refused, "
           "%d members outside or overlapping\n",
           info.count, clumps, info.mass, grit_time(s), worst_lag, mass_one[0], mass_one[1], mass3 / info.mass,
           az / n2, info.failed, bad);
    CHECK(bad == 0 && clumps == info.count && info.count == s->n_clumps);
    CHECK(info.count > 100 && info.failed > 0);
    CHECK(worst_lag <= fmax(mass_one[0], mass_one[1]));
    CHECK(fabs(mass3 / info.mass - 0.6) < 0.06);
    CHECK(fabs(az / n2 - 0.5) < 0.08);
    CHECK(grit_particle_count(s) == 2 + (int)(n2 * 3 + (info.count - n2) * 4));
    grit_scene_destroy(s);
}

/* ---- mass and energy in and out ----------------------------------------------------------- */
/* Clumps pour onto a floor; an outlet at the floor's middle deletes those
 * that land there. */
static grit_scene *pour_drain(void)
{
    int m;
    grit_scene *s = scene(&m);
    fx_wall(s, m, 2, 0.0, 1);
    grit_inlet_def d = clump_inlet(m);
    CHECK(grit_add_inlet(s, &d) == 0);
    grit_outlet_def o = grit_default_outlet_def();
    o.region = GRIT_REGION_CYLINDER;
    o.center = v3(0.01, 0.01, -0.01);
    o.radius = 0.006;
    o.height = 0.01 + 1.5 * R;
    CHECK(grit_add_outlet(s, &o) == 0);
    return s;
}

static void mass_energy_in_out(void)
{
    grit_scene *s = pour_drain();
    double worst_mass = 0, worst_e = 0, scale = 0;
    for (int k = 0; k < 80; k++) {
        CHECK(grit_step(s, 100) == GRIT_OK);
        grit_inlet_info in;
        grit_outlet_info out;
        grit_inlet_get(s, 0, NULL, &in);
        grit_outlet_get(s, 0, NULL, &out);
        worst_mass = fmax(worst_mass, fabs(live_mass(s) + out.mass - in.mass) / in.mass);
        worst_e = fmax(worst_e, fabs(grit_energy_rel_error(s)));
    }
    grit_inlet_info in;
    grit_outlet_info out;
    grit_inlet_get(s, 0, NULL, &in);
    grit_outlet_get(s, 0, NULL, &out);
    for (int e = 0; e < GRIT_E_COUNT; e++) scale = fmax(scale, fabs(grit_energy(s, e)));
    printf("  %ld clumps in (%.4e kg, %.4e J), %ld out (%.4e kg, %.4e J), %d left; |remaining + deleted - inserted| "
           "at most %.2g of the inserted mass; energy balance error at most %.2e (largest entry %.3e J)\n",
           in.count, in.mass, in.energy, out.count, out.mass, out.energy, grit_get_clump_count(s), worst_mass, worst_e,
           scale);
    CHECK(in.count > 100 && out.count > 10 && grit_get_clump_count(s) == in.count - out.count);
    CHECK(worst_mass <= 1e-13); /* three sums of ~500 masses in three orders */
    CHECK(-grit_energy(s, GRIT_E_INLET) == in.energy && grit_energy(s, GRIT_E_OUTLET) == out.energy);
    CHECK(worst_e < 5e-3);
    grit_scene_destroy(s);
}

/* ---- restart while clumps pour in and leave ----------------------------------------------- */
static void restart_bitwise(void)
{
    grit_scene *a = pour_drain();
    CHECK(grit_step(a, 4001) == GRIT_OK);
    grit_outlet_info oa, ob;
    grit_outlet_get(a, 0, NULL, &oa);
    CHECK(oa.count > 0);
    grit_scene *b = fx_restart_twin(a, "test_clump_flow.grit", 3000);
    grit_inlet_info ia, ib;
    grit_inlet_get(a, 0, NULL, &ia);
    grit_inlet_get(b, 0, NULL, &ib);
    grit_outlet_get(a, 0, NULL, &oa);
    grit_outlet_get(b, 0, NULL, &ob);
    int diff = grit_particle_count(a) != grit_particle_count(b) || grit_particle_id_end(a) != grit_particle_id_end(b) ||
               grit_get_clump_count(a) != grit_get_clump_count(b);
    for (int id = 0; !diff && id < grit_particle_id_end(a); id++) {
        const int i = grit_idx(a, id), j = grit_idx(b, id);
        diff += (i < 0) != (j < 0);
        if (i < 0 || j < 0) continue;
        diff += memcmp(&a->b.pr[i], &b->b.pr[j], sizeof a->b.pr[i]) != 0 ||
                memcmp(&a->b.vw[i], &b->b.vw[j], sizeof a->b.vw[i]) != 0 ||
                memcmp(&a->b.ori[i], &b->b.ori[j], sizeof a->b.ori[i]) != 0;
    }
    diff += ia.mass != ib.mass || ia.count != ib.count || ia.failed != ib.failed || ia.energy != ib.energy;
    diff += oa.mass != ob.mass || oa.count != ob.count || oa.energy != ob.energy;
    diff += fx_energy_diff(a, b);
    printf("  continued 3000 steps after a restart at step 4001: %s (%ld clumps in, %ld out, %d particles)\n",
           diff ? "DIFFERENT" : "identical", ia.count, oa.count, grit_particle_count(a));
    CHECK(diff == 0 && ia.count > ib.count - 1 && oa.count > 10);
    grit_scene_destroy(a);
    grit_scene_destroy(b);
}

/* ---- scaled, spinning clumps ---------------------------------------------------------------- */
/* The rotational energy 1/2 w.I w of particle i, with the inertia tensor
 * R diag(I) R^T built in global axes: another road than the inlet's (which
 * turns w into the body's axes). */
static double rot_energy(const grit_scene *s, int i, grit_vec3 w)
{
    const grit_vec3 I = s->b.mi[i].inertia;
    grit_vec3 Iw = v3_zero();
    for (int k = 0; k < 3; k++) {
        const grit_vec3 e = q_rotate(s->b.ori[i], v3(k == 0, k == 1, k == 2));
        const double Ik = k == 0 ? I.x : k == 1 ? I.y : I.z;
        Iw = v3_madd(Iw, Ik * v3_dot(e, w), e);
    }
    return 0.5 * v3_dot(w, Iw);
}

static const double SCALES[2] = {0.8, 1.25};

static grit_inlet_def scaled_inlet(int m)
{
    grit_inlet_def d = clump_inlet(m);
    d.n_sizes = 2;
    d.sizes[0] = SCALES[0], d.sizes[1] = SCALES[1];
    d.mass_frac[0] = 0.3, d.mass_frac[1] = 0.7;
    d.angvel = v3(100, -60, 1500);
    d.hi.z = 0.04;
    return d;
}

/* Each clump is its template times one of the scales (every member's radius
 * exactly, the members' distances to 1e-12), the scales take their shares
 * of the mass, every clump lies inside and clear of everything, turns at
 * the inlet's angular velocity and brings 1/2 m v^2 + 1/2 w.I w; a restart
 * while they pour continues bitwise and keeps the angular velocity. */
static void scaled_spinning(void)
{
    int m;
    grit_scene *s = fx_gravity_scene(6e-6, RHO, 1e7, 0.4, &m); /* the scale-0.8 members' critical step: 8.9e-6 s */
    fx_wall(s, m, 2, 0.0, 1);
    const grit_inlet_def d = scaled_inlet(m);
    CHECK(grit_add_inlet(s, &d) == 0);
    /* the templates' masses at scale 1 */
    double m1[2];
    for (int k = 0; k < 2; k++) {
        grit_clump_def cd = grit_default_clump_def();
        cd.n = d.clumps[k].n, cd.centers = d.clumps[k].centers, cd.radii = d.clumps[k].radii, cd.material = m;
        grit_clump_props p;
        CHECK(grit_get_clump_properties(s, &cd, &p) == GRIT_OK);
        m1[k] = p.mass;
    }
    int bad = 0, clumps = 0, odd = 0, spin = 0;
    double big_mass = 0, e_book = 0, worst_mass = 0, worst_dist = 0, worst_e = 0;
    for (int k = 0; k < 3000; k++) {
        const int first = grit_particle_id_end(s);
        CHECK(grit_inlets_run(s) == GRIT_OK);
        bad += check_new(s, first, &d, &clumps);
        for (int id = first; id < grit_particle_id_end(s); id++) {
            const int i = grit_idx(s, id);
            if (i < 0 || s->b.shape[i] != GRIT_SHAPE_CLUMP) continue;
            const grit_clump_data *c = &s->clumps[s->b.sidx[i]];
            const grit_inlet_clump *t = &d.clumps[c->n - 2];
            const int sc = s->b.pr[grit_idx(s, id + 1)].r == t->radii[0] * SCALES[1];
            for (int j = 0; j < c->n; j++) {
                odd += s->b.pr[grit_idx(s, id + 1 + j)].r != t->radii[j] * SCALES[sc];
                const grit_vec3 a = s->b.pr[grit_idx(s, id + 1 + j)].pos, b = s->b.pr[grit_idx(s, id + 1)].pos;
                const double want = SCALES[sc] * v3_norm(v3_sub(t->centers[j], t->centers[0]));
                worst_dist = fmax(worst_dist, fabs(v3_norm(v3_sub(a, b)) - want) / (SCALES[sc] * R));
            }
            const double mass = s->b.mi[i].m;
            worst_mass = fmax(worst_mass, fabs(mass / (m1[c->n - 2] * pow(SCALES[sc], 3)) - 1));
            if (sc) big_mass += mass;
            grit_vec3 w;
            CHECK(grit_get_angvel(s, id, &w) == GRIT_OK);
            spin += w.x != d.angvel.x || w.y != d.angvel.y || w.z != d.angvel.z;
            e_book += 0.5 * mass * v3_norm2(d.vel) + rot_energy(s, i, d.angvel);
        }
        if (grit_step(s, 1) != GRIT_OK) {
            fprintf(stderr, "step %d: %s\n", k, grit_last_error(s));
            CHECK(0);
            break;
        }
        worst_e = fmax(worst_e, fabs(grit_energy_rel_error(s)));
    }
    grit_inlet_info info;
    grit_inlet_get(s, 0, NULL, &info);
    printf("  %ld scaled clumps: scale 1.25 holds %.3f of the mass (0.7), members off their scaled template %d, "
           "distances off by at most %.1e R, masses by %.1e; %d turn at another rate; brought %.6e J (expected "
           "%.6e J); %d members outside or overlapping; energy balance error at most %.2e\n",
           info.count, big_mass / info.mass, odd, worst_dist, worst_mass, spin, info.energy, e_book, bad, worst_e);
    CHECK(info.count > 90 && clumps == info.count && bad == 0 && odd == 0 && spin == 0);
    CHECK(worst_dist < 1e-12 && worst_mass < 1e-3);
    CHECK(fabs(big_mass / info.mass - 0.7) < 0.08);
    CHECK_REL(info.energy, e_book, 1e-12);
    CHECK(-grit_energy(s, GRIT_E_INLET) == info.energy && worst_e < 5e-3);
    /* rotation is most of what they bring: the spin is booked, not only the velocity */
    CHECK(info.energy > 1.5 * 0.5 * info.mass * v3_norm2(d.vel));
    /* continued after a restart: the same clumps at the same rate and spin */
    grit_scene *b = fx_restart_twin(s, "test_clump_flow_scaled.grit", 1500);
    grit_inlet_def back;
    grit_inlet_info ia, ib;
    CHECK(grit_inlet_get(b, 0, &back, &ib) == GRIT_OK && grit_inlet_get(s, 0, NULL, &ia) == GRIT_OK);
    CHECK(back.angvel.x == d.angvel.x && back.angvel.y == d.angvel.y && back.angvel.z == d.angvel.z &&
          back.n_sizes == 2 && back.sizes[1] == SCALES[1]);
    int diff = fx_state_diff(s, b, "scaled clumps continued from the restart file");
    diff += ia.mass != ib.mass || ia.count != ib.count || ia.failed != ib.failed || ia.energy != ib.energy;
    diff += fx_energy_diff(s, b);
    printf("  continued 1500 steps after a restart: %s (%ld clumps)\n", diff ? "DIFFERENT" : "identical", ia.count);
    CHECK(diff == 0 && ia.count > info.count);
    grit_scene_destroy(b);
    grit_scene_destroy(s);
}

/* ---- errors ------------------------------------------------------------------------------- */
static void errors(void)
{
    int m;
    grit_scene *s = scene(&m);
    const grit_inlet_def d = clump_inlet(m);
    grit_inlet_def bad = d;
    bad.clumps[1].n = 0; /* empty */
    CHECK(grit_add_inlet(s, &bad) == GRIT_EINVAL && strstr(grit_last_error(s), "clump template 1: n = 0 members"));
    printf("  %s\n", grit_last_error(s));
    bad = d;
    const double neg[3] = {0.8e-3, -1e-3, 0.7e-3};
    bad.clumps[1].radii = neg;
    CHECK(grit_add_inlet(s, &bad) == GRIT_EINVAL &&
          strstr(grit_last_error(s), "clump template 1: member 1: radius = -0.001 must be positive"));
    printf("  %s\n", grit_last_error(s));
    const double zero[2] = {1e-3, 0};
    bad.clumps[1] = (grit_inlet_clump){2, DUMB_C, zero, 1};
    CHECK(grit_add_inlet(s, &bad) == GRIT_EINVAL && strstr(grit_last_error(s), "member 1: radius = 0"));
    bad = d;
    bad.hi = v3(0.02, 0.02, 0.0232); /* 3.2 mm high: the triangle reaches 1.7 mm from its centre of mass */
    CHECK(grit_add_inlet(s, &bad) == GRIT_EINVAL && strstr(grit_last_error(s), "hold a clump template 1"));
    printf("  %s\n", grit_last_error(s));
    bad = d;
    bad.region = GRIT_REGION_CYLINDER;
    bad.center = v3(0, 0, 0);
    bad.radius = 1.5e-3;
    bad.height = 0.1;
    CHECK(grit_add_inlet(s, &bad) == GRIT_EINVAL && strstr(grit_last_error(s), "cylinder") &&
          strstr(grit_last_error(s), "clump template"));
    printf("  %s\n", grit_last_error(s));
    bad = d;
    bad.clumps[0].mass_frac = bad.clumps[1].mass_frac = 0;
    CHECK(grit_add_inlet(s, &bad) == GRIT_EINVAL && strstr(grit_last_error(s), "mass fractions add up to 0"));
    bad = d;
    bad.clumps[0].mass_frac = -1;
    CHECK(grit_add_inlet(s, &bad) == GRIT_EINVAL && strstr(grit_last_error(s), "clump template 0: mass_frac = -1"));
    bad = d;
    bad.n_clumps = 9;
    CHECK(grit_add_inlet(s, &bad) == GRIT_EINVAL && strstr(grit_last_error(s), "n_clumps = 9"));
    bad = d;
    bad.clumps[0].centers = NULL;
    CHECK(grit_add_inlet(s, &bad) == GRIT_EINVAL && strstr(grit_last_error(s), "centers and radii"));
    /* scales: positive and finite; the largest must fit the region */
    bad = scaled_inlet(m);
    bad.sizes[1] = -2;
    CHECK(grit_add_inlet(s, &bad) == GRIT_EINVAL && strstr(grit_last_error(s), "size 1: scale -2 must be positive"));
    printf("  %s\n", grit_last_error(s));
    bad = scaled_inlet(m);
    bad.n_sizes = 0, bad.r_min = 1, bad.r_max = NAN;
    CHECK(grit_add_inlet(s, &bad) == GRIT_EINVAL && strstr(grit_last_error(s), "scales [r_min, r_max] = [1, nan]"));
    bad = scaled_inlet(m);
    bad.hi = v3(0.02, 0.02, 0.0232 * 1.25); /* fits the triangle at scale 1, not at 1.25 */
    bad.lo.z = 0.02 * 1.25;
    CHECK(grit_add_inlet(s, &bad) == GRIT_EINVAL && strstr(grit_last_error(s), "at its largest scale"));
    printf("  %s\n", grit_last_error(s));
    bad = scaled_inlet(m);
    bad.angvel = v3(0, INFINITY, 0);
    CHECK(grit_add_inlet(s, &bad) == GRIT_EINVAL && strstr(grit_last_error(s), "angvel = (0, inf, 0) must be finite"));
    printf("  %s\n", grit_last_error(s));
    CHECK(grit_inlet_count(s) == 0);
    /* the size fields are unused with templates; the def read back points to the inlet's copies */
    CHECK(grit_add_inlet(s, &d) == 0);
    grit_inlet_def back;
    CHECK(grit_inlet_get(s, 0, &back, NULL) == GRIT_OK);
    CHECK(back.n_clumps == 2 && back.clumps[1].n == 3 && back.clumps[1].radii != TRI_R &&
          back.clumps[1].radii[2] == TRI_R[2] && back.clumps[1].centers[2].y == TRI_C[2].y &&
          back.clumps[0].mass_frac == 0.4);
    grit_scene_destroy(s);
}

int main(void)
{
    RUN(inlet_inserts_clumps);
    RUN(mass_energy_in_out);
    RUN(restart_bitwise);
    RUN(scaled_spinning);
    RUN(errors);
    TEST_MAIN_END();
}
