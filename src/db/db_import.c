/* SPDX-License-Identifier: MIT */
/* Import (issue 30): the games of a source read on N threads (pgn_parallel_read). Each worker
 * visits its games and packs, per game, the tags kept, the result, the line key of the dedupe
 * rule and the main line's (position, move) pairs, each position once (its first move); the
 * caller's thread stores the game (its bytes into a block, compressed on the blocks' thread:
 * db_blocks.c) and gathers the pairs of a batch, which at the commit are sorted and made into
 * the explorer's rows on a thread of their own (db_rows.c) while the caller's thread inserts
 * them: a (position, move) that few games of the batch played as entries of the batch's run
 * (singles, a blob per key prefix: no B-tree row of its own), else one row of explore per
 * (position, move), its counts added and the batch's games appended to its posting list, so the
 * explorer's rows and entries are the position index too (schema 4). */
#include "db_rows.h"
#include "db_seen.h"

#include "../chess/attacks.h"

#include "pgnkit/collection.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TAG_CAP 256

typedef pgnk_entry entry;

/* A worker's game, as the visitor reads it. */
typedef struct worker {
    char tag[DBT_COUNT][TAG_CAP];
    size_t tag_len[DBT_COUNT];
    uint64_t line_key;
    /* the position before the next move: the reader gives the one after each move, unkeyed
     * (its keyed path played each move at about twice the cost), and its key is carried here
     * from the squares the move changed */
    uint64_t key, occ, castle, castle_key, ep_key;
    uint8_t board[64];
    uint16_t halfmove;
    uint8_t side;
    entry *e;
    size_t n, cap;
    int nomem;
} worker;

/* The start position as the one before the first move. */
static void set_start(worker *w, const pgn_pos *start) {
    w->key = pgn_pos_compute_key(start);
    w->occ = start->by_type[0];
    w->castle = start->castle;
    w->castle_key = pgnk_chess_castle_key(start);
    w->ep_key = chess_polyglot_ep_key(start);
    memcpy(w->board, start->board, sizeof w->board);
    w->halfmove = start->halfmove;
    w->side = start->side;
}

/* The position after mv (of standard chess) as the one before the next move: the key of
 * pgn_pos_play, from the squares whose piece changed (those whose occupancy did, and mv's two:
 * a capture, castling's king and rook), the side, en passant and castling keys. */
static void set_after(worker *w, const pgn_pos *after, pgn_move mv) {
    uint64_t k = w->key ^ chess_side_key(), ep = chess_polyglot_ep_key(after);
    uint64_t ch = w->occ ^ after->by_type[0];
    if (mv != PGN_MOVE_NULL) {
        ch |= bits_sq(PGN_MOVE_FROM(mv)) | bits_sq(PGN_MOVE_TO(mv));
    }
    while (ch) {
        unsigned sq = bits_pop(&ch);
        if (w->board[sq]) {
            k ^= chess_piece_key(w->board[sq], sq);
        }
        if (after->board[sq]) {
            k ^= chess_piece_key(after->board[sq], sq);
        }
    }
    k ^= w->ep_key ^ ep;
    w->ep_key = ep;
    if (w->castle != after->castle) {
        uint64_t c = pgnk_chess_castle_key(after);
        k ^= w->castle_key ^ c;
        w->castle_key = c;
        w->castle = after->castle;
    }
    w->key = k;
    w->occ = after->by_type[0];
    memcpy(w->board, after->board, sizeof w->board);
    w->halfmove = after->halfmove;
    w->side = after->side;
}

static pgn_flow w_begin(void *u, pgn_loc at) {
    worker *w = u;
    (void)at;
    memset(w->tag_len, 0, sizeof w->tag_len);
    w->n = 0;
    w->line_key = 0;
    return PGN_FLOW_CONTINUE;
}

static pgn_flow w_tag(void *u, pgn_str name, pgn_str value) {
    worker *w = u;
    for (int i = 0; i < DBT_COUNT && name.len > 0; i++) {
        const char *t = pgnk_db_tag_names[i]; /* (the first letter first: most tags are none) */
        if (t[0] == name.ptr[0] && strlen(t) == name.len && memcmp(t, name.ptr, name.len) == 0) {
            size_t n = value.len < TAG_CAP ? value.len : TAG_CAP;
            if (n > 0) {
                memcpy(w->tag[i], value.ptr, n);
            }
            w->tag_len[i] = n;
        }
    }
    return PGN_FLOW_CONTINUE;
}

