/* grit command line: the rate and the ETA of a run's progress line (eta.h). */
#include "eta.h"

#include <math.h>

void eta_init(eta_clock *e, double t, long k)
{
    e->start = e->now_t = t;
    e->now_k = k;
    e->n = 1;
    e->head = 0;
    e->t[0] = t;
    e->k[0] = k;
}

double eta_window(const eta_clock *e)
{
    return fmax(ETA_MIN_WINDOW, ETA_WINDOW_FRACTION * (e->now_t - e->start));
}

void eta_sample(eta_clock *e, double t, long k)
{
    if (t < e->now_t) return;
    e->now_t = t;
    e->now_k = k;
    /* keep one sample every 32nd of the window: the ring then spans two windows as the window grows */
    if (t - e->t[e->head] >= eta_window(e) / 32) {
        e->head = (e->head + 1) % ETA_SLOTS;
        e->t[e->head] = t;
        e->k[e->head] = k;
        if (e->n < ETA_SLOTS) e->n++;
    }
}

double eta_rate(const eta_clock *e)
{
    const double from = e->now_t - eta_window(e);
    /* the newest sample kept at or before the window's start; the oldest kept if none is */
    int s = (e->head - e->n + 1 + ETA_SLOTS) % ETA_SLOTS;
    for (int i = 0; i < e->n; i++) {
        const int j = (e->head - i + ETA_SLOTS) % ETA_SLOTS;
        if (e->t[j] <= from) {
            s = j;
            break;
        }
    }
    const double dt = e->now_t - e->t[s];
    const long dk = e->now_k - e->k[s];
    return dt > 0 && dk > 0 ? (double)dk / dt : 0.0;
}

double eta_seconds(const eta_clock *e, long end)
{
    const double rate = eta_rate(e);
    if (e->now_t - e->start < ETA_SHOW_AFTER || rate <= 0) return -1;
    return (double)(end > e->now_k ? end - e->now_k : 0) / rate;
}
