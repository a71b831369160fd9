/* grit run NAME key=value ...: build the scene, check everything, then step
 * it with output, progress and a summary.
 *
 * Everything that can be wrong with the input is found before the output
 * folder is created: parameters, the preprocessor's scene (files it reads),
 * the time step against the critical one, the output folder itself. */
#include <dirent.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "mpi_job.h"
#include "grit/reflect.h"
#include "grit/io.h"
#include "grit/restart.h"
#include "grit/shapes.h"
#include "outdir.h"
#include "eta.h"
#include "series.h"
#include "core/clock.h"

static volatile sig_atomic_t interrupted = 0;
/* The line printed when an interrupt is not taken up within a second (a step
 * that does not end, a write that blocks): composed before the run, because
 * a signal handler may only write(). */
static char stuck_msg[9000];
static volatile sig_atomic_t stuck_len = 0;

static void give_up(int sig)
{
    (void)sig;
    if (stuck_len > 0 && write(STDERR_FILENO, stuck_msg, (size_t)stuck_len) < 0) _exit(EXIT_INTERRUPTED);
    _exit(EXIT_INTERRUPTED);
}

/* Signals are looked at between steps; a step may take any time (a scene too
 * large, a hang in a library call), so the first signal also arms a one-second
 * alarm and a second signal ends the run at once: an interrupt is honoured
 * within a second wherever the run is. The files on disk stay as they were:
 * each is replaced atomically, so the last checkpoint is intact. */
static void on_signal(int sig)
{
    if (interrupted) give_up(sig);
    interrupted = sig;
    alarm(1);
}
bool run_interrupted(void) { return interrupted != 0; }

/* The run loop took the interrupt up: the alarm must not cut the saving of
 * the state that follows. */
static void interrupt_taken(void) { alarm(0); }

static void set_stuck_msg(const char *partial, const char *checkpoint)
{
    int n = snprintf(stuck_msg, sizeof stuck_msg,
                     "grit: error: interrupted; the run did not reach the end of a step within 1 s and was stopped "
                     "there; the incomplete output is in '%s'%s%s%s\n",
                     partial, checkpoint ? "; its last checkpoint: grit run restart file=" : "",
                     checkpoint ? checkpoint : "", checkpoint ? "" : " (no checkpoint was written yet)");
    stuck_len = n < 0 ? 0 : (n < (int)sizeof stuck_msg ? n : (int)sizeof stuck_msg - 1);
}

static void catch_signals(void)
{
    struct sigaction sa = {0};
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    struct sigaction al = {0};
    al.sa_handler = give_up;
    sigaction(SIGALRM, &al, NULL);
}

/* Test hook (tests/cli/interrupt.sh): GRIT_TEST_STALL_AT=K makes the run
 * stall at step K as a step that never ends would. */
static void test_stall(long k)
{
    static long at = -2;
    if (at == -2) {
        const char *e = getenv("GRIT_TEST_STALL_AT");
        at = e ? atol(e) : -1;
    }
    if (at >= 0 && k >= at)
        for (;;) pause();
}

/* Test hook (tests/cli/restart.sh): GRIT_TEST_INTERRUPT_AT=K makes the run
 * stop at step K as if Ctrl-C had come then, for outputs a test can compare
 * byte for byte. -1: none. */
static long test_interrupt_at(void)
{
    static long at = -2;
    if (at == -2) {
        const char *e = getenv("GRIT_TEST_INTERRUPT_AT");
        at = e ? atol(e) : -1;
    }
    return at;
}

#define GRIT_RUN_MAX_STEPS 1e15

static long lmin(long a, long b) { return a < b ? a : b; }

