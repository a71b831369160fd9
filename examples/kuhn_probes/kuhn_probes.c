/* Demonstration (b) of docs/kuhn-law.md: strain probes on an assembly near its
 * friction limit; the incremental stiffness with the conventional and the
 * refined law against the number of steps per probe.
 *
 *   kuhn_probes [OUT.csv] [N spheres = 2000]
 *   kuhn_probes --check          (the quick variant run by ctest: asserts)
 *   kuhn_probes --radial [OUT.csv] [N = 2000] [--clumps] [--qp Q]   (the paper's radial
 *        plot, 5b; --clumps: N two-sphere clusters instead of spheres; --qp: the
 *        triaxial loading's target q/p, 0.9 by default)
 *   kuhn_probes --radial-check   (its quick variant run by ctest: asserts)
 *
 * 1. Preparation (the refined law throughout, Cundall damping 0.7): N
 *    spheres (radius 0.9-1.1 mm, kn = kt = 1e5 N/m, mu = 0.5) in a periodic
 *    cube, compressed isotropically without friction to p0 = 100 kPa (a
 *    dense packing), then, with friction, loaded in drained triaxial
 *    compression along z at constant mean stress p0 up to q/p = 0.9 (the
 *    peak is 1.07), both through the cell's stress controller
 *    (grit_cell_ctrl_*: the lateral stresses held at the value that keeps
 *    p = p0 while the axial rate is prescribed), and relaxed
 *    at constant cell. This state is kept in memory; every probe runs in a
 *    child process (fork) that owns a copy of it: restart files do not hold
 *    periodic cells yet.
 * 2. Strain probes of magnitude delta in directions phi of the Rendulic
 *    plane: d eps = delta D(phi), D = -(cos phi E_v + sin phi E_q),
 *    E_v = I/sqrt3, E_q = diag(-1,-1,2)/sqrt6 (phi = 0: isotropic
 *    compression; 90: compression along z at constant volume, i.e. further
 *    loading; 180 and 270 the reverse).
 *    a. The quasi-static motion: the probe is applied slowly (500 steps)
 *       with the refined law and damping, then relaxed (1500 steps); the
 *       displacement and rotation of every sphere is recorded.
 *    b. Replays: from the prepared state that motion is imposed uniformly in
 *       n steps (every sphere blocked and moved by 1/n of its displacement
 *       and rotation per step, the cell strained by the same increment), then
 *       reversed exactly in n steps, for each law and n = 1, 3, 10, ... 1000.
 *       Measured: the stress increment d sigma of the probe, and the stress
 *       left after the reversal, what slip did (the irreversible part: zero
 *       for an elastic assembly). With uniform movements the refined law is
 *       exact whatever the step (the sliding is integrated in closed form
 *       within the step): its results must not depend on n
 *       (up to the geometric non-linearity of the motion); the conventional
 *       law's do, by an error that vanishes as n grows.
 *    c. Free probes (delta = 1e-4 only): the probe applied in n steps to the
 *       free, damped assembly, then relaxed, with the refined and the
 *       conventional law: the law's effect in an ordinary DEM run.
 *    Laws: refined (all refinements on), conventional (refinements R1-R3 and
 *    the twirl R4b off, projection on; docs/kuhn-law.md), the conventional law with only the
 *    turning R3 or only the twirl switched on, and grit's IdealElPl.
 * 3. Output: CSV (columns below; plot: examples/kuhn_probes/plot.py) with
 *    K = d sigma : D / delta the directional stiffness (Pa), err =
 *    |d sigma - d sigma_ref| / |d sigma_ref| (Frobenius) against the refined
 *    law at the largest n, err_irr the same for the irreversible part; the
 *    stress is tension-positive. On the quasi-static rows: A_med, A_p90 =
 *    median and 90th percentile of A = kt |du_t| / (mu N) over the probe of
 *    the contacts at the friction limit (the refinements matter when A per
 *    step is not small: docs/kuhn-law.md, the Figure 4 case).
 * Runs a few minutes (docs/kuhn-law.md section 5).
 *
 * --radial: from the same prepared state, strain probes of 1e-4 in 72
 * directions evenly around the Rendulic plane and 48 over the sphere of
 * principal strain space, each loaded and reversed, as replays (refined and
 * conventional law, n = 1, 3, 10, 30, 300) and as free DEM probes in 30
 * steps; the plastic strain of each probe, its point in the radial plot and
 * the fit of the hardening modulus (the section "radial probes" below).
 * Writes OUT.csv (points) and OUT_fits.csv (fits); plot:
 * examples/kuhn_probes/plot_radial.py. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "grit/grit.h"

enum { LAW_REFINED, LAW_CONVENTIONAL, LAW_TURN, LAW_TWIRL, LAW_IDEALELPL, LAW_COUNT };
static const char *const law_names[LAW_COUNT] = {"refined", "conventional", "conv+R3", "conv+twirl", "IdealElPl"};

typedef struct config {
    int n_spheres;    /* grains: spheres, or clumps if clump_members > 0 */
    int clump_members; /* 0: spheres; 2: two-sphere clusters (--radial --clumps) */
    double p0;        /* confining mean stress, Pa */
    double qp_target; /* triaxial loading up to this q/p ... */
    double axial_max; /* ... failing beyond this compression along z */
    int n_dirs;       /* probe directions, evenly spaced from phi0 */
    double phi0;
    const int *ns; /* steps per replayed probe */
    int n_ns;
    const int *dyn_ns; /* steps per free probe */
    int n_dyn;
    int qs_apply, qs_relax, dyn_relax; /* steps */
    bool verbose;
} config;

static const int NS_FULL[] = {1, 3, 10, 30, 100, 300, 1000};
static const int NS_CHECK[] = {1, 3, 10, 30, 100};
static const int DYN_FULL[] = {30, 300};

static const double DT = 2e-6;
static const double LOADING_COS = 0.0; /* the loading side: cos(d sigma, yield direction) above this */
static const double RADIAL_RMS_MAX = 0.05, RADIAL_REFINED_MAX = 1e-4; /* the quick radial check's bounds: set from measurements */ /* below 0.25 sqrt(m_min / kn): kt = kn stiffens the rotations */

static void die(grit_scene *s, const char *what)
{
    fprintf(stderr, "kuhn_probes: %s: %s\n", what, s ? grit_last_error(s) : grit_create_error());
    exit(1);
}

static double cpu_seconds(void)
{
    struct rusage self, kids;
    getrusage(RUSAGE_SELF, &self);
    getrusage(RUSAGE_CHILDREN, &kids);
    return (double)(self.ru_utime.tv_sec + self.ru_stime.tv_sec + kids.ru_utime.tv_sec + kids.ru_stime.tv_sec) +
           1e-6 * (double)(self.ru_utime.tv_usec + self.ru_stime.tv_usec + kids.ru_utime.tv_usec +
                           kids.ru_stime.tv_usec);
}

/* ---- stress measures ---------------------------------------------------- */

typedef struct sym6 {
    double xx, yy, zz, xy, xz, yz;
} sym6;

static sym6 stress6(grit_scene *s)
{
    double sg[3][3];
    if (grit_stress(s, sg)) die(s, "stress");
    return (sym6){sg[0][0], sg[1][1], sg[2][2], sg[0][1], sg[0][2], sg[1][2]};
}
static sym6 s6_sub(sym6 a, sym6 b)
{
    return (sym6){a.xx - b.xx, a.yy - b.yy, a.zz - b.zz, a.xy - b.xy, a.xz - b.xz, a.yz - b.yz};
}
static double s6_norm(sym6 a)
{
    return sqrt(a.xx * a.xx + a.yy * a.yy + a.zz * a.zz + 2 * (a.xy * a.xy + a.xz * a.xz + a.yz * a.yz));
}
static double pressure(sym6 a) { return -(a.xx + a.yy + a.zz) / 3; }
/* deviator q = sigma_z - sigma_lateral in compression */
static double deviator(sym6 a) { return -(a.zz - 0.5 * (a.xx + a.yy)); }

/* unit strain direction of the probe (diagonal) */
static void direction(double phi, double D[3])
{
    const double v = -cos(phi) / sqrt(3.0), q = -sin(phi) / sqrt(6.0);
    D[0] = v - q;
    D[1] = v - q;
    D[2] = v + 2 * q;
}

/* ---- contacts at the friction limit --------------------------------------- */

typedef struct census {
    int contacts, at_limit, near_limit; /* |ft| >= (1 - 1e-5) mu N; >= 0.9 mu N */
    double unbalanced;                  /* mean |F| of the spheres / mean normal force */
    double overlap;                     /* mean overlap / mean diameter (2 mm) */
} census;

/* the grains' ids: the spheres, or the clumps' bodies (their members follow
 * them and cannot be moved or blocked on their own) */
static int g_nb, *g_body;

