/* SPDX-License-Identifier: MIT */
/* The ordered work queue (issue 29 point 3): the caller pushes items, N worker threads work on
 * them, any number at once, and each worked item is handed back in push order. For work much
 * slower than reading, where the parallel reader's batches of games would leave threads idle:
 * pgnkit analyze's engines take one game each. The items are the caller's: the queue holds only
 * their pointers. POSIX threads. */
#ifndef PGNKIT_WORKQ_H
#define PGNKIT_WORKQ_H

#include "base.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pgn_workq pgn_workq;

/** Options of pgn_workq_new. Every item pushed comes back to the caller exactly once: through
 * done, or, after the queue stopped, through drop. */
typedef struct pgn_workq_opts {
    unsigned threads; /* workers: 1 to 256 (0: 1; more: 256) */
    size_t depth;     /* items pushed and not yet handed back, at most; 0: 4 per worker */
    /* On worker number worker (0 to threads - 1), several at once on different workers. A
     * status other than PGN_OK stops the queue. */
    pgn_status (*work)(void *user, unsigned worker, void *item);
    /* Each worked item, in push order, one call at a time, on a worker thread. A status other
     * than PGN_OK stops the queue. */
    pgn_status (*done)(void *user, void *item);
    /* An item that will not be handed to done because the queue stopped, from pgn_workq_free
     * (NULL: none; the caller then keeps track of its items). */
    void (*drop)(void *user, void *item);
    void *user; /* given to work, done and drop */
} pgn_workq_opts;

/** Makes a queue and starts its workers (opts is copied). On success *out owns the queue
 * (pgn_workq_free): PGN_OK, also when fewer workers could be started than asked for (at least
 * one). Errors: PGN_E_NOMEM, PGN_E_IO (no thread could be started); *out is then NULL. */
PGN_API pgn_status pgn_workq_new(pgn_workq **out, const pgn_workq_opts *opts);
/** Queues item, first waiting while depth items are in flight. PGN_OK; or, when the queue has
 * stopped, the status that stopped it, and the item is not taken (it stays the caller's). */
PGN_API pgn_status pgn_workq_push(pgn_workq *q, void *item);
/** Waits until every item pushed is handed back (or the queue stopped) and ends the workers.
 * PGN_OK, or the status of work or done that stopped the queue. */
PGN_API pgn_status pgn_workq_finish(pgn_workq *q);
/** Stops the queue if pgn_workq_finish was not called (the items not yet handed back go to
 * drop), ends the workers and releases the queue; accepts NULL. */
PGN_API void pgn_workq_free(pgn_workq *q);

#ifdef __cplusplus
}
#endif
#endif
