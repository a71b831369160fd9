/* grit_bench: the benchmark scene box-N of ../shared/bench/SCENES.md, timed.
 *
 *   grit_bench --csv FILE --L SIDE [--steps N] [--phase NAME] [--out FINAL.csv]
 *              [--verlet V|auto] [--sort-period K] [--scalar] [--every K]
 *   grit_bench --grid NX,NY,NZ [--steps N] [--check]        (a small built-in scene)
 *
 * Spheres from FILE (CSV x,y,z,r in m) in an open box of five walls
 * (x = 0, x = SIDE, y = 0, y = SIDE, floor z = 0), density 2600 kg/m^3,
 * linear spring-dashpot contacts kn = 1e4 N/m, kt = 2/7 kn, cn = 0.1 N s/m,
 * mu = 0.5 for sphere-sphere and sphere-wall pairs, gravity 9.81 m/s^2,
 * dt = 2.5e-6 s, no Cundall damping, energy tracking off (the peers do not
 * track energy either). The same scene as `grit run box`.
 *
 * Timed: the N steps (grit_step), including the first broad-phase rebuild
 * and sort; not the reading of the file nor the diagnostics printed every
 * K steps (--every). CPU time is the process CPU clock, wall time the
 * monotonic clock. The engine's own split (integration, broad phase,
 * contact loop, thread CPU time) comes from grit_get_stats.
 *
 * The last line is `GRIT_SUMMARY key=value ...`, parsed by bench/run_bench.py.
 * --check compares the contacts with a brute-force O(N^2) overlap search at
 * the end (and wants both sphere-sphere and sphere-wall contacts, and every
 * step done) and exits with status 1 otherwise (small scenes only). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "core/scene_impl.h" /* array capacities, for the memory breakdown */
#include "grit/grit.h"
#include "grit/io.h"

static double clock_s(clockid_t id)
{
    struct timespec t;
    clock_gettime(id, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* resident set size now, kB (VmRSS of /proc/self/status; 0 if unreadable) */
static long rss_now_kb(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kb = 0;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "VmRSS: %ld", &kb) == 1) break;
    if (f) fclose(f);
    return kb;
}

static long rss_peak_kb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

/* Bytes the scene's own arrays hold (capacity, not use): particles (hot and
 * cold records, id map), contact slots (pair, geometry, physics, cold data,
 * law state) and potential pairs. The rest of the growth of the RSS is the
 * broad phase's grid and scratch lists, and the allocator. */
typedef struct mem {
    double particles, contacts, potential;
    double per_particle, per_contact; /* bytes per slot */
    int particle_cap, contact_cap, pot_cap;
} mem;

static mem memory(const grit_scene *s)
{
    const grit_bodies *b = &s->b;
    const grit_contacts *c = &s->c;
    mem m;
    m.per_particle = sizeof *b->pr + sizeof *b->vw + sizeof *b->ft + sizeof *b->mi + sizeof *b->ori +
                     sizeof *b->angmom + sizeof *b->flags + sizeof *b->shape + sizeof *b->sidx + sizeof *b->mat +
                     sizeof *b->mask + sizeof *b->id + sizeof *b->refpos + sizeof *s->id2idx;
    m.per_contact = sizeof *c->pair + sizeof *c->geom + sizeof *c->phys + sizeof *c->cold + sizeof(double) * c->ext_n;
    m.particle_cap = b->cap;
    m.contact_cap = c->cap;
    m.pot_cap = c->cap_pot;
    m.particles = m.per_particle * b->cap;
    m.contacts = m.per_contact * c->cap;
    m.potential = (double)sizeof *c->pot * c->cap_pot;
    return m;
}

static void die(const char *what, const grit_scene *s)
{
    fprintf(stderr, "grit_bench: %s: %s\n", what, s ? grit_last_error(s) : grit_create_error());
    exit(2);
}

typedef struct diag {
    int pp, pw;       /* sphere-sphere and sphere-wall contacts with overlap (uN < 0) */
    int real;         /* real contacts, any gap */
    double ke;        /* translational + rotational kinetic energy, J */
    double zmax;      /* highest sphere top, m */
} diag;