static census take_census(grit_scene *s, int n)
{
    (void)n;
    census c = {0};
    grit_contact_info ci;
    int cur = 0;
    double sum_n = 0;
    while (grit_contact_next(s, &cur, &ci)) {
        const double N = -v3_dot(ci.force_global, ci.normal);
        const grit_vec3 ft = v3_madd(ci.force_global, N, ci.normal);
        const double r = v3_norm(ft) / (ci.tan_phi * N);
        c.contacts++;
        sum_n += N;
        c.overlap -= ci.uN;
        if (N > 0 && r >= 1 - 1e-5) c.at_limit++;
        if (N > 0 && r >= 0.9) c.near_limit++;
    }
    double sum_f = 0;
    for (int i = 0; i < g_nb; i++) {
        grit_vec3 f;
        grit_get_force(s, g_body[i], &f);
        sum_f += v3_norm(f);
    }
    c.unbalanced = c.contacts ? (sum_f / g_nb) / (sum_n / c.contacts) : 0;
    c.overlap = c.contacts ? c.overlap / c.contacts / 2e-3 : 0;
    return c;
}

/* ---- preparation ----------------------------------------------------------- */

static void set_grad(grit_scene *s, double lx, double ly, double lz)
{
    const double L[3][3] = {{lx, 0, 0}, {0, ly, 0}, {0, 0, lz}};
    if (grit_cell_set_grad_v(s, L)) die(s, "gradient");
}

static void set_no_frict(grit_scene *s, bool on)
{
    grit_idealelpl_def d;
    grit_get_law_def(s, GRIT_LAW_IDEALELPL, &d, sizeof d);
    d.no_frict = on; /* every FrictPhys law reads it, Kuhn's too */
    if (grit_set_law_def(s, GRIT_LAW_IDEALELPL, &d, sizeof d)) die(s, "no_frict");
}

/* the one material's pair: kn = kt, as in the paper; `law` picks the law */
static void set_pair(grit_scene *s, int law)
{
    grit_pair_def pd = grit_default_pair_def();
    pd.kn = 1e5;
    pd.kt = 1e5;
    pd.tan_phi = 0.5;
    pd.law = 1 + law;
    if (grit_set_pair(s, 0, 0, &pd)) die(s, "pair");
}

static grit_scene *prepare(const config *C)
{
    const int n = C->n_spheres;
    const double p0 = C->p0;
    grit_scene_def d = grit_default_scene_def();
    d.damping = 0.7;
    d.dt = DT;
    grit_scene *s = grit_scene_create(&d);
    if (!s) die(NULL, "create");
    set_no_frict(s, true); /* a dense packing first: isotropic compression without friction */
    grit_frictmat_def fm = grit_default_frictmat_def();
    fm.law = GRIT_LAW_KUHN;
    fm.density = 2600;
    if (grit_add_frictmat(s, &fm) != 0) die(s, "material");
    set_pair(s, GRIT_LAW_KUHN);
    /* loose gas: random sequential addition in a periodic cube at solid
     * fraction 0.25 (clumps: 0.12, placed by their bounding spheres) */
    uint64_t rng = 0x2545F4914F6CDD1Dull;
#define URAND() ((rng = rng * 6364136223846793005ull + 1442695040888963407ull), (double)(rng >> 11) * 0x1p-53)
    double *r = malloc(sizeof *r * (size_t)n), (*x)[3] = malloc(sizeof *x * (size_t)n);
    g_body = malloc(sizeof *g_body * (size_t)n);
    g_nb = n;
    if (!r || !x || !g_body) die(NULL, "out of memory");
    /* a clump: two members of radius r whose centres are r apart (they
     * overlap by a lens of volume 5 pi r^3 / 12), bounding radius 1.5 r */
    const bool clumps = C->clump_members > 0;
    const double bound = clumps ? 1.5 : 1.0;
    double vol = 0;
    for (int i = 0; i < n; i++) {
        r[i] = 1e-3 * (0.9 + 0.2 * URAND());
        vol += (clumps ? 2 * 4.0 / 3.0 - 5.0 / 12.0 : 4.0 / 3.0) * M_PI * r[i] * r[i] * r[i];
    }
    const double L = cbrt(vol / (clumps ? 0.12 : 0.25));
    for (int i = 0; i < n; i++) {
        for (int tries = 0;; tries++) {
            for (int k = 0; k < 3; k++) x[i][k] = L * URAND();
            bool ok = true;
            for (int j = 0; j < i && ok; j++) {
                double d2 = 0;
                for (int k = 0; k < 3; k++) {
                    double dx = x[i][k] - x[j][k];
                    dx -= L * nearbyint(dx / L);
                    d2 += dx * dx;
                }
                ok = d2 > bound * bound * (r[i] + r[j]) * (r[i] + r[j]);
            }
            if (ok) break;
            if (tries > 100000) die(s, "cannot place the loose gas");
        }
        if (clumps) {
            const grit_vec3 centers[2] = {v3(-0.5 * r[i], 0, 0), v3(0.5 * r[i], 0, 0)};
            const double radii[2] = {r[i], r[i]};
            grit_clump_def cl = grit_default_clump_def();
            cl.pos = v3(x[i][0], x[i][1], x[i][2]);
            double q[4], qn = 0;
            do { /* a uniformly random orientation: a random point of the unit 4-ball, normalised */
                qn = 0;
                for (int k = 0; k < 4; k++) q[k] = 2 * URAND() - 1, qn += q[k] * q[k];
            } while (qn > 1 || qn < 1e-6);
            cl.ori = (grit_quat){q[0], q[1], q[2], q[3]};
            cl.n = 2;
            cl.centers = centers;
            cl.radii = radii;
            cl.material = 0;
            g_body[i] = grit_add_clump(s, &cl);
            if (g_body[i] < 0) die(s, "clump");
        } else {
            grit_sphere_def sp = grit_default_sphere_def();
            sp.pos = v3(x[i][0], x[i][1], x[i][2]);
            sp.radius = r[i];
            sp.material = 0;
            if ((g_body[i] = grit_add_sphere(s, &sp)) != i) die(s, "sphere");
        }
    }
#undef URAND
    free(r);
    free(x);
    const double H[3][3] = {{L, 0, 0}, {0, L, 0}, {0, 0, L}};
    if (grit_cell_set(s, H)) die(s, "cell");

    /* isotropic compression through the cell's stress controller: all three
     * axes held at -p0, the rate capped at 5e-5 per step through the gas */
    long steps = 0;
    grit_cell_ctrl_def cd = grit_default_cell_ctrl_def();
    for (int a = 0; a < 3; a++) {
        cd.mode[a] = GRIT_CTRL_STRESS;
        cd.goal[a] = -p0;
    }
    cd.max_rate = 25.0;
    cd.every = 10;
    cd.stress_tol = 0.01;
    cd.settle = 5;
    if (grit_cell_ctrl_set(s, &cd)) die(s, "isotropic controller");
    for (int k = 0;; k++) {
        long ran = 0;
        const int rc = grit_cell_ctrl_run(s, 500, &ran);
        if (rc != GRIT_OK && rc != GRIT_ESTATE) die(s, "isotropic compression");
        if (ran == 0) { /* converged on the stress, the forces still out of balance: keep stepping */
            if (grit_step(s, 500)) die(s, "isotropic compression");
            ran = 500;
        }
        steps += ran;
        const census c = take_census(s, n);
        if (C->verbose && k % 5 == 4)
            fprintf(stderr, "  iso: step %ld p %.4g Pa, %d contacts, unbalanced %.2g\n", steps, pressure(stress6(s)),
                    c.contacts, c.unbalanced);
        if (rc == GRIT_OK && c.unbalanced < 0.05) break;
        if (k > 200) die(s, "isotropic compression does not converge");
    }
    /* triaxial compression along z at constant mean stress, with friction:
     * the axial rate prescribed (1e-6 per step), the lateral stresses held
     * at the value that keeps p = p0 given the axial stress now, their goal
     * renewed every 50 steps */
    set_no_frict(s, false);
    double F[3][3];
    grit_cell_get_trsf(s, F);
    const double fz0 = F[2][2], vol0 = F[0][0] * F[1][1] * F[2][2];
    double axial = 0;
    cd.mode[2] = GRIT_CTRL_RATE;
    cd.goal[2] = -0.5;
    cd.every = 5;
    cd.max_rate = 5.0;
    for (int k = 0;; k++) {
        const sym6 sg = stress6(s);
        cd.goal[0] = cd.goal[1] = -0.5 * (3 * p0 + sg.zz);
        if (grit_cell_ctrl_set(s, &cd)) die(s, "triaxial controller");
        if (grit_step(s, 50)) die(s, "triaxial");
        steps += 50;
        const sym6 sn = stress6(s);
        grit_cell_get_trsf(s, F);
        axial = -log(F[2][2] / fz0);
        if (C->verbose && k % 100 == 99) {
            int st[GRIT_KUHN_STATUS_COUNT];
            grit_kuhn_status_counts(s, st);
            const census c = take_census(s, n);
            fprintf(stderr, "  triax: eps_z %.4f p %.4g q/p %.4f, vol. strain %.2e, %d contacts, sliding %d (%.1f %%)\n",
                    axial, pressure(sn), deviator(sn) / pressure(sn), -log(F[0][0] * F[1][1] * F[2][2] / vol0),
                    c.contacts, st[GRIT_KUHN_SLIP], 100.0 * st[GRIT_KUHN_SLIP] / c.contacts);
        }
        if (deviator(sn) >= C->qp_target * pressure(sn)) break;
        if (axial >= C->axial_max) die(s, "the triaxial loading does not reach the q/p target");
    }
    if (grit_cell_ctrl_clear(s)) die(s, "controller");
    set_grad(s, 0, 0, 0);
    for (int k = 0; k < 200; k++) {
        if (grit_step(s, 10)) die(s, "relax");
        steps += 10;
        if (take_census(s, n).unbalanced < 2e-3) break;
    }
    if (C->verbose) {
        const sym6 sg = stress6(s);
        const census c = take_census(s, n);
        fprintf(stderr, "prepared in %ld steps: axial strain %.2e, p %.4g Pa, q/p %.4f, %d contacts (%.2f per sphere), "
                        "at the limit %d (%.1f %%), above 0.9 mu N %d (%.1f %%), unbalanced %.2g, overlap/d %.2e\n",
                steps, axial, pressure(sg), deviator(sg) / pressure(sg), c.contacts, 2.0 * c.contacts / n, c.at_limit,
                100.0 * c.at_limit / c.contacts, c.near_limit, 100.0 * c.near_limit / c.contacts, c.unbalanced,
                c.overlap);
    }
    return s;
}

