/* SPDX-License-Identifier: MIT */
/* pgn_db_select (issue 30): the selection language (docs/query.md) answered from the database.
 * Each candidate game is replayed from its stored bytes with the matcher of pgnkit select, so the
 * answers are the same; the position index narrows the candidates when the expression names a
 * position that every match must reach on its main line. */
#include "db_int.h"

#include "../query/query_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 1 and *key when every game query matches reaches the position of *key on its main line: a
 * fen, opening or hash atom reached from the root through and, at, then/next, persist and the
 * compiler's "exists a point" groups, none of them on variations. A walk over the nodes with a
 * list of its own (no recursion); -1 when out of memory. */
static int required_key(const pgn_query *q, uint64_t *key) {
    uint32_t *todo = malloc((size_t)q->n * sizeof *todo + sizeof *todo);
    if (todo == NULL) {
        return -1;
    }
    uint32_t n = 0, found = 0;
    todo[n++] = q->root;
    while (n > 0 && !found) {
        const qnode *nd = &q->nodes[todo[--n]];
        switch (nd->op) {
        case Q_FEN:
        case Q_OPENING:
            *key = nd->pos->key;
            found = 1;
            break;
        case Q_HASH:
            *key = nd->bits;
            found = 1;
            break;
        case Q_PERSIST:
            if (nd->num < 1) {
                break;
            }
            /* fall through */
        case Q_EXISTS:
        case Q_AND:
        case Q_AT:
        case Q_SEQ:
            for (uint32_t c = nd->child; c != QNONE && !nd->vars && n < q->n;
                 c = q->nodes[c].next) {
                todo[n++] = c;
            }
            break;
        default: break;
        }
    }
    free(todo);
    return (int)found;
}

typedef struct selector {
    pgn_db *db;
    const pgn_query *q;
    pgn_query_matcher *m;
    const pgn_visitor *v;
    int (*fn)(void *user, const pgn_db_hit *hit);
    void *user;
    sqlite3_stmt *one;   /* every game's id, in order */
    sqlite3_stmt *loose; /* the games the index does not hold, by id */
    int loose_rc;        /* the last step of loose: SQLITE_ROW (its id is next) or done */
    int64_t last;        /* the last id replayed */
    pgn_db_select_totals tot;
    pgn_status st; /* a failure inside a callback */
    int stopped;
    char *msg;
    size_t cap;
} selector;

/* Replays one game with the matcher; 1 when the walk must stop (fn said so, or a failure). */
static int replay(selector *s, int64_t id, const void *raw, size_t len) {
    pgn_reader_opts ro;
    memset(&ro, 0, sizeof ro);
    ro.flags = pgn_query_reader_flags(s->q);
    pgn_reader *rd;
    pgn_status st = pgn_reader_new_mem(&rd, &ro, raw != NULL ? raw : "", len);
    if (st != PGN_OK) {
        s->st = st;
        return 1;
    }
    s->tot.candidates++;
    s->last = id;
    pgn_query_result res = {0, UINT32_MAX};
    st = pgn_reader_visit(rd, s->v, s->m);
    if (st == PGN_OK) {
        st = pgn_query_matcher_result(s->m, &res);
    } else if (st == PGN_END) {
        st = PGN_OK; /* no game in the bytes: nothing to match */
    }
    pgn_reader_free(rd);
    if (st != PGN_OK) {
        s->st = st;
        return 1;
    }
    if (!res.matched) {
        return 0;
    }
    s->tot.matched++;
    pgn_db_hit h = {id, {raw != NULL ? raw : "", len}, res.first_ply};
    s->stopped = s->fn(s->user, &h) != 0;
    return s->stopped;
}

/* The game of id fetched and replayed (once: an id met again is skipped). */
static int replay_id(selector *s, int64_t id) {
    if (id <= s->last) {
        return 0;
    }
    pgn_str raw;
    pgn_status st = pgnk_db_game_bytes(s->db, id, &raw, s->msg, s->cap);
    if (st == PGN_OK) {
        return replay(s, id, raw.ptr, raw.len);
    }
    if (st != PGN_END) {
        s->st = st;
        return 1;
    }
    return 0;
}