static diag diagnose(const grit_scene *s)
{
    diag d = {0, 0, 0, 0.0, -INFINITY};
    grit_contact_info c;
    int cur = 0;
    while (grit_contact_next(s, &cur, &c)) {
        d.real++;
        if (!(c.uN < 0)) continue;
        const bool ss = grit_get_shape(s, c.id_a) == GRIT_SHAPE_SPHERE && grit_get_shape(s, c.id_b) == GRIT_SHAPE_SPHERE;
        if (ss)
            d.pp++;
        else
            d.pw++;
    }
    const int n = grit_particle_count(s);
    for (int id = 0; id < n; id++) {
        if (grit_get_shape(s, id) != GRIT_SHAPE_SPHERE) continue;
        grit_vec3 v, w, p, I;
        double m, r;
        grit_get_vel(s, id, &v);
        grit_get_angvel(s, id, &w);
        grit_get_mass(s, id, &m, &I);
        grit_get_pos(s, id, &p);
        grit_get_radius(s, id, &r);
        d.ke += 0.5 * m * v3_dot(v, v) + 0.5 * (I.x * w.x * w.x + I.y * w.y * w.y + I.z * w.z * w.z);
        d.zmax = fmax(d.zmax, p.z + r);
    }
    return d;
}

/* a small deterministic scene: spheres of radius 1 mm +- 1 % on a 2 mm grid,
 * so that some touch from the start; returns the box side */
static double add_grid(grit_scene *s, int mat, int nx, int ny, int nz)
{
    unsigned long long seed = 12345;
    const double h = 2e-3;
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++) {
                seed = seed * 6364136223846793005ull + 1442695040888963407ull;
                const double u = (double)(seed >> 11) * (1.0 / 9007199254740992.0);
                grit_sphere_def sd = grit_default_sphere_def();
                sd.radius = 1e-3 * (0.99 + 0.02 * u);
                sd.pos = v3(h * (i + 0.5), h * (j + 0.5), h * (k + 0.5));
                sd.material = mat;
                if (grit_add_sphere(s, &sd) < 0) die("add sphere", s);
            }
    return h * (nx > ny ? nx : ny);
}

static void usage(void)
{
    fprintf(stderr, "usage: grit_bench --csv FILE --L SIDE [--steps N] [--phase NAME] [--out FINAL.csv]\n"
                    "                  [--verlet V|auto] [--sort-period K] [--scalar] [--every K]\n"
                    "       grit_bench --grid NX,NY,NZ [--steps N] [--check]\n");
    exit(2);
}