/* ---- running a piece of work on a copy of the scene ------------------------- */

typedef void (*child_fn)(grit_scene *s, const config *C, const void *arg, double *out);

/* fn runs in a child process that holds a copy of the scene; its nout
 * doubles come back through a pipe. */
static void in_child(grit_scene *s, const config *C, child_fn fn, const void *arg, double *out, size_t nout)
{
    int fd[2];
    if (pipe(fd)) {
        perror("kuhn_probes: pipe");
        exit(1);
    }
    fflush(NULL);
    const pid_t pid = fork();
    if (pid < 0) {
        perror("kuhn_probes: fork");
        exit(1);
    }
    if (pid == 0) {
        close(fd[0]);
        fn(s, C, arg, out);
        const char *p = (const char *)out;
        size_t left = nout * sizeof *out;
        while (left > 0) {
            ssize_t w = write(fd[1], p, left);
            if (w < 0 && errno == EINTR) continue;
            if (w <= 0) _exit(2);
            p += w;
            left -= (size_t)w;
        }
        close(fd[1]);
        _exit(0); /* no exit handlers: the copy of the scene is the parent's to free */
    }
    close(fd[1]);
    char *p = (char *)out;
    size_t left = nout * sizeof *out;
    while (left > 0) {
        ssize_t rd = read(fd[0], p, left);
        if (rd < 0 && errno == EINTR) continue;
        if (rd <= 0) break;
        p += rd;
        left -= (size_t)rd;
    }
    close(fd[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (left > 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "kuhn_probes: a probe process failed (status %d)\n", status);
        exit(1);
    }
}

/* ---- the probes ------------------------------------------------------------- */

/* per-step gradient that strains the cell by the diagonal D delta in m Cayley
 * steps, (1 + g/2) / (1 - g/2) = exp(D delta / m) with g = dt L: every m
 * gives the same final cell */
static void probe_grad(const double D[3], double delta, int m, double L[3])
{
    for (int a = 0; a < 3; a++) L[a] = 2 * tanh(0.5 * D[a] * delta / m) / DT;
}

typedef struct probe_arg {
    double phi, delta;
    double D[3];          /* the unit strain direction (diagonal, tension positive) */
    bool perturb;         /* free probes: move every sphere by ~1e-12 m first (the noise of a free run) */
    const double *motion; /* 6 per sphere: displacement, rotation vector */
    int law, n;
} probe_arg;

static void apply_probe(grit_scene *s, const probe_arg *P, double sign, int m)
{
    double L[3];
    probe_grad(P->D, sign * P->delta, m, L);
    set_grad(s, L[0], L[1], L[2]);
}

/* The quasi-static probe with the refined law. out: 6 per sphere
 * (displacement, rotation vector), d sigma (6), unbalanced force at the end. */
static void qs_probe(grit_scene *s, const config *C, const void *arg, double *out)
{
    const probe_arg *P = arg;
    const int n = g_nb;
    (void)C;
    grit_vec3 *x0 = malloc(sizeof *x0 * (size_t)n);
    grit_quat *q0 = malloc(sizeof *q0 * (size_t)n);
    if (!x0 || !q0) die(NULL, "out of memory");
    for (int i = 0; i < n; i++) {
        grit_get_pos(s, g_body[i], &x0[i]);
        grit_get_ori(s, g_body[i], &q0[i]);
    }
    const sym6 s0 = stress6(s);
    apply_probe(s, P, 1.0, C->qs_apply);
    if (grit_step(s, C->qs_apply)) die(s, "quasi-static probe");
    set_grad(s, 0, 0, 0);
    if (grit_step(s, C->qs_relax)) die(s, "quasi-static relaxation");
    for (int i = 0; i < n; i++) {
        grit_vec3 x;
        grit_quat q;
        grit_get_pos(s, g_body[i], &x);
        grit_get_ori(s, g_body[i], &q);
        const grit_vec3 dx = v3_sub(x, x0[i]);
        grit_quat dq = q_mul(q, q_conj(q0[i]));
        if (dq.w < 0) dq = (grit_quat){-dq.w, -dq.x, -dq.y, -dq.z};
        const grit_vec3 v = v3(dq.x, dq.y, dq.z);
        const double sv = v3_norm(v);
        const grit_vec3 th = sv > 0 ? v3_scale(v, 2 * atan2(sv, dq.w) / sv) : v3_zero();
        memcpy(out + 6 * i, &dx, sizeof dx);
        memcpy(out + 6 * i + 3, &th, sizeof th);
    }
    free(x0);
    free(q0);
    const sym6 ds = s6_sub(stress6(s), s0);
    memcpy(out + 6 * n, &ds, sizeof ds);
    out[6 * n + 6] = take_census(s, n).unbalanced;
}

static void select_law(grit_scene *s, int law, double damping)
{
    set_pair(s, law == LAW_IDEALELPL ? GRIT_LAW_IDEALELPL : GRIT_LAW_KUHN);
    grit_kuhn_def k = grit_default_kuhn_def();
    const bool all = law == LAW_REFINED;
    k.kuhn_fresh = all;
    k.kuhn_onset = all;
    k.kuhn_turn = all || law == LAW_TURN;
    k.kuhn_projection = true;
    k.kuhn_twirl = all || law == LAW_TWIRL ? GRIT_KUHN_TWIRL_EXACT : GRIT_KUHN_TWIRL_OFF;
    if (grit_set_law_def(s, GRIT_LAW_KUHN, &k, sizeof k)) die(s, "law");
    grit_scene_def d = *grit_scene_get_def(s);
    d.damping = damping;
    if (grit_scene_set_def(s, &d)) die(s, "law");
}

/* the recorded motion, times sign, in m uniform steps */
static void impose(grit_scene *s, const config *C, const probe_arg *P, double sign)
{
    const double f = sign / (P->n * DT);
    (void)C;
    for (int i = 0; i < g_nb; i++) {
        const double *u = P->motion + 6 * i;
        grit_set_vel(s, g_body[i], v3(u[0] * f, u[1] * f, u[2] * f));
        grit_set_angvel(s, g_body[i], v3(u[3] * f, u[4] * f, u[5] * f));
    }
    apply_probe(s, P, sign, P->n);
}

/* The recorded motion imposed in n uniform steps, then reversed exactly in
 * n steps. out: the probe's stress increment (6), the stress left after the
 * reversal (6), contacts sliding in the last step of the probe (Kuhn law;
 * -1 otherwise), contacts. */
static void replay(grit_scene *s, const config *C, const void *arg, double *out)
{
    const probe_arg *P = arg;
    select_law(s, P->law, 0.0); /* every sphere is blocked: nothing to damp */
    for (int i = 0; i < g_nb; i++)
        if (grit_set_blocked(s, g_body[i], GRIT_BLOCK_ALL)) die(s, "block");
    const sym6 s0 = stress6(s);
    impose(s, C, P, 1.0);
    if (grit_step(s, P->n)) die(s, "replay");
    const sym6 ds = s6_sub(stress6(s), s0);
    int st[GRIT_KUHN_STATUS_COUNT];
    out[12] = grit_kuhn_status_counts(s, st) >= 0 ? st[GRIT_KUHN_SLIP] : -1;
    out[13] = grit_contact_count(s);
    impose(s, C, P, -1.0);
    if (grit_step(s, P->n)) die(s, "reversal");
    const sym6 dirr = s6_sub(stress6(s), s0);
    memcpy(out, &ds, sizeof ds);
    memcpy(out + 6, &dirr, sizeof dirr);
}

/* The probe applied to the free, damped assembly in n steps, relaxed, then
 * reversed in n steps and relaxed. out: the probe's stress increment (6),
 * the stress left after the reversal (6). */
static void free_probe(grit_scene *s, const config *C, const void *arg, double *out)
{
    const probe_arg *P = arg;
    select_law(s, P->law, grit_scene_get_def(s)->damping);
    const sym6 s0 = stress6(s);
    if (P->perturb) {
        /* a displacement of 1e-12 m (1e-9 radius) in a pseudo-random direction per sphere */
        uint64_t rng = 0x9E3779B97F4A7C15ull;
        for (int i = 0; i < g_nb; i++) {
            grit_vec3 x, e;
            grit_get_pos(s, g_body[i], &x);
            double c[3];
            for (int k = 0; k < 3; k++) {
                rng = rng * 6364136223846793005ull + 1442695040888963407ull;
                c[k] = (double)(rng >> 11) * 0x1p-53 - 0.5;
            }
            e = v3(c[0], c[1], c[2]);
            if (grit_set_pos(s, g_body[i], v3_madd(x, 1e-12 / fmax(v3_norm(e), 1e-3), e))) die(s, "perturb");
        }
    }
    for (int rev = 0; rev < 2; rev++) {
        apply_probe(s, P, rev ? -1.0 : 1.0, P->n);
        if (grit_step(s, P->n)) die(s, "free probe");
        set_grad(s, 0, 0, 0);
        if (grit_step(s, C->dyn_relax)) die(s, "free probe relaxation");
        const sym6 ds = s6_sub(stress6(s), s0);
        memcpy(out + 6 * rev, &ds, sizeof ds);
    }
}

/* For the contacts at the friction limit in the prepared state, over the
 * whole probe: A = kt |du_t| / (mu N), its median and 90th percentile; the
 * angle between the tangential force and du_t (what the conventional law
 * gets wrong is the turning of the force towards du_t), its median (degrees)
 * and the fraction of contacts with more than 30 degrees. */
static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}
static void movement_ratio(grit_scene *s, const probe_arg *P, double stats[4])
{
    double H[3][3];
    const double *D = P->D;
    grit_cell_get(s, H);
    const int nc = grit_contact_count(s);
    double *A = malloc(sizeof *A * (size_t)(nc > 0 ? nc : 1)), *th = malloc(sizeof *th * (size_t)(nc > 0 ? nc : 1));
    if (!A || !th) die(NULL, "out of memory");
    int m = 0;
    grit_contact_info ci;
    for (int i = 0; i < nc; i++) {
        if (grit_contact_get(s, i, &ci)) die(s, "contact");
        const double N = -v3_dot(ci.force_global, ci.normal);
        const grit_vec3 ft = v3_madd(ci.force_global, N, ci.normal);
        if (!(N > 0) || v3_norm(ft) < (1 - 1e-5) * ci.tan_phi * N) continue;
        int k[3];
        grit_contact_image(s, i, k);
        grit_vec3 xa, xb;
        grit_get_pos(s, ci.id_a, &xa);
        grit_get_pos(s, ci.id_b, &xb);
        grit_vec3 shift = v3_zero(), dshift = v3_zero(); /* the cell stays diagonal */
        for (int a = 0; a < 3; a++) {
            v3_set(&shift, a, H[a][a] * k[a]);
            v3_set(&dshift, a, H[a][a] * k[a] * expm1(D[a] * P->delta));
        }
        xb = v3_add(xb, shift);
        const double *ua = P->motion + 6 * ci.id_a, *ub = P->motion + 6 * ci.id_b;
        const grit_vec3 va = v3_add(v3(ua[0], ua[1], ua[2]), v3_cross(v3(ua[3], ua[4], ua[5]), v3_sub(ci.point, xa)));
        const grit_vec3 vb = v3_add(v3_add(v3(ub[0], ub[1], ub[2]), dshift),
                                    v3_cross(v3(ub[3], ub[4], ub[5]), v3_sub(ci.point, xb)));
        const grit_vec3 du = v3_sub(vb, va);
        const grit_vec3 dut = v3_madd(du, -v3_dot(du, ci.normal), ci.normal);
        A[m] = ci.kt * v3_norm(dut) / (ci.tan_phi * N);
        th[m++] = atan2(v3_norm(v3_cross(ft, dut)), v3_dot(ft, dut)) * 180 / M_PI;
    }
    qsort(A, (size_t)m, sizeof *A, cmp_double);
    qsort(th, (size_t)m, sizeof *th, cmp_double);
    int over30 = 0;
    for (int i = 0; i < m; i++) over30 += th[i] > 30;
    stats[0] = m ? A[m / 2] : NAN;
    stats[1] = m ? A[(9 * m) / 10] : NAN;
    stats[2] = m ? th[m / 2] : NAN;
    stats[3] = m ? (double)over30 / m : NAN;
    free(A);
    free(th);
}