static void hms(double s, char *buf, size_t len)
{
    long t = s > 0 && s < 1e9 ? (long)(s + 0.5) : 0;
    if (t >= 3600) snprintf(buf, len, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
    else snprintf(buf, len, "%ld:%02ld", t / 60, t % 60);
}

/* The steps count from the start of the series (a continued run goes on
 * counting where the interrupted one stopped), the rate from this run's:
 * measured over the recent past (a quarter of the time so far, eta.h), since
 * a run slows down as contacts form. The ETA is shown once the run has gone
 * 2 s, and as an upper bound when it may stop when settled. */
typedef struct progress {
    bool tty, may_stop;
    double last, interval;
    long first, end, begun; /* the series' first and end step, the step this run began at */
    eta_clock eta; /* this run's steps over the wall clock: the rate and the ETA */
} progress;

/* Will progress_show print now (and so read the scene)? */
static bool progress_due(const progress *p)
{
    const double t = grit_wall_now();
    return t - p->last >= (p->tty ? 0.25 : p->interval) && (p->tty || p->interval > 0);
}

static void progress_show(progress *p, const grit_scene *s, bool final)
{
    const double t = grit_wall_now();
    const long k = grit_step_count(s);
    eta_sample(&p->eta, t, k);
    if (!final && t - p->last < (p->tty ? 0.25 : p->interval)) return;
    if (!p->tty && (p->interval <= 0 || final)) return;
    p->last = t;
    char eta[48] = "";
    const double left = eta_seconds(&p->eta, p->end);
    if (left >= 0) {
        char hm[32];
        hms(left, hm, sizeof hm);
        snprintf(eta, sizeof eta, "  ETA %s%s", p->may_stop ? "<= " : "", hm);
    }
    char ek[48] = "", ub[48] = "";
    if (grit_scene_get_def(s)->track_energy)
        snprintf(ek, sizeof ek, "  Ek %.3g J", grit_energy(s, GRIT_E_KINETIC));
    const double u = grit_unbalanced_force(s);
    if (!isnan(u)) snprintf(ub, sizeof ub, "  unbalanced %.3g", u);
    printf("%sstep %ld/%ld (%3.0f%%)  t = %.6g s%s%s  contacts %d  %.4g steps/s%s%s", p->tty ? "\r" : "", k, p->end,
           100.0 * (double)(k - p->first) / (double)fmax(1, p->end - p->first), grit_time(s), ek, ub,
           grit_contact_count(s), eta_rate(&p->eta), eta, p->tty ? "  " : "\n");
    if (final && p->tty) putchar('\n');
    fflush(stdout);
}

/* The output of a run: VTK series, energy log, and where they live. */
typedef struct output {
    char partial[4200];
    const char *out;
    grit_vtk_series *vtk;
    grit_energy_log *energy;
    grit_stress_log *stress; /* periodic scenes: stress.csv */
    long vtk_every, save_every;
    char msg[1024]; /* why the run stopped, when not the engine's grit_last_error */
    double checkpoint, last_checkpoint; /* wall-clock seconds */
    char restart[4300];                 /* OUT.partial/restart.grit */
    bool have_checkpoint;
    long checkpoint_step; /* the step of the state in restart */
    char stopped[160];    /* why the run ended before its end step (stop_unbalanced) */
    series_info series;   /* the steps and cadences of the series */
    bool cont;            /* going on with the series of an interrupted run */
    FILE *discharge;      /* scenes with outlets: discharge.csv */
    double *dis_t, *dis_m; /* its rows' time and deleted mass (all outlets) */
    int dis_n, dis_cap;
} output;

/* A word for the shell: as it is if it is plain, else in single quotes. */
static void shell_word(FILE *f, const char *w)
{
    if (*w && strspn(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./,:=+-@%") == strlen(w)) {
        fputs(w, f);
        return;
    }
    fputc('\'', f);
    for (; *w; w++)
        if (*w == '\'') fputs("'\\''", f);
        else fputc(*w, f);
    fputc('\'', f);
}

static int write_record(const job *j, const output *o, int argc, char **argv, char *err, size_t len)
{
    char path[4300];
    snprintf(path, sizeof path, "%s/%s", o->partial, OUTDIR_MARKER);
    FILE *f = fopen(path, "w");
    if (!f) return snprintf(err, len, "cannot write '%s'", path), -1;
    fprintf(f, "# grit %s: the parameters of this run (every key=value, defaults included)\n# grit run",
            GRIT_VERSION);
    for (int i = 0; i < argc; i++) fprintf(f, " %s", argv[i]);
    /* this file as a parameter file (every key=value a line), from the folder it ran in */
    char cwd[4096], file[4200];
    fprintf(f, "\n# repeat this run: ");
    if (getcwd(cwd, sizeof cwd)) fputs("cd ", f), shell_word(f, cwd), fputs(" && ", f);
    fprintf(f, "grit run %s ", j->pre->name);
    snprintf(file, sizeof file, "@%s/%s", o->out, OUTDIR_MARKER);
    shell_word(f, file);
    fputc('\n', f);
    if (o->series.end > 0) series_print(f, &o->series);
    job_print_params(j, f);
    if (fclose(f) != 0) return snprintf(err, len, "cannot write '%s'", path), -1;
    return 0;
}

/* Keep a row's time and total deleted mass for the rate fit. */
static int dis_push(output *o, double t, double m)
{
    if (o->dis_n == o->dis_cap) {
        const int cap = o->dis_cap ? 2 * o->dis_cap : 256;
        double *tt = realloc(o->dis_t, sizeof *tt * (size_t)cap);
        if (!tt) return -1;
        o->dis_t = tt;
        double *mm = realloc(o->dis_m, sizeof *mm * (size_t)cap);
        if (!mm) return -1;
        o->dis_m = mm;
        o->dis_cap = cap;
    }
    o->dis_t[o->dis_n] = t;
    o->dis_m[o->dis_n++] = m;
    return 0;
}

/* A row of discharge.csv: the mass and count each outlet deleted so far. */
static int discharge_row(output *o, grit_scene *s)
{
    double total = 0;
    fprintf(o->discharge, "%ld,%.17g", grit_step_count(s), grit_time(s));
    for (int k = 0; k < grit_outlet_count(s); k++) {
        grit_outlet_info in;
        grit_outlet_get(s, k, NULL, &in);
        fprintf(o->discharge, ",%.17g,%ld", in.mass, in.count);
        total += in.mass;
    }
    fputc('\n', o->discharge);
    return dis_push(o, grit_time(s), total) || ferror(o->discharge) ? -1 : 0;
}

/* Open discharge.csv: a new one, or (going on with an interrupted run's
 * series) the earlier one cut after the scene's step, its rows kept. */
static int discharge_open(output *o, grit_scene *s, const char *path)
{
    char *old = NULL;
    size_t len = 0;
    if (o->cont) {
        FILE *f = fopen(path, "r");
        if (f) {
            FILE *m = open_memstream(&old, &len);
            char line[4096];
            for (bool head = true; m && fgets(line, sizeof line, f); head = false) {
                double t, mass = 0;
                long step = -1;
                if (!head && (sscanf(line, "%ld,%lf,%lf", &step, &t, &mass) < 2 || step > grit_step_count(s))) break;
                fputs(line, m);
                if (head) continue;
                double total = 0; /* the outlets' masses: every other column from the third */
                const char *c = strchr(strchr(line, ',') + 1, ',');
                for (int k = 0; c; k++, c = strchr(c + 1, ','))
                    if (k % 2 == 0) total += strtod(c + 1, NULL);
                if (dis_push(o, t, total)) break;
            }
            if (m) fclose(m);
            fclose(f);
        }
    }
    if (!(o->discharge = fopen(path, "w"))) {
        free(old);
        return -1;
    }
    if (old && len > 0) fwrite(old, 1, len, o->discharge);
    else {
        fputs("step,time[s]", o->discharge);
        for (int k = 0; k < grit_outlet_count(s); k++) fprintf(o->discharge, ",mass_%d[kg],count_%d", k, k);
        fputc('\n', o->discharge);
    }
    free(old);
    return 0;
}

/* The steady discharge rate: the least-squares slope of the deleted mass
 * against time over the rows between 10 % and 90 % of the mass deleted by
 * the end (the start of the flow and the emptying left out). NaN with
 * fewer than 3 such rows. */
static double discharge_rate(const output *o)
{
    if (o->dis_n < 3) return NAN;
    const double M = o->dis_m[o->dis_n - 1];
    double n = 0, st = 0, sm = 0, stt = 0, stm = 0;
    for (int i = 0; i < o->dis_n; i++)
        if (o->dis_m[i] >= 0.1 * M && o->dis_m[i] <= 0.9 * M) {
            const double t = o->dis_t[i], m = o->dis_m[i];
            n++, st += t, sm += m, stt += t * t, stm += t * m;
        }
    const double den = n * stt - st * st;
    return n >= 3 && den > 0 ? (n * stm - st * sm) / den : NAN;
}

static int write_rows(output *o, grit_scene *s)
{
    if (o->discharge && discharge_row(o, s)) return -1;
    if (o->energy && grit_energy_log_row(o->energy, s)) return -1;
    if (o->stress && grit_stress_log_row(o->stress, s)) return -1;
    return 0;
}

static int write_frame(output *o, grit_scene *s)
{
    if (o->vtk && grit_vtk_series_write(o->vtk, s)) return -1;
    return write_rows(o, s);
}

static void summary(const job *j, const grit_scene *s, double wall, const output *o, long steps)
{
    int count[GRIT_SHAPE_COUNT] = {0};
    for (int id = 0; id < grit_particle_id_end(s); id++)
        if (grit_get_shape(s, id) >= 0) count[grit_get_shape(s, id)]++; /* (deleted ids: an error code) */
    grit_stats st;
    grit_get_stats(s, &st);
    printf("grit run %s: done%s%s\n", j->pre->name, o->stopped[0] ? ", " : "", o->stopped);
    printf("  particles     %d:", grit_particle_count(s));
    for (int k = 0; k < GRIT_SHAPE_COUNT; k++)
        if (count[k]) printf(" %s %d", grit_shape_name(k), count[k]);
    putchar('\n');
    printf("  contacts      %d real, %d potential pairs\n", grit_contact_count(s), st.potential_pairs);
    printf("  steps         %ld of dt = %.6g s, simulated time %.6g s\n", steps, grit_dt(s), grit_time(s));
    printf("  wall time     %.3f s: %.4g steps/s, %.4g particle-steps/s\n", wall, steps / fmax(wall, 1e-9),
           (double)steps * grit_particle_count(s) / fmax(wall, 1e-9));
    if (j->scene.track_energy) {
        printf("  energy (J)   ");
        for (int k = 0; k < GRIT_E_COUNT; k++) printf(" %s %.6g", grit_energy_name(k), grit_energy(s, k));
        printf("\n                total %.6g (initial %.6g), balance error %.3g\n", grit_energy_total(s),
               grit_energy_initial(s), grit_energy_rel_error(s));
    } else printf("  energy        not tracked (track_energy=false)\n");
    double sig[3][3];
    if (grit_is_periodic(s) && grit_stress(s, sig) == GRIT_OK)
        printf("  stress (Pa)   p %.6g; xx %.6g yy %.6g zz %.6g yz %.6g xz %.6g xy %.6g (tension positive), "
               "cell volume %.6g m^3\n",
               0.0 - (sig[0][0] + sig[1][1] + sig[2][2]) / 3, sig[0][0], sig[1][1], sig[2][2], sig[1][2], sig[0][2],
               sig[0][1], grit_cell_volume(s));
    const double tt = st.time_integrate + st.time_collide + st.time_contacts;
    printf("  broad phase   %ld rebuilds, %ld re-sorts, Verlet distance %.3g m%s; time: integrate %.0f%%, collide "
           "%.0f%%, contacts %.0f%%\n",
           st.rebuilds, st.sorts, st.verlet_dist, isnan(grit_scene_get_def(s)->verlet_dist) ? " (automatic)" : "",
           100 * st.time_integrate / fmax(tt, 1e-30),
           100 * st.time_collide / fmax(tt, 1e-30), 100 * st.time_contacts / fmax(tt, 1e-30));
    /* a skin too thin for the speeds: the pair list is rebuilt nearly every
     * step, the broad phase's cost without its benefit */
    const double per_rebuild = (double)grit_step_count(s) / (double)(st.rebuilds > 0 ? st.rebuilds : 1);
    if (grit_step_count(s) >= 100 && st.rebuilds > 0 && per_rebuild < 5 && !isnan(grit_scene_get_def(s)->verlet_dist))
        printf("  hint          the pair list was rebuilt every %.1f steps on average: a larger Verlet distance "
               "(verlet_dist=, now %.3g m; negative: a fraction of the smallest radius; nan: chosen by grit) makes "
               "rebuilds rarer\n",
               per_rebuild, st.verlet_dist);
    /* where the time went: the broad phase by rebuild and sort, the
     * contact loop by functor (geometry kind / law) */
    printf("  time (CPU s)  integrate %.3g, broad phase %.3g (rebuilds %.3g, re-sorts %.3g), contacts %.3g\n",
           st.time_integrate, st.time_collide, st.time_rebuild, st.time_sort, st.time_contacts);
    if (st.threads_steps)
        printf("  threads       automatic: %.2f on average over %ld steps, %d now (threads=N or OMP_NUM_THREADS fixes "
               "it)\n",
               st.threads_mean, st.threads_steps, grit_threads(s));
    job_mpi_sums ms;
    job_mpi_sums_get((grit_scene *)s, &ms);
    if (ms.ranks > 1)
        printf("  mpi           %d ranks (times above: rank 0's), %ld re-partitions; %ld particles and %ld contacts "
               "with their state changed rank; %.3g MB sent in all, %.3g kB per step by the ranks together "
               "(%ld ghosts)\n",
               ms.ranks, ms.redistributions, ms.migrated, ms.contacts_migrated, ms.bytes_sent / 1e6,
               ms.bytes_step / 1e3, ms.ghosts);
    grit_functor_time ft[32];
    const int nft = grit_functor_times(s, ft, 32);
    for (int k = 0; k < nft && k < 32; k++)
        printf("                %-40s %.3g s (%.0f%% of the contact loop)\n", ft[k].name, ft[k].seconds,
               100 * ft[k].seconds / fmax(st.time_contacts, 1e-30));
    const double rate = o->dis_n ? discharge_rate(o) : NAN;
    for (int k = 0; k < grit_outlet_count(s); k++) {
        grit_outlet_info in;
        grit_outlet_get(s, k, NULL, &in);
        printf("  outlet %-6d %ld particles, %.6g kg deleted\n", k, in.count, in.mass);
    }
    if (o->dis_n)
        printf("  discharge     %.6g kg/s (slope of the deleted mass over 10-90 %% of it; discharge.csv)\n", rate);
    printf("  output        %s/ (%d VTK frames%s%s%s, final.csv, restart.grit, %s)\n", o->out,
           o->vtk ? grit_vtk_series_frames(o->vtk) : 0, o->energy ? ", energy.csv, stats.csv" : "",
           o->stress ? ", stress.csv" : "", o->dis_n ? ", discharge.csv" : "", OUTDIR_MARKER);
    if (j->pre->report) j->pre->report(j, s, rate);
}

/* Everything before the output folder exists; returns the scene or NULL
 * after printing the error. */
static grit_scene *prepare(job *j, long *steps)
{
    char err[1024];
    grit_scene *s;
    if (j->pre->load) {
        if (!(s = j->pre->load(j, err, sizeof err))) {
            cli_error("%s", err);
            return NULL;
        }
        grit_set_threads(s, j->run.threads); /* in range: the parameter's bounds */
    } else {
        if (!(s = grit_scene_create(&j->scene))) {
            cli_error("%s", grit_create_error());
            return NULL;
        }
        grit_set_threads(s, j->run.threads);
        const void *laws[GRIT_LAW_COUNT] = {
#define LAW_DEF(U, l, phys, name) [GRIT_LAW_##U] = &j->laws.l,
            GRIT_LAWS(LAW_DEF)
#undef LAW_DEF
        };
        for (int l = 0; l < GRIT_LAW_COUNT; l++)
            if (grit_set_law_def(s, l, laws[l], grit_reflect_def_size(grit_law_param_table(l)))) {
                cli_error("%s", grit_last_error(s));
                grit_scene_destroy(s);
                return NULL;
            }
        if (j->pre->build(j, s, err, sizeof err)) {
            cli_error("%s", err);
            grit_scene_destroy(s);
            return NULL;
        }
    }
    double dt;
    if (grit_check_dt(s, &dt)) {
        cli_error("%s", grit_last_error(s));
        grit_scene_destroy(s);
        return NULL;
    }
    /* fix the automatic step now, so that the record and the log show it
     * (a restarted scene has its step fixed already: left untouched) */
    if (j->scene.dt != dt) {
        j->scene.dt = dt;
        grit_scene_set_def(s, &j->scene);
    }
    /* time / dt may be beyond any integer (time=1e300, dt=1e-300): converted
     * unchecked it became one step and the run reported success. The limit
     * keeps the step counter and the time sum exact (2^53 > 1e15). */
    const double want = ceil(j->run.time / dt - 1e-9);
    if (j->run.steps <= 0 && !(want <= GRIT_RUN_MAX_STEPS)) {
        cli_error("parameters 'time' = %g s and 'dt' = %g s make %g steps: more than one run takes (at most %g); "
                  "give a shorter time or a larger dt", j->run.time, dt, want, GRIT_RUN_MAX_STEPS);
        grit_scene_destroy(s);
        return NULL;
    }
    *steps = j->run.steps > 0 ? j->run.steps : (long)want;
    if (*steps < 1) *steps = 1;
    return s;
}

static int run_loop(job *j, grit_scene *s, output *o, long steps)
{
    const long start = grit_step_count(s), end = start + steps;
    const double began = grit_wall_now();
    /* (MPI: a progress line reads the whole scene, so one every `progress` seconds, not a live line) */
    progress pg = {.tty = isatty(STDOUT_FILENO) && !job_mpi_on(), .may_stop = j->run.stop_unbalanced > 0, .last = began,
                   .interval = j->run.progress, .first = o->series.first, .end = end, .begun = start};
    eta_init(&pg.eta, began, start);
    /* settled? looked at on a cadence of steps, so that the step a run stops
     * at does not depend on the machine's speed */
    const long stop_every = j->run.stop_unbalanced > 0 ? (o->save_every > 0 ? o->save_every : 100) : -1;
    long control = -1; /* the next step at which the preprocessor steers the run */
    job_whole(s); /* (MPI: rank 0 reads and writes the whole scene) */
    if (j->control && j->control(j, s, &control, o->msg, sizeof o->msg)) return -1;
    /* a continued series has its frame of this step (or had none here) */
    if (!o->cont && write_frame(o, s)) return -2;
    long chunk = 10, warnings = grit_warning_count(s);
    while (grit_step_count(s) < end) {
        const long k = grit_step_count(s);
        if (control >= 0 && k >= control) {
            job_whole(s);
            if (j->control(j, s, &control, o->msg, sizeof o->msg)) return -1;
        }
        long next = end;
        if (control > k) next = lmin(next, control);
        if (o->vtk_every > 0) next = lmin(next, (k / o->vtk_every + 1) * o->vtk_every);
        if (o->save_every > 0) next = lmin(next, (k / o->save_every + 1) * o->save_every);
        if (stop_every > 0) next = lmin(next, (k / stop_every + 1) * stop_every);
        if (test_interrupt_at() > k) next = lmin(next, test_interrupt_at());
        const long n = lmin(next - k, chunk);
        const double t0 = grit_wall_now();
        test_stall(k);
        if (job_step(s, n)) return -1;
        /* about 0.1 s per call: responsive progress and Ctrl-C */
        const double dtw = grit_wall_now() - t0;
        chunk = dtw > 0 ? (long)fmax(1, fmin(1e6, n * 0.1 / dtw)) : 2 * chunk;
        const long kk = grit_step_count(s);
        /* MPI: what follows reads the whole scene only at the steps it writes, checks or shows */
        if (kk == end || (o->vtk && kk % o->vtk_every == 0) || (o->save_every > 0 && kk % o->save_every == 0) ||
            (stop_every > 0 && kk % stop_every == 0) || progress_due(&pg) || interrupted ||
            kk == test_interrupt_at() || (o->checkpoint > 0 && grit_wall_now() - o->last_checkpoint >= o->checkpoint))
            job_whole(s);
        if (grit_warning_count(s) != warnings) {
            warnings = grit_warning_count(s);
            if (pg.tty) putchar('\n');
            fprintf(stderr, "grit: warning: %s\n", grit_last_warning(s));
        }
        bool last = kk == end; /* every series ends with the final state */
        if (!last && stop_every > 0 && kk % stop_every == 0) {
            const double u = grit_unbalanced_force(s);
            if (u < j->run.stop_unbalanced) { /* false for NaN: no contacts yet */
                snprintf(o->stopped, sizeof o->stopped, "settled at step %ld: unbalanced force ratio %.3g < "
                         "stop_unbalanced = %g", kk, u, j->run.stop_unbalanced);
                last = true;
            }
        }
        if (o->vtk && (last || kk % o->vtk_every == 0) && grit_vtk_series_write(o->vtk, s)) return -2;
        if ((last || (o->save_every > 0 && kk % o->save_every == 0)) && write_rows(o, s)) return -2;
        progress_show(&pg, s, false);
        if (kk == test_interrupt_at()) interrupted = SIGINT;
        if (interrupted) {
            interrupt_taken();
            return 1;
        }
        if (o->checkpoint > 0 && !last && grit_wall_now() - o->last_checkpoint >= o->checkpoint) {
            if (grit_save(s, o->restart)) return -2;
            if (!o->have_checkpoint) set_stuck_msg(o->partial, o->restart);
            o->have_checkpoint = true;
            o->checkpoint_step = kk;
            o->last_checkpoint = grit_wall_now();
        }
        if (last) break;
    }
    progress_show(&pg, s, true);
    return 0;
}

static void append(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void append(char *buf, size_t len, const char *fmt, ...)
{
    const size_t n = strlen(buf);
    if (n + 1 >= len) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + n, len - n, fmt, ap);
    va_end(ap);
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* "  output        OUT/ (a, b, c)": the files the run left there. */
static void list_output(const char *out)
{
    DIR *d = opendir(out);
    char *names[256];
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d)) && n < 256;)
        if (e->d_name[0] != '.') names[n++] = strdup(e->d_name);
    if (d) closedir(d);
    qsort(names, (size_t)n, sizeof *names, by_name);
    printf("  output        %s/ (", out);
    for (int i = 0; i < n; i++) {
        printf("%s%s", i ? ", " : "", names[i] ? names[i] : "?");
        free(names[i]);
    }
    printf(")\n");
}