static pgn_flow w_end_tags(void *u, const pgn_pos *start) {
    worker *w = u;
    if (start == NULL || start->variant != PGN_VARIANT_STANDARD) {
        return PGN_FLOW_SKIP; /* variants are stored, not indexed */
    }
    w->line_key = pgn_line_key_start(start);
    set_start(w, start);
    return PGN_FLOW_CONTINUE;
}

/* Appends (key, mv) unless key was met earlier in this game: only within the halfmove window can
 * a position repeat. */
static void add(worker *w, uint64_t key, pgn_move mv, unsigned window, uint8_t side) {
    size_t from = w->n > window ? w->n - window - 1 : 0;
    for (size_t i = from; i < w->n; i++) {
        if (w->e[i].key == key) {
            return;
        }
    }
    if (w->n == w->cap) {
        void *e = w->e;
        if (!pgnk_grow(NULL, &e, &w->cap, w->n + 1, sizeof *w->e, 256)) {
            w->nomem = 1;
            return;
        }
        w->e = e;
    }
    w->e[w->n].key = key;
    w->e[w->n].side = side;
    w->e[w->n++].move = mv;
}

/* (PGN_READ_MOVE_AFTER: after is the position mv led to) */
static pgn_flow w_move(void *u, const pgn_pos *after, pgn_move mv, pgn_str san, pgn_loc at) {
    worker *w = u;
    (void)san;
    (void)at;
    add(w, w->key, mv, w->halfmove, w->side);
    w->line_key = pgn_line_key_move(w->line_key, mv);
    set_after(w, after, mv);
    return PGN_FLOW_CONTINUE;
}

static pgn_flow w_variation(void *u) {
    (void)u;
    return PGN_FLOW_SKIP;
}

static pgn_flow w_end_game(void *u, pgn_result result, const pgn_game_summary *s) {
    worker *w = u;
    (void)result;
    const pgn_pos *f = s->final_pos;
    if (f != NULL && w->line_key != 0) {
        /* the final position is the one after the last move, whose key was carried */
        int carried = f->side == w->side && f->castle == w->castle &&
                      memcmp(f->board, w->board, sizeof w->board) == 0 &&
                      chess_polyglot_ep_key(f) == w->ep_key;
        add(w, carried ? w->key : pgn_pos_compute_key(f), PGN_MOVE_NONE, f->halfmove, f->side);
    }
    return PGN_FLOW_CONTINUE;
}

static const pgn_visitor visitor = {
    .begin_game = w_begin,
    .tag = w_tag,
    .end_tags = w_end_tags,
    .move = w_move,
    .begin_variation = w_variation,
    .end_game = w_end_game,
};

static void *worker_new(void *user) {
    (void)user;
    return calloc(1, sizeof(worker));
}
static void worker_free(void *wu) {
    worker *w = wu;
    if (w != NULL) {
        free(w->e);
        free(w);
    }
}
static void *worker_vuser(void *wu) {
    return wu;
}

/* The line key of the dedupe rule finished with the game's tags and result (the key stored,
 * with or without --keep-duplicates). */
static uint64_t finish_key(const worker *w, unsigned plies, pgn_result result) {
    static const int which[4] = {DBT_WHITE, DBT_BLACK, DBT_DATE, -1};
    char norm[4][PGN_DEDUPE_TAG_MAX];
    pgn_str nt[4];
    for (unsigned i = 0; i < 4; i++) {
        pgn_str v = {pgn_result_str(result), 0};
        if (which[i] >= 0) {
            v.ptr = w->tag[which[i]];
            v.len = w->tag_len[which[i]];
        } else {
            v.len = strlen(v.ptr);
        }
        nt[i].ptr = norm[i];
        nt[i].len = pgn_dedupe_norm_tag(i, v, norm[i], sizeof norm[i]);
    }
    return pgn_line_key_finish(w->line_key, plies, nt);
}

/* The record a worker hands over: a header, the tags, the first error, the entries. */
typedef struct rec_head {
    uint64_t line_key;
    uint32_t plies, n;
    uint16_t tag_len[DBT_COUNT];
    uint16_t err_len;
    uint8_t result, broken;
} rec_head;