/* ---- the studies -------------------------------------------------------------- */

typedef struct result {
    sym6 ds, irr; /* the probe's stress increment; the stress left after its reversal */
    double slip, contacts;
} result;

typedef struct study {
    double delta;
    unsigned laws; /* bit set of LAW_* replayed */
    bool free_probes;
    result *res;    /* [dir][law][k] for ns[k] */
    sym6 *qs;       /* [dir] the quasi-static probe's d sigma */
    sym6 *dyn;      /* [dir][2][k][2]: free probes, refined and conventional, for dyn_ns[k]: d sigma, irreversible */
    double *A;      /* [dir][4]: median and 90th percentile of A, median angle, fraction above 30 degrees */
} study;

static result *at(const study *S, const config *C, int j, int law, int k)
{
    return &S->res[(j * LAW_COUNT + law) * C->n_ns + k];
}

static double dir_phi(const config *C, int j) { return C->phi0 + 2 * M_PI * j / C->n_dirs; }

/* d sigma : D / delta */
static double stiffness(double phi, double delta, sym6 d)
{
    double D[3];
    direction(phi, D);
    return (d.xx * D[0] + d.yy * D[1] + d.zz * D[2]) / delta;
}

/* errors against the refined law's result at the largest n */
static double err_total(const study *S, const config *C, int j, int law, int k)
{
    const sym6 ref = at(S, C, j, LAW_REFINED, C->n_ns - 1)->ds;
    return s6_norm(s6_sub(at(S, C, j, law, k)->ds, ref)) / s6_norm(ref);
}
static double err_irr(const study *S, const config *C, int j, int law, int k)
{
    const sym6 ref = at(S, C, j, LAW_REFINED, C->n_ns - 1)->irr;
    return s6_norm(s6_sub(at(S, C, j, law, k)->irr, ref)) / s6_norm(ref);
}
/* a direction with plastic loading: the irreversible part is at least a
 * tenth of the stress increment */
static bool plastic(const study *S, const config *C, int j)
{
    const result *r = at(S, C, j, LAW_REFINED, C->n_ns - 1);
    return s6_norm(r->irr) > 0.1 * s6_norm(r->ds);
}

static void run_study(grit_scene *s, const config *C, study *S)
{
    const int n = g_nb; /* spheres only: movement_ratio takes contact ids as grain indices */
    S->res = calloc((size_t)(C->n_dirs * LAW_COUNT * C->n_ns), sizeof *S->res);
    S->qs = calloc((size_t)C->n_dirs, sizeof *S->qs);
    S->dyn = calloc((size_t)(C->n_dirs * 4 * (C->n_dyn > 0 ? C->n_dyn : 1)), sizeof *S->dyn);
    S->A = calloc((size_t)(4 * C->n_dirs), sizeof *S->A);
    double *motion = malloc(sizeof *motion * (size_t)(6 * n + 7));
    if (!S->res || !S->qs || !S->dyn || !S->A || !motion) die(NULL, "out of memory");
    for (int j = 0; j < C->n_dirs; j++) {
        const double phi = dir_phi(C, j);
        probe_arg P = {.phi = phi, .delta = S->delta};
        direction(phi, P.D);
        in_child(s, C, qs_probe, &P, motion, (size_t)(6 * n + 7));
        memcpy(&S->qs[j], motion + 6 * n, sizeof S->qs[j]);
        P.motion = motion;
        movement_ratio(s, &P, &S->A[4 * j]);
        if (C->verbose)
            fprintf(stderr,
                    "delta %.0e, direction %3.0f deg: quasi-static d sigma (%.4g %.4g %.4g) Pa, K %.4g Pa, unbalanced "
                    "%.1e; at the limit: A median %.3f, 90 %% %.3f, angle median %.0f deg, above 30 deg %.0f %%\n",
                    S->delta, phi * 180 / M_PI, S->qs[j].xx, S->qs[j].yy, S->qs[j].zz,
                    stiffness(phi, S->delta, S->qs[j]), motion[6 * n + 6], S->A[4 * j], S->A[4 * j + 1],
                    S->A[4 * j + 2], 100 * S->A[4 * j + 3]);
        for (int law = 0; law < LAW_COUNT; law++) {
            if (!(S->laws & (1u << law))) continue;
            for (int k = 0; k < C->n_ns; k++) {
                P.law = law;
                P.n = C->ns[k];
                double out[14];
                in_child(s, C, replay, &P, out, 14);
                result *r = at(S, C, j, law, k);
                memcpy(&r->ds, out, sizeof r->ds);
                memcpy(&r->irr, out + 6, sizeof r->irr);
                r->slip = out[12];
                r->contacts = out[13];
            }
        }
        if (!S->free_probes) continue;
        for (int l = 0; l < 2; l++)
            for (int k = 0; k < C->n_dyn; k++) {
                P.law = l ? LAW_CONVENTIONAL : LAW_REFINED;
                P.n = C->dyn_ns[k];
                double out[12];
                in_child(s, C, free_probe, &P, out, 12);
                memcpy(&S->dyn[2 * ((j * 2 + l) * C->n_dyn + k)], out, 2 * sizeof(sym6));
            }
    }
    free(motion);
}