/* The games outside the index with an id below limit, in order; 1 when the walk must stop. */
static int replay_loose(selector *s, int64_t limit) {
    while (s->loose_rc == SQLITE_ROW) {
        int64_t id = sqlite3_column_int64(s->loose, 0);
        if (id >= limit) {
            return 0;
        }
        if (replay_id(s, id)) {
            return 1;
        }
        s->loose_rc = sqlite3_step(s->loose);
    }
    if (s->loose_rc != SQLITE_DONE) {
        s->st = pgnk_db_fail(s->db, "select", s->msg, s->cap);
        return 1;
    }
    return 0;
}

static int on_posting(void *user, int64_t id) {
    selector *s = user;
    return replay_loose(s, id) || replay_id(s, id);
}

/* 1 when the games query matches are exactly those whose main line reaches one position: the
 * expression is a fen or hash atom alone (the compiler's "exists a point" above it, not in
 * variations), whose games the position index holds (a fen compares what the key covers). */
static int bare_position(const pgn_query *q) {
    const qnode *e = &q->nodes[q->root];
    if (e->op != Q_EXISTS || e->vars || e->child == QNONE) {
        return 0;
    }
    const qnode *a = &q->nodes[e->child];
    return (a->op == Q_FEN || a->op == Q_HASH) && a->next == QNONE;
}

/* A posting of a bare position: a game the index holds is a match as it stands (no replay); one
 * it does not hold (broken: its moves before the error are indexed) is replayed, as are the
 * games outside the index before it. */
static int on_posting_count(void *user, int64_t id) {
    selector *s = user;
    if (replay_loose(s, id)) {
        return 1;
    }
    if (id <= s->last || (s->loose_rc == SQLITE_ROW && sqlite3_column_int64(s->loose, 0) == id)) {
        return 0; /* met already, or replayed by the next replay_loose */
    }
    s->tot.matched++;
    s->last = id;
    return 0;
}

static int count_single(void *user, pgn_move mv, int64_t id) {
    (void)mv;
    (void)id;
    ((selector *)user)->tot.matched++;
    return 0;
}

/* The count of a bare position when the index holds every game: the games of its rows of explore
 * summed (a game is in one row of a position at most) and its entries that replay to it, no
 * posting list read. */
static pgn_status count_indexed(selector *s, uint64_t key) {
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(s->db->sql, "SELECT sum(games) FROM explore WHERE key = ?", -1, &st,
                           NULL) != SQLITE_OK) {
        return pgnk_db_fail(s->db, "select", s->msg, s->cap);
    }
    sqlite3_bind_int64(st, 1, (sqlite3_int64)key);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        s->tot.matched = (uint64_t)sqlite3_column_int64(st, 0);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW) {
        return pgnk_db_fail(s->db, "select", s->msg, s->cap);
    }
    return pgnk_db_singles_at(s->db, key, count_single, s, s->msg, s->cap);
}

/* The candidates of the position index: its games merged with those it does not hold (each
 * NULL: the count of a bare position). */
static pgn_status select_indexed(selector *s, uint64_t key, int (*each)(void *user, int64_t id)) {
    if (sqlite3_prepare_v2(s->db->sql, "SELECT id FROM games WHERE line_key IS NULL ORDER BY id",
                           -1, &s->loose, NULL) != SQLITE_OK) {
        return pgnk_db_fail(s->db, "select", s->msg, s->cap);
    }
    s->tot.indexed = 1;
    s->loose_rc = sqlite3_step(s->loose);
    if (each == NULL && s->loose_rc == SQLITE_DONE) {
        return count_indexed(s, key);
    }
    pgn_status st =
        pgnk_db_games_at_key(s->db, key, each != NULL ? each : on_posting_count, s, s->msg, s->cap);
    if (st == PGN_OK && s->st == PGN_OK && !s->stopped) {
        replay_loose(s, INT64_MAX);
    }
    return st != PGN_OK ? st : s->st;
}