static pgn_status prepare(void *wu, const pgn_par_game *g, pgn_membuf *out) {
    worker *w = wu;
    if (w->nomem) {
        w->nomem = 0;
        return PGN_E_NOMEM;
    }
    const pgn_game_summary *s = g->summary;
    rec_head h;
    memset(&h, 0, sizeof h);
    h.plies = s->plies;
    h.n = (uint32_t)w->n;
    h.broken = (uint8_t)(s->broken != 0);
    h.result = (uint8_t)s->marker;
    if (!h.broken && w->line_key != 0) {
        h.line_key = finish_key(w, s->plies, s->marker);
    }
    char err[160] = "";
    if (s->errors > 0) {
        const pgn_diag *d = &s->first_error;
        size_t k = (size_t)snprintf(err, sizeof err, "%s at line %lu: %s", pgn_status_name(d->code),
                                    (unsigned long)d->at.line, d->token);
        h.err_len = (uint16_t)(k < sizeof err ? k : sizeof err - 1);
    }
    for (int i = 0; i < DBT_COUNT; i++) {
        h.tag_len[i] = (uint16_t)w->tag_len[i];
    }
    if (pgn_membuf_write(out, &h, sizeof h) < 0) {
        return PGN_E_NOMEM;
    }
    for (int i = 0; i < DBT_COUNT; i++) {
        if (pgn_membuf_write(out, w->tag[i], w->tag_len[i]) < 0) {
            return PGN_E_NOMEM;
        }
    }
    if (pgn_membuf_write(out, err, h.err_len) < 0 ||
        pgn_membuf_write(out, w->e, w->n * sizeof *w->e) < 0) {
        return PGN_E_NOMEM;
    }
    return PGN_OK;
}

/* ---- the caller's side ---- */

typedef struct importer {
    pgn_db *db;
    const pgn_db_import_opts *o;
    pgn_source *src;
    sqlite3_stmt *ins, *dup, *exp, *one;
    pgnk_rows *rows; /* the batch's position index */
    uint32_t in_batch;
    pgn_db_import_totals tot, batch;
    char *msg;
    size_t mcap;
    int64_t batch_first; /* the first game stored in the batch: the run's base */
    pgnk_blockw bw;      /* the games' bytes being packed */
    pgnk_seen seen;      /* the line keys stored */
} importer;

static pgn_status step_done(importer *im, sqlite3_stmt *st, const char *what) {
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    return rc == SQLITE_DONE || rc == SQLITE_ROW ? PGN_OK
                                                 : pgnk_db_fail(im->db, what, im->msg, im->mcap);
}

static pgn_status commit_batch(importer *im) {
    pgn_status s = pgnk_rows_write(im->rows, im->db, im->exp, im->one, im->batch_first,
                                   im->o->threads != 1, im->msg, im->mcap);
    if (s == PGN_E_NOMEM && im->msg != NULL && im->mcap > 0) {
        snprintf(im->msg, im->mcap, "out of memory");
    }
    if (s == PGN_OK && pgnk_blockw_flush(&im->bw, im->db) != PGN_OK) {
        s = pgnk_db_fail(im->db, "storing the games", im->msg, im->mcap);
    }
    if (s == PGN_OK) {
        s = pgnk_db_exec(im->db, "COMMIT", im->msg, im->mcap);
    }
    if (s != PGN_OK) {
        sqlite3_exec(im->db->sql, "ROLLBACK", NULL, NULL, NULL);
        pgnk_blockw_reset(&im->bw);
        pgnk_seen_reset(&im->seen);
        return s;
    }
    im->tot.games += im->batch.games;
    im->tot.stored += im->batch.stored;
    im->tot.duplicates += im->batch.duplicates;
    im->tot.broken += im->batch.broken;
    im->tot.positions += im->batch.positions;
    memset(&im->batch, 0, sizeof im->batch);
    im->in_batch = 0;
    im->batch_first = 0;
    if (im->o->progress != NULL) {
        im->o->progress(im->o->user, im->tot.games, pgn_source_consumed(im->src));
    }
    return PGN_OK;
}

static int64_t num(const char *s, size_t len) {
    int64_t v = 0;
    for (size_t i = 0; i < len && s[i] >= '0' && s[i] <= '9' && v < 100000; i++) {
        v = v * 10 + (s[i] - '0');
    }
    return v;
}

/* The game's tag i among the packed tags. */
static pgn_str tag_at(const rec_head *h, const char *tags, int i) {
    size_t o = 0;
    for (int k = 0; k < i; k++) {
        o += h->tag_len[k];
    }
    pgn_str v = {tags + o, h->tag_len[i]};
    return v;
}