int main(int argc, char **argv)
{
    const char *csv = NULL, *out = NULL, *phase = "dense";
    double L = NAN, verlet = NAN;
    bool verlet_set = false;
    long steps = 2000, every = 0;
    int sort_period = -1, nx = 0, ny = 0, nz = 0;
    bool scalar = false, check = false;
    for (int a = 1; a < argc; a++) {
        const char *k = argv[a], *v = a + 1 < argc ? argv[a + 1] : NULL;
        if (!strcmp(k, "--scalar"))
            scalar = true;
        else if (!strcmp(k, "--check"))
            check = true;
        else if (!v)
            usage();
        else if (!strcmp(k, "--csv"))
            csv = v, a++;
        else if (!strcmp(k, "--out"))
            out = v, a++;
        else if (!strcmp(k, "--phase"))
            phase = v, a++;
        else if (!strcmp(k, "--L"))
            L = atof(v), a++;
        else if (!strcmp(k, "--steps"))
            steps = atol(v), a++;
        else if (!strcmp(k, "--every"))
            every = atol(v), a++;
        else if (!strcmp(k, "--verlet"))
            verlet = !strcmp(v, "auto") ? NAN : atof(v), verlet_set = true, a++;
        else if (!strcmp(k, "--sort-period"))
            sort_period = atoi(v), a++;
        else if (!strcmp(k, "--grid") && sscanf(v, "%d,%d,%d", &nx, &ny, &nz) == 3 && nx > 0 && ny > 0 && nz > 0)
            a++;
        else
            usage();
    }
    if ((!csv && !nx) || (csv && !(L > 0)) || steps < 0) usage();

    const long rss0 = rss_now_kb();
    grit_scene_def d = grit_default_scene_def();
    d.gravity = v3(0, 0, -9.81);
    d.dt = 2.5e-6;
    d.track_energy = false;
    d.simd = !scalar;
    if (verlet_set) d.verlet_dist = verlet; /* (auto: nan) */
    if (sort_period >= 0) d.sort_period = sort_period;
    grit_scene *s = grit_scene_create(&d);
    if (!s) die("scene", NULL);
    grit_frictmat_def fm = grit_default_frictmat_def();
    fm.density = 2600;
    fm.kt_div_kn = 2.0 / 7.0;
    const int mat = grit_add_frictmat(s, &fm);
    grit_pair_def pd = grit_default_pair_def();
    pd.kn = 1e4;
    pd.kt = 1e4 * 2.0 / 7.0;
    pd.tan_phi = 0.5;
    pd.cn = 0.1;
    if (mat < 0 || grit_set_pair(s, mat, mat, &pd) < 0) die("material", s);
    if (csv) {
        if (grit_io_load_spheres_csv(s, csv, mat, NULL, NULL) < 0) die("input", s);
    } else {
        L = add_grid(s, mat, nx, ny, nz);
    }
    const int n = grit_particle_count(s);
    const struct {
        int axis, sense;
        double coord;
    } walls[5] = {{2, 1, 0.0}, {0, 1, 0.0}, {0, -1, L}, {1, 1, 0.0}, {1, -1, L}};
    for (int w = 0; w < 5; w++) {
        grit_wall_def wd = grit_default_wall_def();
        wd.axis = walls[w].axis;
        wd.sense = walls[w].sense;
        wd.coord = walls[w].coord;
        wd.material = mat;
        if (grit_add_wall(s, &wd) < 0) die("wall", s);
    }
    const long rss1 = rss_now_kb();
    printf("grit_bench: %d spheres, box side %g m, %ld steps of %g s, phase %s, %s kernel\n", n, L, steps, d.dt,
           phase, scalar ? "scalar" : "SIMD");
    if (every > 0) printf("%10s %6s %12s %8s %8s %10s %9s\n", "step", "cpu_s", "ke_J", "pp", "pw", "zmax_m", "rebuilds");

    double cpu = 0, wall = 0;
    long done = 0;
    while (done < steps) {
        const long chunk = every > 0 && steps - done > every ? every : steps - done;
        const double c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID), w0 = clock_s(CLOCK_MONOTONIC);
        if (grit_step(s, chunk) != GRIT_OK) die("step", s);
        cpu += clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
        wall += clock_s(CLOCK_MONOTONIC) - w0;
        done += chunk;
        if (every > 0) {
            grit_stats st;
            grit_get_stats(s, &st);
            const diag g = diagnose(s);
            printf("%10ld %6.1f %12.4e %8d %8d %10.6f %9ld\n", done, cpu, g.ke, g.pp, g.pw, g.zmax, st.rebuilds);
            fflush(stdout);
        }
    }
    const long rss2 = rss_now_kb();
    const mem M = memory(s);
    grit_stats st;
    grit_get_stats(s, &st);
    const diag g = diagnose(s);
    if (out && grit_io_save_spheres_csv(s, out) < 0) die("output", s);

    int bad = 0;
    if (check) {
        const int nb = grit_brute_force_overlaps(s, NULL, 0);
        bad = nb != g.pp + g.pw || grit_step_count(s) != steps || g.pp == 0 || g.pw == 0;
        printf("check: %d overlapping pairs by brute force, %d contacts with overlap in the engine (%d sphere-wall), "
               "%ld steps done: %s\n",
               nb, g.pp + g.pw, g.pw, grit_step_count(s), bad ? "MISMATCH" : "ok");
    }
    const double ps = (double)n * (double)steps;
    printf("GRIT_SUMMARY code=grit phase=%s N=%d steps=%ld dt=%g wall_s=%.6f cpu_s=%.6f psps_wall=%.6g psps_cpu=%.6g "
           "contacts_pp=%d contacts_pw=%d real_contacts=%d potential_pairs=%d ke_J=%.6e zmax_m=%.6f rebuilds=%ld "
           "sorts=%ld verlet_dist_m=%.6g t_integrate_s=%.6f t_collide_s=%.6f t_contacts_s=%.6f t_rebuild_s=%.6f "
           "t_sort_s=%.6f rss_start_kb=%ld "
           "rss_loaded_kb=%ld rss_end_kb=%ld maxrss_kb=%ld bytes_per_particle_slot=%.0f particle_cap=%d "
           "bytes_per_contact_slot=%.0f contact_slots=%d contact_cap=%d pot_cap=%d mem_particles_kb=%.0f "
           "mem_contacts_kb=%.0f mem_potential_kb=%.0f\n",
           phase, n, grit_step_count(s), grit_dt(s), wall, cpu, ps / wall, ps / cpu, g.pp, g.pw, g.real, st.potential_pairs, g.ke,
           g.zmax, st.rebuilds, st.sorts, st.verlet_dist, st.time_integrate, st.time_collide, st.time_contacts,
           st.time_rebuild, st.time_sort, rss0, rss1, rss2, rss_peak_kb(), M.per_particle, M.particle_cap, M.per_contact, s->c.n, M.contact_cap,
           M.pot_cap, M.particles / 1024, M.contacts / 1024, M.potential / 1024);
    /* the contact loop's time by functor (geometry kind / law), CPU s */
    grit_functor_time ft[32];
    const int nft = grit_functor_times(s, ft, 32);
    printf("GRIT_FUNCTORS");
    for (int k = 0; k < nft && k < 32; k++) printf(" %s=%.6f", ft[k].name, ft[k].seconds);
    printf("\n");
    grit_scene_destroy(s);
    return bad;
}