/* Every stored game, in id order. */
static pgn_status select_all(selector *s) {
    if (sqlite3_prepare_v2(s->db->sql, "SELECT id, block, start, length FROM games ORDER BY id", -1,
                           &s->one, NULL) != SQLITE_OK) {
        return pgnk_db_fail(s->db, "select", s->msg, s->cap);
    }
    int rc;
    while ((rc = sqlite3_step(s->one)) == SQLITE_ROW) {
        pgn_str raw;
        pgn_status st =
            pgnk_db_slice(s->db, sqlite3_column_int64(s->one, 1), sqlite3_column_int64(s->one, 2),
                          sqlite3_column_int64(s->one, 3), &raw, s->msg, s->cap);
        if (st != PGN_OK) {
            return st;
        }
        if (replay(s, sqlite3_column_int64(s->one, 0), raw.ptr, raw.len)) {
            return s->st;
        }
    }
    return rc == SQLITE_DONE ? PGN_OK : pgnk_db_fail(s->db, "select", s->msg, s->cap);
}

static int count_hit(void *user, const pgn_db_hit *hit) {
    (void)user;
    (void)hit;
    return 0;
}

/* pgn_db_select, or its count alone (fn NULL: *count, the bare positions from the index). */
static pgn_status run(pgn_db *db, const pgn_query *query,
                      int (*fn)(void *user, const pgn_db_hit *hit), void *user, uint64_t *count,
                      pgn_db_select_totals *totals, char *msg, size_t cap) {
    selector s;
    memset(&s, 0, sizeof s);
    s.db = db;
    s.q = query;
    s.v = pgn_query_visitor_for(query);
    s.fn = fn != NULL ? fn : count_hit;
    s.user = user;
    s.msg = msg;
    s.cap = cap;
    uint64_t key = 0;
    int indexed = required_key(query, &key);
    pgn_status st = indexed < 0 ? PGN_E_NOMEM : pgn_query_matcher_new(&s.m, query, NULL);
    /* one read transaction (unless the caller holds one): the index, the games and their blocks
     * read in one snapshot while an import commits, and the WAL's read lock taken once, not at
     * each statement */
    int own = st == PGN_OK && sqlite3_get_autocommit(db->sql);
    if (own && (st = pgnk_db_exec(db, "BEGIN", msg, cap)) != PGN_OK) {
        own = 0;
    }
    if (st == PGN_OK) {
        st = !indexed                             ? select_all(&s)
             : fn == NULL && bare_position(query) ? select_indexed(&s, key, NULL)
                                                  : select_indexed(&s, key, on_posting);
    }
    if (count != NULL) {
        *count = s.tot.matched;
    }
    if (st == PGN_E_NOMEM && msg != NULL && cap > 0) {
        snprintf(msg, cap, "select: out of memory");
    }
    sqlite3_finalize(s.one);
    sqlite3_finalize(s.loose);
    if (own) {
        sqlite3_exec(db->sql, "COMMIT", NULL, NULL, NULL); /* a read: nothing to lose */
    }
    pgn_query_matcher_free(s.m);
    if (totals != NULL) {
        *totals = s.tot;
    }
    return st;
}

pgn_status pgn_db_select(pgn_db *db, const pgn_query *query,
                         int (*fn)(void *user, const pgn_db_hit *hit), void *user,
                         pgn_db_select_totals *totals, char *msg, size_t cap) {
    return run(db, query, fn, user, NULL, totals, msg, cap);
}

pgn_status pgn_db_select_count(pgn_db *db, const pgn_query *query, uint64_t *count,
                               pgn_db_select_totals *totals, char *msg, size_t cap) {
    return run(db, query, NULL, NULL, count, totals, msg, cap);
}