/* 1 when a stored game has the line key of h, 0 when none, -1 when SQLite failed. */
static int is_duplicate(importer *im, const rec_head *h) {
    int known = pgnk_seen_has(&im->seen, h->line_key);
    if (known >= 0) {
        return known;
    }
    sqlite3_bind_int64(im->dup, 1, (sqlite3_int64)h->line_key);
    int rc = sqlite3_step(im->dup);
    sqlite3_reset(im->dup);
    return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

/* Inserts the games row; PGN_OK or SQLite's failure. */
static pgn_status store_game(importer *im, const rec_head *h, const char *tags,
                             const pgn_par_game *g) {
    const char *t = tags;
    for (int i = 0; i < DBT_COUNT; i++) {
        int64_t v = num(t, h->tag_len[i]);
        if (i != DBT_WHITE_ELO && i != DBT_BLACK_ELO) {
            sqlite3_bind_text(im->ins, 1 + i, t, (int)h->tag_len[i], SQLITE_STATIC);
        } else if (v > 0) {
            sqlite3_bind_int64(im->ins, 1 + i, v);
        } else {
            sqlite3_bind_null(im->ins, 1 + i);
        }
        t += h->tag_len[i];
    }
    sqlite3_bind_text(im->ins, 10, pgn_result_str((pgn_result)h->result), -1, SQLITE_STATIC);
    sqlite3_bind_int64(im->ins, 11, h->plies);
    sqlite3_bind_int(im->ins, 12, h->broken);
    if (h->err_len) {
        sqlite3_bind_text(im->ins, 13, t, h->err_len, SQLITE_STATIC);
    } else {
        sqlite3_bind_null(im->ins, 13);
    }
    if (h->broken || h->line_key == 0) {
        sqlite3_bind_null(im->ins, 14);
    } else {
        sqlite3_bind_int64(im->ins, 14, (sqlite3_int64)h->line_key);
    }
    int64_t block, start;
    pgn_str raw = {g->raw.ptr ? g->raw.ptr : "", g->raw.len};
    pgn_status s = pgnk_blockw_add(&im->bw, im->db, raw, &block, &start);
    if (s != PGN_OK) {
        return s == PGN_E_NOMEM ? s : pgnk_db_fail(im->db, "storing a game", im->msg, im->mcap);
    }
    sqlite3_bind_int64(im->ins, 15, block);
    sqlite3_bind_int64(im->ins, 16, start);
    sqlite3_bind_int64(im->ins, 17, (sqlite3_int64)raw.len);
    return step_done(im, im->ins, "storing a game");
}

/* The game's index entries into the batch. */
static pgn_status add_pending(importer *im, const rec_head *h, const char *tags, const char *ent,
                              int64_t id) {
    pgn_str d = tag_at(h, tags, DBT_DATE), we = tag_at(h, tags, DBT_WHITE_ELO),
            be = tag_at(h, tags, DBT_BLACK_ELO);
    uint32_t elo[2] = {(uint32_t)num(we.ptr, we.len), (uint32_t)num(be.ptr, be.len)};
    im->batch.positions += h->n;
    return pgnk_rows_add(im->rows, id, pgnk_db_date_num(d.ptr, d.len), elo, h->result, ent, h->n);
}

static pgn_status each(void *user, const pgn_par_game *g) {
    importer *im = user;
    rec_head h;
    if (!g->has_product || g->product.len < sizeof h) {
        return PGN_E_NOMEM;
    }
    memcpy(&h, g->product.ptr, sizeof h);
    const char *tags = g->product.ptr + sizeof h;
    pgn_status s = PGN_OK;
    if (im->in_batch == 0 && (s = pgnk_db_exec(im->db, "BEGIN IMMEDIATE", im->msg, im->mcap))) {
        return s;
    }
    if (im->in_batch == 0 && !im->o->keep_duplicates &&
        (s = pgnk_seen_begin(&im->seen, im->db, im->msg, im->mcap)) != PGN_OK) {
        return s;
    }
    im->in_batch++;
    im->batch.games++;
    int dup = 0;
    if (!h.broken && h.line_key != 0 && !im->o->keep_duplicates &&
        (dup = is_duplicate(im, &h)) < 0) {
        return pgnk_db_fail(im->db, "duplicates", im->msg, im->mcap);
    }
    if (dup) {
        im->batch.duplicates++;
    } else {
        size_t tl = 0;
        for (int i = 0; i < DBT_COUNT; i++) {
            tl += h.tag_len[i];
        }
        if ((s = store_game(im, &h, tags, g)) != PGN_OK) {
            return s;
        }
        int64_t id = sqlite3_last_insert_rowid(im->db->sql);
        if (!h.broken && h.line_key != 0) {
            pgnk_seen_add(&im->seen, id, h.line_key);
        }
        im->batch_first = im->batch_first ? im->batch_first : id;
        if ((s = add_pending(im, &h, tags, tags + tl + h.err_len, id)) != PGN_OK) {
            return s;
        }
        im->batch.stored++;
        im->batch.broken += h.broken;
    }
    uint32_t limit = im->o->batch_games ? im->o->batch_games : 50000;
    if (im->in_batch >= limit || pgnk_rows_entries(im->rows) >= ((size_t)8 << 20)) {
        return commit_batch(im);
    }
    return PGN_OK;
}

static const char ins_sql[] =
    "INSERT INTO games(white, black, event, site, date, round, white_elo, black_elo, eco, result,"
    " plies, broken, error, line_key, block, start, length)"
    " VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
static const char exp_sql[] =
    "INSERT INTO explore VALUES(?,?,?,?,?,?,?,?,?,?) ON CONFLICT(key, move) DO UPDATE SET"
    " games = games + excluded.games, white = white + excluded.white,"
    " draws = draws + excluded.draws, black = black + excluded.black,"
    " elo_sum = elo_sum + excluded.elo_sum, elo_games = elo_games + excluded.elo_games,"
    " last_date = max(last_date, excluded.last_date), ids = ids || excluded.ids";

static pgn_status prepare_statements(importer *im) {
    sqlite3 *q = im->db->sql;
    if (sqlite3_prepare_v2(q, ins_sql, -1, &im->ins, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(q, "SELECT 1 FROM games WHERE line_key = ? LIMIT 1", -1, &im->dup,
                           NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(q, exp_sql, -1, &im->exp, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(q, "INSERT INTO singles VALUES(?,?,?)", -1, &im->one, NULL) !=
            SQLITE_OK) {
        return pgnk_db_fail(im->db, "import", im->msg, im->mcap);
    }
    return PGN_OK;
}

/* The games of the source read on the parallel reader's threads, each batch committed; at an
 * error the open batch is rolled back and msg says what failed. */
static pgn_status import_all(importer *im) {
    pgn_parallel_opts po;
    memset(&po, 0, sizeof po);
    po.threads = im->o->threads;
    po.reader.flags =
        PGN_READ_KEEP_RAW | PGN_READ_MOVE_AFTER | PGN_READ_NO_KEYS | PGN_READ_TAG_SPANS;
    po.reader.source_name = pgn_source_name(im->src);
    po.visitor = &visitor;
    po.hooks.worker_new = worker_new;
    po.hooks.worker_free = worker_free;
    po.hooks.worker_vuser = worker_vuser;
    po.hooks.prepare = prepare;
    po.user = im;
    po.each = each;
    pgn_parallel_totals pt;
    pgn_status s = pgn_parallel_read(im->src, &po, &pt);
    if (s == PGN_END) {
        return im->in_batch > 0 ? commit_batch(im) : PGN_OK;
    }
    if (s == PGN_E_IO && !pt.from_each) {
        const char *e = pgn_source_error(im->src);
        if (im->msg != NULL && im->mcap > 0) {
            snprintf(im->msg, im->mcap, "%s", e ? e : "read error");
        }
    } else if (s == PGN_E_NOMEM && im->msg != NULL && im->mcap > 0) {
        snprintf(im->msg, im->mcap, "out of memory");
    }
    if (im->in_batch > 0) {
        sqlite3_exec(im->db->sql, "ROLLBACK", NULL, NULL, NULL);
    }
    pgnk_blockw_reset(&im->bw);
    pgnk_seen_reset(&im->seen);
    return s;
}

/* What an import holds: its statements, the batch's buckets and pool, its buffers. */
static void importer_free(importer *im) {
    sqlite3_finalize(im->ins);
    sqlite3_finalize(im->dup);
    sqlite3_finalize(im->exp);
    sqlite3_finalize(im->one);
    pgnk_rows_free(im->rows);
    pgnk_blockw_free(&im->bw);
    pgnk_seen_free(&im->seen);
}

pgn_status pgn_db_import(pgn_db *db, pgn_source *src, const pgn_db_import_opts *opts,
                         pgn_db_import_totals *totals, char *msg, size_t cap) {
    static const pgn_db_import_opts none;
    if (db->readonly) { /* refused before any game is read, even one that would be a duplicate */
        if (msg != NULL && cap > 0) {
            snprintf(msg, cap, "the database is open for reading only");
        }
        return PGN_E_IO;
    }
    importer im;
    memset(&im, 0, sizeof im);
    im.db = db;
    im.o = opts ? opts : &none;
    im.src = src;
    im.msg = msg;
    im.mcap = cap;
    pgn_status s = pgnk_rows_new(&im.rows);
    if (s == PGN_OK) {
        s = prepare_statements(&im);
    }
    if (s == PGN_OK && im.o->threads != 1) {
        (void)pgnk_blockw_threaded(&im.bw); /* else the caller's thread compresses the blocks */
    }
    if (s == PGN_OK) {
        s = import_all(&im);
    }
    importer_free(&im);
    if (totals != NULL) {
        *totals = im.tot;
    }
    return s;
}