/* the choices of run.vtk_format and vtk_precision (app/cli.h) */
static grit_vtk_format vtk_format(const run_def *r)
{
    static const grit_vtk_format formats[] = {GRIT_VTK_ZLIB, GRIT_VTK_BINARY, GRIT_VTK_ASCII};
    return (grit_vtk_format)(formats[r->vtk_format] | (r->vtk_precision ? GRIT_VTK_FLOAT32 : 0));
}

static const char *job_text(const job *j, const char *name)
{
    for (int t = 0; t < j->n_texts; t++)
        if (!strcmp(j->texts[t]->name, name)) return j->texts[t]->value;
    return NULL;
}

/* grit run restart: a checkpoint in OUT.partial beside a record with a
 * series line is continued in place -- to the end that run was started for,
 * unless time= or steps= say how far -- with the series' own cadence and
 * format; any other restart file starts a new output and needs time= or
 * steps=. Returns 0 or prints the error. */
static int plan_restart(const job *j, const grit_scene *s, output *o, char *outname, size_t outlen, long *steps)
{
    const char *file = job_text(j, "file");
    const bool timed = job_given(j, "time") || job_given(j, "steps");
    char found[3100];
    series_info si;
    if (file && series_find(file, found, sizeof found, &si) && (!job_given(j, "out") || !strcmp(found, outname))) {
        /* the series keeps its cadence and format: a key that would change them is refused */
        const char *changed = job_given(j, "vtk_frames") ? "vtk_frames"
                              : job_given(j, "vtk_every") && j->run.vtk_every != si.vtk_every ? "vtk_every"
                              : job_given(j, "save_every") && j->run.save_every != si.save_every ? "save_every"
                              : (job_given(j, "vtk_format") || job_given(j, "vtk_precision")) &&
                                        o->series.vtk_format != si.vtk_format
                                  ? "vtk_format"
                                                                                                     : NULL;
        if (changed) {
            cli_error("'%s' cannot change when a run goes on with the output in '%s.partial' (its series keeps "
                      "vtk_every=%ld save_every=%ld); give out= for a new output folder", changed, found, si.vtk_every,
                      si.save_every);
            return -1;
        }
        const long k = grit_step_count(s);
        if (!timed) *steps = si.end - k;
        if (*steps < 1) {
            cli_error("the run in '%s.partial' is at step %ld, its end (%ld): give time= or steps= to go on", found, k,
                      si.end);
            return -1;
        }
        si.end = k + *steps;
        snprintf(outname, outlen, "%s", found);
        o->series = si;
        o->vtk_every = si.vtk_every;
        o->save_every = si.save_every;
        o->cont = true;
        return 0;
    }
    if (!timed) {
        cli_error("'grit run restart' needs time= or steps= (how far to go on) unless file= is the checkpoint "
                  "OUT.partial/restart.grit of an interrupted run, which goes on to its end into OUT");
        return -1;
    }
    return 0;
}