/* the free probe of direction j, law l (0 refined, 1 conventional), dyn_ns[k]:
 * d sigma and the irreversible part */
static const sym6 *free_result(const study *S, const config *C, int j, int l, int k)
{
    return &S->dyn[2 * ((j * 2 + l) * C->n_dyn + k)];
}

static void write_csv(FILE *csv, const study *S, const config *C)
{
    for (int j = 0; j < C->n_dirs; j++) {
        const double phi = dir_phi(C, j), deg = phi * 180 / M_PI;
        const sym6 q = S->qs[j];
        fprintf(csv, "qs,refined,%g,%.1f,%d,%.9e,%.9e,%.9e,%.9e,%.9e,%.9e,%.9e,,,,,,,,,,,%.6e,%.6e,%.6e,%.6e\n",
                S->delta, deg, C->qs_apply, q.xx, q.yy, q.zz, q.xy, q.xz, q.yz, stiffness(phi, S->delta, q),
                S->A[4 * j], S->A[4 * j + 1], S->A[4 * j + 2], S->A[4 * j + 3]);
        for (int law = 0; law < LAW_COUNT; law++) {
            if (!(S->laws & (1u << law))) continue;
            for (int k = 0; k < C->n_ns; k++) {
                const result *r = at(S, C, j, law, k);
                const sym6 d = r->ds, e = r->irr;
                fprintf(csv,
                        "replay,%s,%g,%.1f,%d,%.9e,%.9e,%.9e,%.9e,%.9e,%.9e,%.9e,%.6e,%.9e,%.9e,%.9e,%.9e,%.9e,%.9e,"
                        "%.6e,%.0f,%.0f,,,,\n",
                        law_names[law], S->delta, deg, C->ns[k], d.xx, d.yy, d.zz, d.xy, d.xz, d.yz,
                        stiffness(phi, S->delta, d), err_total(S, C, j, law, k), e.xx, e.yy, e.zz, e.xy, e.xz, e.yz,
                        err_irr(S, C, j, law, k), r->slip, r->contacts);
            }
        }
        if (!S->free_probes) continue;
        for (int l = 0; l < 2; l++)
            for (int k = 0; k < C->n_dyn; k++) {
                const sym6 *d = free_result(S, C, j, l, k), *ref = free_result(S, C, j, 0, k);
                /* refined: the stress increment against the quasi-static
                 * probe's; conventional: against the refined law's free probe
                 * of the same n */
                const double err = l ? s6_norm(s6_sub(d[0], ref[0])) / s6_norm(ref[0])
                                     : s6_norm(s6_sub(d[0], q)) / s6_norm(q);
                const double eirr = l ? s6_norm(s6_sub(d[1], ref[1])) / s6_norm(ref[1]) : 0.0;
                fprintf(csv,
                        "free,%s,%g,%.1f,%d,%.9e,%.9e,%.9e,%.9e,%.9e,%.9e,%.9e,%.6e,%.9e,%.9e,%.9e,%.9e,%.9e,%.9e,%.6e,,,"
                        ",,,,\n",
                        law_names[l ? LAW_CONVENTIONAL : LAW_REFINED], S->delta, deg, C->dyn_ns[k], d[0].xx, d[0].yy,
                        d[0].zz, d[0].xy, d[0].xz, d[0].yz, stiffness(phi, S->delta, d[0]), err, d[1].xx, d[1].yy,
                        d[1].zz, d[1].xy, d[1].xz, d[1].yz, eirr);
            }
    }
    fflush(csv);
}

static void summary(const study *S, const config *C)
{
    for (int which = 0; which < 2; which++) {
        fprintf(stderr, "delta %.0e: %s, mean (max) over the %s directions:\n", S->delta,
                which ? "error of the irreversible part" : "error of the stress increment", which ? "plastic" : "");
        for (int law = 0; law < LAW_COUNT; law++) {
            if (!(S->laws & (1u << law))) continue;
            fprintf(stderr, "  %-13s", law_names[law]);
            for (int k = 0; k < C->n_ns; k++) {
                double mean = 0, mx = 0;
                int cnt = 0;
                for (int j = 0; j < C->n_dirs; j++) {
                    if (which && !plastic(S, C, j)) continue;
                    const double e = which ? err_irr(S, C, j, law, k) : err_total(S, C, j, law, k);
                    mean += e;
                    cnt++;
                    mx = fmax(mx, e);
                }
                fprintf(stderr, " %d: %.2e (%.2e)", C->ns[k], cnt ? mean / cnt : NAN, mx);
            }
            fprintf(stderr, "\n");
        }
    }
    if (!S->free_probes) return;
    for (int k = 0; k < C->n_dyn; k++) {
        double e_ref = 0, e_conv = 0, e_irr = 0;
        for (int j = 0; j < C->n_dirs; j++) {
            const sym6 *r = free_result(S, C, j, 0, k), *c = free_result(S, C, j, 1, k);
            e_ref = fmax(e_ref, s6_norm(s6_sub(r[0], S->qs[j])) / s6_norm(S->qs[j]));
            e_conv = fmax(e_conv, s6_norm(s6_sub(c[0], r[0])) / s6_norm(r[0]));
            if (plastic(S, C, j)) e_irr = fmax(e_irr, s6_norm(s6_sub(c[1], r[1])) / s6_norm(r[1]));
        }
        fprintf(stderr,
                "free probes in %d steps: refined against quasi-static, largest %.2e; conventional against refined, "
                "largest %.2e (irreversible part, plastic directions: %.2e)\n",
                C->dyn_ns[k], e_ref, e_conv, e_irr);
    }
}

static void free_study(study *S)
{
    free(S->res);
    free(S->qs);
    free(S->dyn);
    free(S->A);
}

/* the checks of the quick variants: a failed condition is reported, with
 * the values, under the variant's name (check_name) and sets `fail` */
