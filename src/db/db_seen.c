/* SPDX-License-Identifier: MIT */
/* The line keys an import stored (issue 30): the duplicate test was one SQLite lookup of the
 * games_line_key index a game, about a sixth of the caller thread's instructions (callgrind,
 * bk5); a set in memory answers it for the games stored since the import began, and for all of
 * them when the database had none. The games other imports store between two batches are read
 * in at the next batch's start (inside its transaction), so the set never misses a stored game. */
#include "db_seen.h"

#include <stdlib.h>
#include <string.h>

/* The set stops (incomplete: SQLite is asked) past this many keys: 64 MB of slots */
#define SEEN_MAX ((size_t)1 << 22)

static size_t slot_of(const pgnk_seen *s, uint64_t k) {
    return (size_t)((k * UINT64_C(0x9e3779b97f4a7c15)) >> 32) & (s->cap - 1);
}

static void drop(pgnk_seen *s) {
    free(s->slot);
    s->slot = NULL;
    s->cap = s->n = 0;
    s->complete = 0;
}

/* k into the slots (room known). */
static void put(pgnk_seen *s, uint64_t k) {
    size_t i = slot_of(s, k);
    while (s->slot[i] != 0 && s->slot[i] != k) {
        i = (i + 1) & (s->cap - 1);
    }
    s->n += s->slot[i] == 0;
    s->slot[i] = k;
}

/* Room for one more key (at most half the slots used); 0 when the set stops. */
static int room(pgnk_seen *s) {
    if ((s->n + 1) * 2 <= s->cap) {
        return 1;
    }
    size_t cap = s->cap ? s->cap * 2 : 4096;
    uint64_t *old = s->slot, *slot = cap / 2 > SEEN_MAX ? NULL : calloc(cap, sizeof *slot);
    if (slot == NULL) {
        drop(s);
        return 0;
    }
    size_t ocap = s->cap;
    s->slot = slot;
    s->cap = cap;
    s->n = 0;
    for (size_t i = 0; i < ocap; i++) {
        if (old[i] != 0) {
            put(s, old[i]);
        }
    }
    free(old);
    return 1;
}

void pgnk_seen_add(pgnk_seen *s, int64_t id, uint64_t k) {
    if (!s->complete) {
        return;
    }
    s->top = id > s->top ? id : s->top;
    if (k == 0) {
        s->has_zero = 1;
    } else if (room(s)) {
        put(s, k);
    }
}

int pgnk_seen_has(const pgnk_seen *s, uint64_t k) {
    if (!s->complete) {
        return -1;
    }
    int found = k == 0 && s->has_zero;
    if (k != 0 && s->cap > 0) {
        for (size_t i = slot_of(s, k); s->slot[i] != 0 && !found; i = (i + 1) & (s->cap - 1)) {
            found = s->slot[i] == k;
        }
    }
    return found ? 1 : s->base == 0 ? 0 : -1;
}

static int64_t max_id(pgn_db *db, int *ok) {
    sqlite3_stmt *st = NULL;
    int64_t v = 0;
    *ok = sqlite3_prepare_v2(db->sql, "SELECT max(id) FROM games", -1, &st, NULL) == SQLITE_OK &&
          sqlite3_step(st) == SQLITE_ROW;
    if (*ok) {
        v = sqlite3_column_int64(st, 0);
    }
    sqlite3_finalize(st);
    return v;
}

/* The line keys of the games with ids over s->top, up to top. */
static pgn_status read_in(pgnk_seen *s, pgn_db *db, int64_t top, char *msg, size_t cap) {
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db->sql, "SELECT line_key FROM games WHERE id > ? AND id <= ?", -1, &st,
                           NULL) != SQLITE_OK) {
        return pgnk_db_fail(db, "duplicates", msg, cap);
    }
    sqlite3_bind_int64(st, 1, s->top);
    sqlite3_bind_int64(st, 2, top);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (sqlite3_column_type(st, 0) != SQLITE_NULL) {
            pgnk_seen_add(s, top, (uint64_t)sqlite3_column_int64(st, 0));
        }
    }
    sqlite3_finalize(st);
    s->top = top;
    return rc == SQLITE_DONE ? PGN_OK : pgnk_db_fail(db, "duplicates", msg, cap);
}

pgn_status pgnk_seen_begin(pgnk_seen *s, pgn_db *db, char *msg, size_t cap) {
    int ok;
    int64_t top = max_id(db, &ok);
    if (!ok) {
        return pgnk_db_fail(db, "duplicates", msg, cap);
    }
    if (!s->started) {
        s->started = 1;
        s->complete = 1;
        s->base = s->top = top;
        return PGN_OK;
    }
    return s->complete && top > s->top ? read_in(s, db, top, msg, cap) : PGN_OK;
}

void pgnk_seen_reset(pgnk_seen *s) {
    drop(s);
    memset(s, 0, sizeof *s);
}

void pgnk_seen_free(pgnk_seen *s) {
    pgnk_seen_reset(s);
}