/* A preprocessor that makes its own output (preproc.make). */
static int run_make(job *j, int argc, char **argv)
{
    char err[8400];
    if (j->pre->check(j, err, sizeof err)) {
        cli_error("%s", err);
        return EXIT_BAD_INPUT;
    }
    char partial[4200], aside[4300], out[3100];
    if (outdir_name(j->out.value, out, sizeof out, err, sizeof err) ||
        (j->save.value && outdir_check_file("save", j->save.value, out, err, sizeof err)) ||
        outdir_begin(out, NULL, 0, partial, sizeof partial, aside, sizeof aside, err, sizeof err)) {
        cli_error("%s", err);
        return EXIT_BAD_INPUT;
    }
    output o = {.out = out};
    snprintf(o.partial, sizeof o.partial, "%s", partial);
    if (write_record(j, &o, argc, argv, err, sizeof err)) {
        cli_error("%s", err);
        outdir_discard(partial);
        return EXIT_RUN_FAILED;
    }
    set_stuck_msg(partial, NULL);
    catch_signals();
    err[0] = '\0';
    const int rc = j->pre->make(j, partial, err, sizeof err);
    interrupt_taken();
    if (rc > 0) {
        if (isatty(STDOUT_FILENO)) putchar('\n');
        cli_error("interrupted %s; the incomplete output is in '%s'", err, partial);
        return EXIT_INTERRUPTED;
    }
    if (rc < 0) {
        if (isatty(STDOUT_FILENO)) putchar('\n');
        cli_error("%s (the incomplete output is in '%s')", err, partial);
        return EXIT_RUN_FAILED;
    }
    if (outdir_commit(out, partial, err, sizeof err)) {
        cli_error("%s", err);
        return EXIT_RUN_FAILED;
    }
    list_output(out);
    return 0;
}