static const char *check_name = "kuhn_probes --check";
#define EXPECT(cond, ...)                                \
    do {                                                 \
        if (!(cond)) {                                   \
            fprintf(stderr, "%s: ", check_name);         \
            fprintf(stderr, __VA_ARGS__);                \
            fprintf(stderr, " (%s)\n", #cond);           \
            fail = 1;                                    \
        }                                                \
    } while (0)

/* What the quick variant asserts (measured values in docs/kuhn-law.md 5). */
static int check(const study *S, const config *C, grit_scene *s)
{
    int fail = 0;
    /* the prepared state is near the friction limit */
    const sym6 sg = stress6(s);
    const census c = take_census(s, C->n_spheres);
    EXPECT(deviator(sg) > 0.85 * pressure(sg) && fabs(pressure(sg) - C->p0) < 0.01 * C->p0, "q/p %.3f, p %.4g Pa",
           deviator(sg) / pressure(sg), pressure(sg));
    EXPECT(c.at_limit > 0.1 * c.contacts, "%d of %d contacts at the friction limit", c.at_limit, c.contacts);
    fprintf(stderr, "prepared: p %.4g Pa, q/p %.3f, %d of %d contacts at the friction limit (%.1f %%)\n", pressure(sg),
            deviator(sg) / pressure(sg), c.at_limit, c.contacts, 100.0 * c.at_limit / c.contacts);
    int n_plastic = 0;
    for (int j = 0; j < C->n_dirs; j++) {
        const double phi = dir_phi(C, j), deg = phi * 180 / M_PI;
        EXPECT(stiffness(phi, S->delta, S->qs[j]) > 1e6, "direction %.0f: stiffness %.3g Pa", deg,
               stiffness(phi, S->delta, S->qs[j]));
        /* the refined law does not depend on the number of steps (up to the
         * geometric non-linearity of the motion) */
        for (int k = 0; k < C->n_ns; k++)
            EXPECT(err_total(S, C, j, LAW_REFINED, k) < 1e-4, "direction %.0f, n = %d: refined error %.2e", deg,
                   C->ns[k], err_total(S, C, j, LAW_REFINED, k));
        if (!plastic(S, C, j)) continue;
        n_plastic++;
        for (int k = 0; k < C->n_ns; k++)
            EXPECT(err_irr(S, C, j, LAW_REFINED, k) < 5e-4, "direction %.0f, n = %d: refined irreversible error %.2e",
                   deg, C->ns[k], err_irr(S, C, j, LAW_REFINED, k));
        /* the conventional law's irreversible part errs more, and converges
         * to the refined one as 1/n */
        const double e1 = err_irr(S, C, j, LAW_CONVENTIONAL, 0);
        EXPECT(e1 > 5 * err_irr(S, C, j, LAW_REFINED, 0), "direction %.0f, n = 1: conventional %.2e, refined %.2e", deg,
               e1, err_irr(S, C, j, LAW_REFINED, 0));
        for (int k = 1; k < C->n_ns; k++)
            EXPECT(err_irr(S, C, j, LAW_CONVENTIONAL, k) < 0.75 * err_irr(S, C, j, LAW_CONVENTIONAL, k - 1),
                   "direction %.0f: conventional error %.2e at n = %d, %.2e at n = %d", deg,
                   err_irr(S, C, j, LAW_CONVENTIONAL, k), C->ns[k], err_irr(S, C, j, LAW_CONVENTIONAL, k - 1),
                   C->ns[k - 1]);
        const double e_last = err_irr(S, C, j, LAW_CONVENTIONAL, C->n_ns - 1);
        fprintf(stderr,
                "direction %.0f: irreversible part at n = 1: refined %.2e, conventional %.2e (%.1f times); "
                "conventional n = 1 / n = %d: %.1f\n",
                deg, err_irr(S, C, j, LAW_REFINED, 0), e1, e1 / err_irr(S, C, j, LAW_REFINED, 0), C->ns[C->n_ns - 1],
                e1 / e_last);
        EXPECT(e1 > 0.3 * C->ns[C->n_ns - 1] * e_last, "direction %.0f: conventional error %.2e at n = 1, %.2e at n = %d",
               deg, e1, e_last, C->ns[C->n_ns - 1]);
    }
    EXPECT(n_plastic >= 1, "%d plastic directions", n_plastic);
    if (!fail) fprintf(stderr, "kuhn_probes --check: all checks passed (%d plastic directions)\n", n_plastic);
    return fail;
}

/* ---- radial probes: the paper's plot of the plastic strain (docs/kuhn-law.md 5b)
 *
 * Every tensor is written in the orthonormal basis of principal space
 * b1 = I/sqrt3 (volumetric), b2 = diag(-1,-1,2)/sqrt6 (deviatoric along z),
 * b3 = diag(1,-1,0)/sqrt2 (out of the Rendulic plane), compression positive
 * for stress and strain alike. For one series of probes (a kind, a law, a
 * step count):
 *   - the elastic stiffness De (m x m, m = 2 in the Rendulic plane, 3 over
 *     the sphere) by least squares from the reversible part,
 *     d sigma - d sigma_irr = De d eps over every direction;
 *   - the plastic strain of each probe d eps_p = -De^-1 d sigma_irr (the
 *     stress left after the reversal is what the plastic strain did
 *     elastically: d sigma_irr = De (0 - d eps_p));
 *   - its point: along d sigma, at the distance |d eps_p| / |d sigma|;
 *   - the fit r = d . n (n the unit stress increment) over the loading side,
 *     a circle (sphere) through the origin of diameter |d|: H = 1 / |d|. */

enum { SER_MAX = 24, SET_RENDULIC = 0, SET_SPHERE = 1 };

typedef struct series {
    bool free_probe; /* free DEM probe, or replay of the quasi-static motion */
    int law, n;
    bool perturb;
} series;

typedef struct radial {
    int set, n_dirs, m; /* m: coordinates used (2 Rendulic, 3 sphere) */
    double (*u)[3];     /* [dir] the unit strain direction, basis coordinates (compression positive) */
    int n_series;
    series ser[SER_MAX];
    sym6 *res; /* [dir][series][2]: d sigma, d sigma_irr */
} radial;

typedef struct circle_fit {
    double H, d[3], yield_deg, rms_rel, De[3][3];
    int used;
    bool ok;
    double (*pt)[4]; /* [dir]: theta (deg, in the b1-b2 plane), r, loading (0/1), |d eps_p| */
} circle_fit;

static const double B[3][3] = {{0.57735026918962576, 0.57735026918962576, 0.57735026918962576},
                               {-0.40824829046386302, -0.40824829046386302, 0.81649658092772603},
                               {0.70710678118654752, -0.70710678118654752, 0}};

/* basis coordinates of a tension-positive tensor, compression positive */
static void coords(sym6 t, double c[3])
{
    const double d[3] = {t.xx, t.yy, t.zz};
    for (int a = 0; a < 3; a++) c[a] = -(B[a][0] * d[0] + B[a][1] * d[1] + B[a][2] * d[2]);
}

/* solve A x = b (m <= 3) by Gaussian elimination with partial pivoting; false if singular */
static bool solve(int m, double A[3][3], double b[3], double x[3])
{
    double M[3][4];
    for (int i = 0; i < m; i++) {
        for (int j = 0; j < m; j++) M[i][j] = A[i][j];
        M[i][m] = b[i];
    }
    for (int c = 0; c < m; c++) {
        int p = c;
        for (int i = c + 1; i < m; i++)
            if (fabs(M[i][c]) > fabs(M[p][c])) p = i;
        if (!(fabs(M[p][c]) > 0)) return false;
        for (int j = 0; j <= m; j++) {
            const double t = M[c][j];
            M[c][j] = M[p][j];
            M[p][j] = t;
        }
        for (int i = c + 1; i < m; i++) {
            const double f = M[i][c] / M[c][c];
            for (int j = c; j <= m; j++) M[i][j] -= f * M[c][j];
        }
    }
    for (int i = m - 1; i >= 0; i--) {
        double t = M[i][m];
        for (int j = i + 1; j < m; j++) t -= M[i][j] * x[j];
        x[i] = t / M[i][i];
    }
    return true;
}

static double dotm(int m, const double *a, const double *b)
{
    double t = 0;
    for (int k = 0; k < m; k++) t += a[k] * b[k];
    return t;
}

static void fit_series(const radial *R, int k, double delta, circle_fit *F)
{
    const int m = R->m, nd = R->n_dirs;
    memset(F->d, 0, sizeof F->d);
    memset(F->De, 0, sizeof F->De);
    F->ok = false;
    F->used = 0;
    /* De = (sum s_rev e^T) (sum e e^T)^-1, row by row: (sum e e^T) De_i = sum s_rev_i e */
    double EE[3][3] = {{0}}, SE[3][3] = {{0}};
    double (*s)[3] = malloc(sizeof *s * (size_t)nd), (*n)[3] = malloc(sizeof *n * (size_t)nd);
    double *r = malloc(sizeof *r * (size_t)nd);
    bool *in = calloc((size_t)nd, sizeof *in);
    if (!s || !n || !r || !in) die(NULL, "out of memory");
    for (int j = 0; j < nd; j++) {
        const sym6 *o = &R->res[2 * (j * R->n_series + k)];
        double ds[3], irr[3];
        coords(o[0], ds);
        coords(o[1], irr);
        for (int a = 0; a < m; a++)
            for (int b = 0; b < m; b++) {
                EE[a][b] += delta * R->u[j][a] * delta * R->u[j][b];
                SE[a][b] += (ds[a] - irr[a]) * delta * R->u[j][b];
            }
        memcpy(s[j], ds, sizeof ds);
        memcpy(n[j], irr, sizeof irr); /* the irreversible part, for now */
    }
    for (int a = 0; a < m; a++) {
        double row[3];
        double EEc[3][3];
        memcpy(EEc, EE, sizeof EE);
        if (!solve(m, EEc, SE[a], row)) goto out;
        for (int b = 0; b < m; b++) F->De[a][b] = row[b];
    }
    for (int j = 0; j < nd; j++) {
        double rhs[3], ep[3], De[3][3];
        for (int a = 0; a < m; a++) rhs[a] = -n[j][a];
        memcpy(De, F->De, sizeof De);
        if (!solve(m, De, rhs, ep)) goto out;
        const double ns = sqrt(dotm(m, s[j], s[j]));
        r[j] = sqrt(dotm(m, ep, ep)) / ns;
        for (int a = 0; a < 3; a++) n[j][a] = a < m ? s[j][a] / ns : 0;
        F->pt[j][0] = atan2(n[j][1], n[j][0]) * 180 / M_PI;
        F->pt[j][1] = r[j];
        F->pt[j][3] = sqrt(dotm(m, ep, ep));
    }
    /* the loading side: first the points beyond a quarter of the largest
     * radius, then, until the set stays, those whose stress increment has a
     * positive component along the fitted yield direction d (the half-plane
     * of loading; the small complementary circle of the unloading side lies
     * in the other half) */
    double rmax = 0;
    for (int j = 0; j < nd; j++) rmax = fmax(rmax, r[j]);
    for (int j = 0; j < nd; j++) in[j] = r[j] >= 0.25 * rmax;
    for (int it = 0; it < 20; it++) {
        double A[3][3] = {{0}}, b[3] = {0};
        int cnt = 0;
        for (int j = 0; j < nd; j++) {
            if (!in[j]) continue;
            cnt++;
            for (int a = 0; a < m; a++) {
                b[a] += r[j] * n[j][a];
                for (int c = 0; c < m; c++) A[a][c] += n[j][a] * n[j][c];
            }
        }
        if (cnt < m + 1 || !solve(m, A, b, F->d)) goto out;
        const double dn = sqrt(dotm(m, F->d, F->d));
        bool same = true;
        for (int j = 0; j < nd; j++) {
            const bool now = dotm(m, n[j], F->d) > LOADING_COS * dn;
            same &= now == in[j];
            in[j] = now;
        }
        if (same) break;
    }
    {
        const double dn = sqrt(dotm(m, F->d, F->d));
        double ss = 0;
        for (int j = 0; j < nd; j++) {
            F->pt[j][2] = in[j];
            if (!in[j]) continue;
            const double e = r[j] - dotm(m, n[j], F->d);
            ss += e * e;
            F->used++;
        }
        F->H = 1 / dn;
        F->rms_rel = F->used ? sqrt(ss / F->used) / dn : NAN;
        F->yield_deg = atan2(F->d[1], F->d[0]) * 180 / M_PI;
        F->ok = F->used > m;
    }
out:
    free(s);
    free(n);
    free(r);
    free(in);
}

/* the unit strain directions: evenly around the Rendulic plane from 0, or a
 * Fibonacci lattice on the sphere of principal space */
static void radial_dirs(radial *R)
{
    R->u = malloc(sizeof *R->u * (size_t)R->n_dirs);
    if (!R->u) die(NULL, "out of memory");
    for (int j = 0; j < R->n_dirs; j++) {
        if (R->set == SET_RENDULIC) {
            const double phi = 2 * M_PI * j / R->n_dirs;
            R->u[j][0] = cos(phi), R->u[j][1] = sin(phi), R->u[j][2] = 0;
        } else {
            const double z = 1 - (2 * j + 1.0) / R->n_dirs, rho = sqrt(1 - z * z);
            const double a = j * M_PI * (3 - sqrt(5.0));
            R->u[j][0] = rho * cos(a), R->u[j][1] = rho * sin(a), R->u[j][2] = z;
        }
    }
}

static void run_radial(grit_scene *s, const config *C, radial *R, double delta)
{
    const int n = g_nb;
    R->res = calloc((size_t)(2 * R->n_dirs * R->n_series), sizeof *R->res);
    double *motion = malloc(sizeof *motion * (size_t)(6 * n + 7));
    if (!R->res || !motion) die(NULL, "out of memory");
    bool any_replay = false;
    for (int k = 0; k < R->n_series; k++) any_replay |= !R->ser[k].free_probe;
    for (int j = 0; j < R->n_dirs; j++) {
        probe_arg P = {.delta = delta};
        /* tension-positive diagonal of the direction: minus the basis combination */
        for (int c = 0; c < 3; c++) P.D[c] = -(R->u[j][0] * B[0][c] + R->u[j][1] * B[1][c] + R->u[j][2] * B[2][c]);
        if (any_replay) {
            in_child(s, C, qs_probe, &P, motion, (size_t)(6 * n + 7));
            P.motion = motion;
        }
        for (int k = 0; k < R->n_series; k++) {
            P.law = R->ser[k].law;
            P.n = R->ser[k].n;
            P.perturb = R->ser[k].perturb;
            double out[14];
            in_child(s, C, R->ser[k].free_probe ? free_probe : replay, &P, out, R->ser[k].free_probe ? 12 : 14);
            memcpy(&R->res[2 * (j * R->n_series + k)], out, 2 * sizeof(sym6));
        }
        if (C->verbose && j % 8 == 7)
            fprintf(stderr, "  %s: %d of %d directions, CPU %.0f s\n", R->set ? "sphere" : "Rendulic", j + 1,
                    R->n_dirs, cpu_seconds());
    }
    free(motion);
}

static const char *series_name(const series *S)
{
    if (S->perturb) return "refined-perturbed";
    return law_names[S->law];
}

/* fits of every series; points and fits to the CSV files (may be NULL);
 * the table to stderr */
static void radial_report(const radial *R, double delta, FILE *pts, FILE *fits, circle_fit *F, bool verbose)
{
    const char *set = R->set ? "sphere" : "rendulic";
    for (int k = 0; k < R->n_series; k++) {
        F[k].pt = malloc(sizeof *F[k].pt * (size_t)R->n_dirs);
        if (!F[k].pt) die(NULL, "out of memory");
        fit_series(R, k, delta, &F[k]);
        const series *S = &R->ser[k];
        const char *kind = S->free_probe ? "free" : "replay";
        if (pts)
            for (int j = 0; j < R->n_dirs; j++) {
                const sym6 *o = &R->res[2 * (j * R->n_series + k)];
                double ds[3], irr[3];
                coords(o[0], ds);
                coords(o[1], irr);
                fprintf(pts, "%s,%s,%s,%d,%d,%.6f,%.6f,%.6f,%.9e,%.9e,%.9e,%.9e,%.9e,%.9e,%.3f,%.9e,%.0f,%.9e\n", set,
                        kind, series_name(S), S->n, j, R->u[j][0], R->u[j][1], R->u[j][2], ds[0], ds[1], ds[2],
                        irr[0], irr[1], irr[2], F[k].pt[j][0], F[k].pt[j][1], F[k].pt[j][2], F[k].pt[j][3]);
            }
        if (fits)
            fprintf(fits, "%s,%s,%s,%d,%d,%.9e,%.9e,%.9e,%.9e,%.3f,%.6e,%d,%.6e,%.6e,%.6e,%.6e\n", set, kind,
                    series_name(S), S->n, R->n_dirs, F[k].H, F[k].d[0], F[k].d[1], F[k].d[2], F[k].yield_deg,
                    F[k].rms_rel, F[k].used, F[k].De[0][0], F[k].De[0][1], F[k].De[1][0], F[k].De[1][1]);
    }
    if (!verbose) return;
    fprintf(stderr, "%s, %d directions, delta %.0e: hardening modulus H = 1/|d| of the fit r = d.n\n", set,
            R->n_dirs, delta);
    for (int k = 0; k < R->n_series; k++) {
        const series *S = &R->ser[k];
        /* against the refined law of the same kind and n */
        int ref = -1;
        for (int l = 0; l < R->n_series; l++)
            if (R->ser[l].law == LAW_REFINED && !R->ser[l].perturb && R->ser[l].free_probe == S->free_probe &&
                R->ser[l].n == S->n)
                ref = l;
        fprintf(stderr,
                "  %-6s %-17s n = %4d: H %.4g MPa, yield direction %.1f deg, fit rms %.3f of the diameter over %d "
                "points, De (%.4g %.4g; %.4g %.4g) MPa; against refined %+.2e\n",
                S->free_probe ? "free" : "replay", series_name(S), S->n, F[k].H * 1e-6, F[k].yield_deg, F[k].rms_rel,
                F[k].used, F[k].De[0][0] * 1e-6, F[k].De[0][1] * 1e-6, F[k].De[1][0] * 1e-6, F[k].De[1][1] * 1e-6,
                ref >= 0 ? F[k].H / F[ref].H - 1 : NAN);
    }
}

static void free_radial(radial *R, circle_fit *F)
{
    for (int k = 0; k < R->n_series; k++) free(F[k].pt);
    free(R->u);
    free(R->res);
}

/* What the quick radial variant asserts (measured values in docs/kuhn-law.md 5b). */
static int radial_check(const radial *R, const circle_fit *F)
{
    int fail = 0;
    check_name = "kuhn_probes --radial-check";
    /* series 2k: refined, 2k + 1: conventional, at n = 1, 10, 100 */
    const double Href = F[2 * (R->n_series / 2 - 1)].H;
    double prev = INFINITY;
    for (int k = 0; k < R->n_series / 2; k++) {
        const circle_fit *r = &F[2 * k], *c = &F[2 * k + 1];
        const int n = R->ser[2 * k].n;
        EXPECT(r->ok && c->ok, "n = %d: a fit failed", n);
        EXPECT(r->rms_rel < RADIAL_RMS_MAX, "n = %d: the refined fit's rms is %.3f of the diameter", n, r->rms_rel);
        EXPECT(r->used >= R->n_dirs / 4, "n = %d: %d points on the loading side", n, r->used);
        EXPECT(fabs(r->H / Href - 1) < RADIAL_REFINED_MAX, "n = %d: refined H %.6g, at the largest n %.6g", n, r->H, Href);
        const double e = fabs(c->H / Href - 1);
        EXPECT(e < prev, "n = %d: conventional H off by %.2e, not less than with fewer steps (%.2e)", n, e, prev);
        prev = e;
        fprintf(stderr, "n = %d: H refined %.6g MPa, conventional %.6g MPa (%+.2e), fit rms %.3f, %d points\n", n,
                r->H * 1e-6, c->H * 1e-6, c->H / Href - 1, r->rms_rel, r->used);
    }
    if (!fail) fprintf(stderr, "kuhn_probes --radial-check: all checks passed\n");
    return fail;
}

/* The radial mode: kuhn_probes --radial [OUT.csv] [N] and --radial-check. */
static int radial_main(int argc, char **argv, config *C)
{
    const bool quick = strcmp(argv[1], "--radial-check") == 0;
    const char *pos[2] = {NULL, NULL}; /* OUT.csv, N */
    for (int i = 2, k = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--clumps"))
            C->clump_members = 2;
        else if (!strcmp(argv[i], "--qp") && i + 1 < argc)
            C->qp_target = atof(argv[++i]);
        else if (k < 2)
            pos[k++] = argv[i];
    }
    const char *path = pos[0] && !quick ? pos[0] : "kuhn_radial.csv";
    if (!quick && pos[1]) C->n_spheres = atoi(pos[1]);
    if (C->n_spheres < 50) {
        fprintf(stderr, "kuhn_probes: N = %d grains: at least 50\n", C->n_spheres);
        return 1;
    }
    const double delta = 1e-4;
    radial R[2] = {{.set = SET_RENDULIC, .n_dirs = 72, .m = 2}, {.set = SET_SPHERE, .n_dirs = 48, .m = 3}};
    int n_sets = 2;
    static const int REPLAY_NS[] = {1, 3, 10, 30, 300}, CHECK_NS[] = {1, 10, 100};
    const int *ns = quick ? CHECK_NS : REPLAY_NS;
    const int n_ns = quick ? 3 : 5;
    for (int k = 0; k < n_ns; k++)
        for (int l = 0; l < 2; l++)
            R[0].ser[R[0].n_series++] = (series){.law = l ? LAW_CONVENTIONAL : LAW_REFINED, .n = ns[k]};
    if (quick) {
        C->n_spheres = 200;
        C->qs_apply = 200;
        C->qs_relax = 300;
        C->verbose = false;
        R[0].n_dirs = 20;
        n_sets = 1;
    } else {
        for (int l = 0; l < 3; l++)
            R[0].ser[R[0].n_series++] =
                (series){.free_probe = true, .law = l == 1 ? LAW_CONVENTIONAL : LAW_REFINED, .n = 30, .perturb = l == 2};
        for (int l = 0; l < 4; l++)
            R[1].ser[R[1].n_series++] =
                (series){.free_probe = l >= 2, .law = l % 2 ? LAW_CONVENTIONAL : LAW_REFINED, .n = 30};
    }
    FILE *pts = NULL, *fits = NULL;
    if (!quick) {
        char fpath[4096];
        const size_t len = strlen(path);
        snprintf(fpath, sizeof fpath, "%.*s_fits.csv", (int)(len > 4 && !strcmp(path + len - 4, ".csv") ? len - 4 : len),
                 path);
        pts = fopen(path, "w");
        fits = fopen(fpath, "w");
        if (!pts || !fits) {
            fprintf(stderr, "kuhn_probes: cannot write %s or %s\n", path, fpath);
            return 1;
        }
        fprintf(pts, "set,kind,law,n,j,u1,u2,u3,ds1,ds2,ds3,irr1,irr2,irr3,theta_deg,r,loading,eps_p\n");
        fprintf(fits, "set,kind,law,n,dirs,H,d1,d2,d3,yield_deg,rms_rel,used,De11,De12,De21,De22\n");
    }
    const double t0 = cpu_seconds();
    grit_scene *s = prepare(C);
    const double t1 = cpu_seconds();
    {
        const sym6 sg = stress6(s);
        const census c = take_census(s, g_nb);
        fprintf(stderr, "%d %s: p %.4g Pa, q/p %.3f, %d contacts, %.1f %% at the friction limit, %.1f %% above 0.9 mu N\n",
                g_nb, C->clump_members ? "clumps" : "spheres", pressure(sg), deviator(sg) / pressure(sg), c.contacts,
                100.0 * c.at_limit / c.contacts, 100.0 * c.near_limit / c.contacts);
    }
    circle_fit F[2][SER_MAX];
    for (int i = 0; i < n_sets; i++) {
        radial_dirs(&R[i]);
        run_radial(s, C, &R[i], delta);
        radial_report(&R[i], delta, pts, fits, F[i], true);
    }
    fprintf(stderr, "CPU time %.1f s (preparation %.1f s; this process and its probe processes)\n",
            cpu_seconds() - t0, t1 - t0);
    int fail = 0;
    if (quick) fail = radial_check(&R[0], F[0]);
    if (pts) fclose(pts);
    if (fits) fclose(fits);
    for (int i = 0; i < n_sets; i++) free_radial(&R[i], F[i]);
    grit_scene_destroy(s);
    free(g_body);
    return fail;
}

int main(int argc, char **argv)
{
    config C = {
        .n_spheres = 2000,
        .p0 = 1e5,
        .qp_target = 0.9,
        .axial_max = 0.05,
        .n_dirs = 8,
        .phi0 = 0,
        .ns = NS_FULL,
        .n_ns = (int)(sizeof NS_FULL / sizeof *NS_FULL),
        .dyn_ns = DYN_FULL,
        .n_dyn = (int)(sizeof DYN_FULL / sizeof *DYN_FULL),
        .qs_apply = 500,
        .qs_relax = 1500,
        .dyn_relax = 1500,
        .verbose = true,
    };
    if (argc > 1 && (!strcmp(argv[1], "--radial") || !strcmp(argv[1], "--radial-check"))) return radial_main(argc, argv, &C);
    const bool quick = argc > 1 && strcmp(argv[1], "--check") == 0;
    const char *path = "kuhn_probes.csv";
    const unsigned all = (1u << LAW_COUNT) - 1,
                   main4 = (1u << LAW_REFINED) | (1u << LAW_CONVENTIONAL) | (1u << LAW_TWIRL) | (1u << LAW_IDEALELPL);
    study studies[2] = {{.delta = 1e-4, .laws = all, .free_probes = true}, {.delta = 1e-3, .laws = main4}};
    int n_studies = 2;
    if (quick) {
        C.n_spheres = 200;
        C.n_dirs = 4;
        C.phi0 = M_PI / 4;
        C.ns = NS_CHECK;
        C.n_ns = (int)(sizeof NS_CHECK / sizeof *NS_CHECK);
        C.qs_apply = 200;
        C.qs_relax = 300;
        C.verbose = false;
        studies[0] = (study){.delta = 1e-4, .laws = (1u << LAW_REFINED) | (1u << LAW_CONVENTIONAL)};
        n_studies = 1;
    } else {
        if (argc > 1) path = argv[1];
        if (argc > 2) C.n_spheres = atoi(argv[2]);
        if (C.n_spheres < 50) {
            fprintf(stderr, "kuhn_probes: N = %d spheres: at least 50\n", C.n_spheres);
            return 1;
        }
    }
    FILE *csv = NULL;
    if (!quick) {
        csv = fopen(path, "w");
        if (!csv) {
            fprintf(stderr, "kuhn_probes: cannot write %s\n", path);
            return 1;
        }
        fprintf(csv, "kind,law,delta,phi_deg,n,dsxx,dsyy,dszz,dsxy,dsxz,dsyz,K,err,irrxx,irryy,irrzz,irrxy,irrxz,irryz,"
                     "err_irr,slip,contacts,A_med,A_p90,angle_med,angle_over30\n");
    }
    const double t0 = cpu_seconds();
    grit_scene *s = prepare(&C);
    const double t1 = cpu_seconds();
    for (int i = 0; i < n_studies; i++) {
        run_study(s, &C, &studies[i]);
        if (csv) write_csv(csv, &studies[i], &C);
        summary(&studies[i], &C);
    }
    fprintf(stderr, "CPU time %.1f s (preparation %.1f s; this process and its probe processes)\n",
            cpu_seconds() - t0, t1 - t0);
    const int fail = quick ? check(&studies[0], &C, s) : 0;
    if (csv) fclose(csv);
    for (int i = 0; i < n_studies; i++) free_study(&studies[i]);
    grit_scene_destroy(s);
    free(g_body);
    return fail;
}
