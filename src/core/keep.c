/* grit: blocks kept alive for bindings' views (core/keep.h).
 *
 * A small table of referenced blocks behind a spin lock: views are released
 * by the binding's garbage collector, possibly on another thread than the
 * one stepping a scene. The table holds one entry per distinct block (not
 * per view), so it stays short. */
#include "core/keep.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "grit/arrays.h"

typedef struct kept {
    void *p;
    size_t size;
    long refs;
    bool orphan; /* the engine let go of it: the last release frees it */
} kept;

static kept *table;
static int n_table, cap_table;
static atomic_int n_kept; /* n_table, readable without the lock */
static atomic_flag lock = ATOMIC_FLAG_INIT;

static void acquire(void)
{
    while (atomic_flag_test_and_set_explicit(&lock, memory_order_acquire)) {
    }
}

static void release_lock(void) { atomic_flag_clear_explicit(&lock, memory_order_release); }

static int find(const void *p)
{
    for (int k = 0; k < n_table; k++)
        if (table[k].p == p) return k;
    return -1;
}

void grit_keep_free(void *p)
{
    if (!p) return;
    if (atomic_load_explicit(&n_kept, memory_order_acquire) > 0) {
        acquire();
        int k = find(p);
        if (k >= 0) table[k].orphan = true;
        release_lock();
        if (k >= 0) return;
    }
    free(p);
}

void *grit_keep_realloc(void *p, size_t n)
{
    if (p && atomic_load_explicit(&n_kept, memory_order_acquire) > 0) {
        acquire();
        int k = find(p);
        if (k >= 0) { /* a view holds it: leave it where it is, orphaned, and move the engine to a copy */
            void *q = malloc(n);
            if (q) {
                memcpy(q, p, table[k].size < n ? table[k].size : n);
                table[k].orphan = true;
            }
            release_lock();
            return q;
        }
        release_lock();
    }
    return realloc(p, n);
}

int grit_keep_retain(void *p, size_t size)
{
    int rc = 0;
    acquire();
    int k = find(p);
    if (k >= 0) {
        table[k].refs++;
        if (size > table[k].size) table[k].size = size;
    } else {
        if (n_table == cap_table) {
            int c = cap_table ? 2 * cap_table : 16;
            kept *t = realloc(table, sizeof *t * (size_t)c);
            if (!t) rc = -1;
            else {
                table = t;
                cap_table = c;
            }
        }
        if (rc == 0) {
            table[n_table++] = (kept){p, size, 1, false};
            atomic_store_explicit(&n_kept, n_table, memory_order_release);
        }
    }
    release_lock();
    return rc;
}

void grit_array_release(void *token)
{
    if (!token) return;
    void *dead = NULL;
    acquire();
    int k = find(token);
    if (k >= 0 && --table[k].refs == 0) {
        if (table[k].orphan) dead = table[k].p;
        table[k] = table[--n_table];
        atomic_store_explicit(&n_kept, n_table, memory_order_release);
        if (n_table == 0) { /* give the table back: nothing is referenced */
            free(table);
            table = NULL;
            cap_table = 0;
        }
    }
    release_lock();
    free(dead);
}

int grit_array_kept(void) { return atomic_load_explicit(&n_kept, memory_order_acquire); }