static int run_prepared(job *jp, grit_scene *s, long steps, int argc, char **argv, char *outname, size_t outlen);

int cmd_run(int argc, char **argv)
{
    if (argc < 1) {
        cli_error("'grit run' needs a preprocessor name; 'grit help run' lists them");
        return EXIT_BAD_INPUT;
    }
    const preproc *p = preproc_find(argv[0]);
    if (!p) {
        cli_unknown_preproc(argv[0]);
        return EXIT_BAD_INPUT;
    }
    job j;
    int rc = job_init(&j, p);
    if (rc) return rc;
    if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "help"))) {
        job_help(&j, argc > 2 && !strcmp(argv[2], "--all"));
        return 0;
    }
    if ((rc = job_parse(&j, argc - 1, argv + 1))) return rc;
    if (p->make) {
        if (job_mpi_on()) {
            cli_error("'grit run %s' runs on one process; start it without mpirun", p->name);
            return EXIT_BAD_INPUT;
        }
        return run_make(&j, argc, argv);
    }
    char outname[3100], err[8400];
    if (outdir_name(j.out.value, outname, sizeof outname, err, sizeof err)) {
        cli_error("%s", err);
        return EXIT_BAD_INPUT;
    }

    long steps;
    grit_scene *s = prepare(&j, &steps);
    if (!s) return EXIT_BAD_INPUT;
    if (job_mpi_on()) { /* mpirun -np K: every rank spreads the scene it built; rank 0 runs the job */
        if (job_mpi_spread(s, p->name)) {
            grit_scene_destroy(s);
            return EXIT_BAD_INPUT;
        }
        if (job_mpi_rank() != 0) return job_follow(s);
        j.scene.track_energy = grit_scene_get_def(s)->track_energy; /* (the summary's and the logs' view) */
        job_whole(s);
    }
    rc = run_prepared(&j, s, steps, argc, argv, outname, sizeof outname);
    job_done();
    return rc;
}

