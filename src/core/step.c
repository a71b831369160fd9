/* grit: one simulation step -- the engine sequence of Woo's minimal engines:
 * integrate (with the previous forces), detect, compute new forces. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "cg2/cg2.h"
#include "collide/broadphase.h"
#include "contact/contact_loop.h"
#include "core/threads.h"
#include "core/clock.h"
#include "core/energy_share.h"
#include "core/cell_impl.h"
#include "core/cellctrl.h"
#include "core/health.h"
#include "core/validate.h"
#include "integrate/integrate.h"
#include "core/storage.h"
#include "material/material.h"
#include "shape/clump.h"

static double now(void) { return grit_cpu_now(); }

/* The time step to use: an automatic one derived (also after any change
 * that may lower the critical step: parameters, particles, pair overrides),
 * a fixed one checked against the critical step. */
static int planned_dt(grit_scene *s, double *dt)
{
    /* the adaptive step, once started, is its own judge (integrate/dyndt.c) */
    if (s->def.dyn_dt && s->step > 0 && isfinite(s->dt) && s->dt > 0) {
        *dt = s->dt;
        return GRIT_OK;
    }
    double crit = grit_critical_dt(s);
    *dt = s->dt;
    if (isnan(s->def.dt) || isnan(s->dt)) {
        if (!isfinite(crit) || !(crit > 0))
            return grit_fail(s, GRIT_ESTATE,
                             "cannot choose the time step: no particle has a finite mass with a p-wave or stiffness "
                             "estimate; set parameter 'dt'");
        *dt = s->def.dt_safety * crit;
    } else if (s->dt > crit) {
        return grit_fail(s, GRIT_EINVAL,
                         "parameter 'dt' = %g s exceeds the critical time step %g s (p-wave r/sqrt(E/rho), "
                         "sqrt(3m/8kn) for pair overrides, rayleigh_fraction of the Rayleigh time for Hertz "
                         "contacts); use dt <= %g s, or dt=nan for %g x critical",
                         s->dt, crit, crit, s->def.dt_safety);
    }
    return GRIT_OK;
}

int grit_check_dt(grit_scene *s, double *dt)
{
    double d;
    int rc = grit_materials_check(s); /* what the first step would refuse first */
    if (rc == GRIT_OK) rc = planned_dt(s, &d);
    if (rc == GRIT_OK && dt) *dt = d;
    return rc;
}

/* Resolve the step before the first step and whenever dt_check is set. */
static int resolve_dt(grit_scene *s)
{
    int rc = planned_dt(s, &s->dt);
    if (rc == GRIT_OK) s->dt_check = false;
    return rc;
}

static int step_once(grit_scene *s);

int grit_step(grit_scene *s, long n)
{
    if (n < 0) return grit_fail(s, GRIT_EINVAL, "grit_step: number of steps %ld must be >= 0", n);
    for (long k = 0; k < n; k++) {
        int rc = step_once(s);
        /* MPI: every rank returns the same status (src/mpi/halo.c) */
        if (s->mpi_agree) rc = s->mpi_agree(s, rc);
        if (rc) return rc;
    }
    return GRIT_OK;
}

static int step_once(grit_scene *s)
{
    const bool tuning = grit_threads_tuning(s);
    const double wall0 = tuning ? grit_wall_now() : 0;
    /* spread over MPI ranks: this rank books its share of the step; the
     * shares are summed when the ranks close the step (src/mpi/halo.c) */
    if (s->mpi && s->def.track_energy) grit_energy_share_open(s);
    if (s->n_outlets) { /* before the inlets: they see the room made */
        int rc = grit_outlets_run(s);
        if (rc) return rc;
    }
    if (s->n_inlets) { /* first, so that what they add is checked like any new particle */
        int rc = grit_inlets_run(s);
        if (rc) return rc;
    }
    if (s->need_rebuild) { /* particles were added or moved by hand */
        int rc = grit_cg2_check_flat_pairs(s);
        if (rc) return rc;
    }
    if (s->laws_check) { /* materials, particles or law parameters changed */
        int rc = grit_materials_check(s);
        if (rc) return rc;
    }
    if (s->step == 0 || isnan(s->dt) || s->dt_check) {
        int rc = resolve_dt(s);
        if (rc) return rc;
        if (s->step == 0 && s->def.gravity_first_step)
            for (int i = 0; i < s->b.n; i++)
                if (!(s->b.flags[i] & PF_NO_GRAVITY)) s->b.ft[i].f = v3_scale(s->def.gravity, s->b.mi[i].m);
    }
    if (s->def.track_energy) s->energy[GRIT_E_ELAST] = 0; /* the contact loop books it anew */
    const double dt = s->dt; /* this step's (dyn_dt may set the next one's) */
    int rc = grit_contact_prepare(s);
    if (rc) return rc;
    if (s->cell) grit_cell_ctrl_update(s); /* the stress servo: this step's gradient, from the forces now */
    if (s->cell && (rc = grit_cell_prologue(s))) return rc;
    double t0 = now();
    rc = grit_leapfrog(s);
    /* MPI: the other ranks' particles this one needs, and whether to rebuild */
    if (s->mpi_exchange) rc = s->mpi_exchange(s, rc);
    if (rc) return rc;
    double t1 = now();
    rc = grit_collide(s);
    if (rc) return rc;
    double t2 = now();
    rc = grit_contact_loop(s);
    if (rc) return rc;
    if (s->n_clumps) grit_clumps_gather(s); /* before anything reads the bodies' forces */
    if (s->cell) grit_cell_epilogue(s);
    double t3 = now();
    if (s->def.dyn_dt && (s->step + 1) % s->def.dyn_dt_period == 0) grit_dyndt_update(s, s->def.dyn_dt_period);
    /* the particles' entries at the instant the contact loop booked at
     * (with the next step's dt for the velocity it will make) */
    if (s->def.track_energy && (rc = grit_leapfrog_energy(s, dt))) return rc;
    /* the adaptive step and the particles' energy book count as integration */
    s->stats.time_integrate += t1 - t0 + now() - t3;
    s->stats.time_collide += t2 - t1;
    s->stats.time_contacts += t3 - t2;
    if (s->def.track_energy && !s->energy_initial_set && !s->mpi) {
        s->energy_initial = grit_energy_total(s);
        s->energy_initial_set = true;
    }
    s->step++;
    s->time += dt;
    s->dt_prev = dt;
    /* after the step: the scene is a consistent state of step s->step */
    if ((rc = grit_health_check(s))) return rc;
    if (tuning) grit_tune_step(&s->tune, grit_wall_now() - wall0);
#ifdef GRIT_VALIDATE
    char verr[256];
    if (grit_scene_validate(s, verr, sizeof verr)) {
        fprintf(stderr, "grit: internal error after step %ld: %s\n", s->step, verr);
        abort();
    }
#endif
    return GRIT_OK;
}

long grit_step_count(const grit_scene *s) { return s->step; }
double grit_time(const grit_scene *s) { return s->time; }
double grit_dt(const grit_scene *s) { return s->dt; }