/* The run of a prepared scene: output folder, record, series, the steps,
 * the final state and the summary. */
static int run_prepared(job *jp, grit_scene *s, long steps, int argc, char **argv, char *outname, size_t outlen)
{
    const preproc *p = jp->pre;
    char err[8400];
    int rc;
    output o = {.out = outname, .checkpoint = jp->run.checkpoint};
    /* the files the run read: one of them may be the checkpoint in
     * OUT.partial that this run continues */
    const char *inputs[MAX_TEXTS];
    int n_inputs = 0;
    for (int t = 0; t < jp->n_texts; t++)
        if (jp->texts[t] != &jp->out && jp->texts[t] != &jp->save && jp->texts[t]->value) inputs[n_inputs++] = jp->texts[t]->value;
    char aside[4300] = "";
    o.vtk_every = jp->run.vtk_every == 0 ? (steps + jp->run.vtk_frames - 1) / jp->run.vtk_frames : jp->run.vtk_every;
    o.save_every = jp->run.save_every == 0 ? (steps + 199) / 200 : jp->run.save_every;
    /* MPI: a row gathers the scene on rank 0; by default one with each frame, not 200 */
    if (job_mpi_on() && jp->run.save_every == 0 && o.vtk_every > 0) o.save_every = o.vtk_every;
    if (o.vtk_every < 1) o.vtk_every = o.vtk_every < 0 ? -1 : 1;
    if (o.save_every < 1) o.save_every = o.save_every < 0 ? -1 : 1;
    o.series = (series_info){grit_step_count(s), grit_step_count(s) + steps, o.vtk_every, o.save_every,
                             vtk_format(&jp->run)};
    if (p->load && plan_restart(jp, s, &o, outname, outlen, &steps)) {
        grit_scene_destroy(s);
        return EXIT_BAD_INPUT;
    }
    /* every destination before the first step: save= to a missing folder was
     * found only after the last one */
    if (jp->save.value && outdir_check_file("save", jp->save.value, o.out, err, sizeof err)) {
        cli_error("%s", err);
        grit_scene_destroy(s);
        return EXIT_BAD_INPUT;
    }

    if (o.cont ? outdir_resume(o.out, o.partial, sizeof o.partial, err, sizeof err)
               : outdir_begin(o.out, inputs, n_inputs, o.partial, sizeof o.partial, aside, sizeof aside, err,
                              sizeof err)) {
        cli_error("%s", err);
        grit_scene_destroy(s);
        return EXIT_BAD_INPUT;
    }
    int code = 0;
    char path[4300];
    if (o.cont ? series_record_continue(o.partial, &o.series, grit_step_count(s), argc, argv, err, sizeof err)
               : write_record(jp, &o, argc, argv, err, sizeof err)) {
        cli_error("%s", err);
        code = EXIT_RUN_FAILED;
    }
    snprintf(path, sizeof path, "%s/energy.csv", o.partial);
    char stats[4300];
    snprintf(stats, sizeof stats, "%s/stats.csv", o.partial);
    if (!code && o.vtk_every > 0 &&
        !(o.vtk = o.cont ? grit_vtk_series_continue(o.partial, o.series.vtk_format, s)
                         : grit_vtk_series_create(o.partial, o.series.vtk_format))) {
        cli_error("%s", o.cont ? grit_last_error(s) : "out of memory");
        code = EXIT_RUN_FAILED;
    }
    if (!code && o.save_every > 0 &&
        !(o.energy = o.cont ? grit_energy_log_continue(s, path, stats) : grit_energy_log_open(s, path, stats))) {
        cli_error("%s", grit_last_error(s));
        code = EXIT_RUN_FAILED;
    }
    snprintf(path, sizeof path, "%s/stress.csv", o.partial);
    if (!code && o.save_every > 0 && grit_is_periodic(s) &&
        !(o.stress = o.cont ? grit_stress_log_continue(s, path) : grit_stress_log_open(s, path))) {
        cli_error("%s", grit_last_error(s));
        code = EXIT_RUN_FAILED;
    }
    snprintf(path, sizeof path, "%s/discharge.csv", o.partial);
    if (!code && o.save_every > 0 && grit_outlet_count(s) > 0 && discharge_open(&o, s, path)) {
        cli_error("cannot write '%s'", path);
        code = EXIT_RUN_FAILED;
    }
    snprintf(o.restart, sizeof o.restart, "%s/restart.grit", o.partial);
    /* the state the run starts from, before the first step: a run killed at
     * any moment leaves a checkpoint to continue from, and the input it was
     * continued from may go only now */
    if (!code && o.checkpoint > 0) {
        if (grit_save(s, o.restart)) {
            cli_error("%s%s%s", grit_last_error(s), aside[0] ? "; the earlier partial output is kept as " : "", aside);
            code = EXIT_RUN_FAILED;
        } else {
            o.have_checkpoint = true;
            o.checkpoint_step = grit_step_count(s);
            outdir_drop_aside(aside);
        }
    }
    if (code) { /* nothing of the run exists yet (a continued one's stays as it was) */
        if (o.discharge) fclose(o.discharge);
        free(o.dis_t);
        free(o.dis_m);
        if (!o.cont) outdir_discard(o.partial);
        grit_vtk_series_destroy(o.vtk);
        grit_energy_log_close(o.energy, s, false);
        grit_stress_log_close(o.stress, s, false);
        grit_scene_destroy(s);
        return code;
    }

    printf("grit run %s: %d particles, %ld steps of dt = %.6g s (%.6g s), output in %s/\n", p->name,
           grit_particle_count(s), steps, grit_dt(s), steps * grit_dt(s), o.out);
    fflush(stdout);
    set_stuck_msg(o.partial, o.have_checkpoint ? o.restart : NULL);
    catch_signals();
    const double t0 = grit_wall_now();
    o.last_checkpoint = t0;
    const long begun = grit_step_count(s);
    rc = run_loop(jp, s, &o, steps);
    const double wall = grit_wall_now() - t0;
    job_whole(s); /* (MPI: the final state on rank 0, also after a failure or Ctrl-C) */
    /* rc: 0 done, 1 interrupted, -1 the engine or the steering failed (the
     * scene holds a failed step), -2 an output file could not be written (the
     * scene is good: its state is saved below if the disk takes it) */
    char failure[1100];
    snprintf(failure, sizeof failure, "%s", o.msg[0] ? o.msg : grit_last_error(s));
    if (!failure[0]) snprintf(failure, sizeof failure, "the run failed without a message (please report)");
    /* the energy and stress logs are kept also when the run fails: they are
     * inside the folder that says it is partial */
    if (grit_energy_log_close(o.energy, s, true) && rc == 0) {
        snprintf(failure, sizeof failure, "%s", grit_last_error(s));
        rc = -2;
    }
    if (grit_stress_log_close(o.stress, s, true) && rc == 0) {
        snprintf(failure, sizeof failure, "%s", grit_last_error(s));
        rc = -2;
    }
    if (o.discharge && fclose(o.discharge) && rc == 0) {
        snprintf(failure, sizeof failure, "cannot write discharge.csv (disk full?)");
        rc = -2;
    }
    o.discharge = NULL;
    snprintf(path, sizeof path, "%s/final.csv", o.partial);
    if (rc == 0 && grit_io_save_spheres_csv(s, path)) {
        snprintf(failure, sizeof failure, "%s", grit_last_error(s));
        rc = -2;
    }
    /* the state between two steps is consistent also after Ctrl-C or a
     * failed write: saved so that the run can go on; after a failed step the
     * last checkpoint stays */
    long saved_at = -1;
    if (rc != -1) {
        if (grit_save(s, o.restart)) {
            if (rc == -2)
                append(failure, sizeof failure, "; saving the state at step %ld also failed: %s", grit_step_count(s),
                       grit_last_error(s));
            else snprintf(failure, sizeof failure, "%s", grit_last_error(s));
            rc = -1;
        } else {
            o.have_checkpoint = true;
            o.checkpoint_step = saved_at = grit_step_count(s);
        }
    }
    if (rc == -2 && saved_at >= 0) append(failure, sizeof failure, "; the state at step %ld is saved", saved_at);
    if (rc == 0 && jp->save.value && grit_save(s, jp->save.value)) {
        snprintf(failure, sizeof failure, "%s", grit_last_error(s));
        rc = -1;
    }
    if (rc == 0 && outdir_commit(o.out, o.partial, err, sizeof err)) {
        cli_error("%s", err);
        code = EXIT_RUN_FAILED;
    } else if (rc == 0) {
        outdir_drop_aside(aside);
        summary(jp, s, wall, &o, grit_step_count(s) - begun);
    } else if (rc > 0) {
        if (isatty(STDOUT_FILENO)) putchar('\n');
        cli_error("interrupted at step %ld; the incomplete output is in '%s'%s%s", grit_step_count(s), o.partial,
                  o.have_checkpoint ? "; continue with: grit run restart file=" : "",
                  o.have_checkpoint ? o.restart : "");
        code = EXIT_INTERRUPTED;
    } else {
        if (isatty(STDOUT_FILENO)) putchar('\n');
        char ck[4400] = "";
        if (o.have_checkpoint)
            snprintf(ck, sizeof ck, "; continue from step %ld with: grit run restart file=%s", o.checkpoint_step,
                     o.restart);
        cli_error("%s (at step %ld; the incomplete output is in '%s'%s)", failure, grit_step_count(s), o.partial, ck);
        code = EXIT_RUN_FAILED;
    }
    grit_vtk_series_destroy(o.vtk);
    grit_scene_destroy(s);
    free(o.dis_t);
    free(o.dis_m);
    return code;
}
