/* SPDX-License-Identifier: MIT */
/* pgnkit dedupe without a game tree: a visitor keys the main line as the reader plays it
 * (pgn_line_key_*) and writes its record (cli/dedupe.h); an equal key is confirmed by reading the
 * earlier copy's record back from the spool and comparing bytes, not by reading its text again.
 * This halved dedupe's time: the tree and the second parse of every duplicate were most of it. */
#define _POSIX_C_SOURCE 200809L
#include "dedupe.h"
#include "parallel.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const TAGS[4] = {"White", "Black", "Date", "Result"};

/* Appends n bytes to the record (the library's growable buffer); 0 when out of memory. */
static int put(dd_line *l, const void *p, size_t n) {
    pgn_membuf m = {(char *)l->rec, l->len, l->cap, NULL};
    if (pgn_membuf_write(&m, p, n) < 0) {
        l->nomem = 1;
        return 0;
    }
    l->rec = (unsigned char *)m.ptr;
    l->len = m.len;
    l->cap = m.cap;
    return 1;
}

static pgn_flow on_begin(void *user, pgn_loc at) {
    dd_line *l = user;
    static const pgn_str empty = {"", 0};
    (void)at;
    l->depth = 0;
    l->plies = 0;
    l->len = 0;
    l->nomem = 0;
    for (unsigned i = 0; i < 4; i++) {
        l->tag_len[i] = pgn_dedupe_norm_tag(i, empty, l->tags[i], PGN_DEDUPE_TAG_MAX);
    }
    return PGN_FLOW_CONTINUE;
}

/* The last value of a tag wins, as in the game tree (pgn_game_tag_set). Kept without
 * --by moves+tags too: a game without moves is compared with its tags (pgn_game_same_line). */
static pgn_flow on_tag(void *user, pgn_str name, pgn_str value) {
    dd_line *l = user;
    for (unsigned i = 0; i < 4; i++) {
        if (name.len == strlen(TAGS[i]) && memcmp(name.ptr, TAGS[i], name.len) == 0) {
            l->tag_len[i] = pgn_dedupe_norm_tag(i, value, l->tags[i], PGN_DEDUPE_TAG_MAX);
        }
    }
    return PGN_FLOW_CONTINUE;
}

/* The record's head: the start position as pgn_game_same_line compares it, and room for the
 * number of plies. */
static pgn_flow on_end_tags(void *user, const pgn_pos *start) {
    dd_line *l = user;
    pgn_pos p;
    memset(&p, 0, sizeof p);
    if (start) {
        p = *start;
    }
    if (!l->have_start || memcmp(&p, &l->start, sizeof p) != 0) { /* else as the last game's */
        l->start = p;
        l->have_start = 1;
        p.key = pgn_pos_compute_key(&p);
        l->start_id = pgn_pos_identity_key(&p);
        l->start_key = pgn_line_key_start(&p);
    }
    uint64_t id = l->start_id;
    l->key = l->start_key;
    put(l, p.board, sizeof p.board);
    put(l, &p.side, 1);
    put(l, &p.castle, sizeof p.castle);
    put(l, &id, sizeof id);
    put(l, &l->plies, sizeof l->plies);
    return l->nomem ? PGN_FLOW_STOP : PGN_FLOW_CONTINUE;
}

static pgn_flow on_move(void *user, const pgn_pos *before, pgn_move mv, pgn_str san, pgn_loc at) {
    dd_line *l = user;
    (void)before;
    (void)san;
    (void)at;
    if (l->depth != 0) {
        return PGN_FLOW_CONTINUE;
    }
    l->key = pgn_line_key_move(l->key, mv);
    l->plies++;
    if (l->len + sizeof mv <= l->cap) { /* put's common case, inline */
        memcpy(l->rec + l->len, &mv, sizeof mv);
        l->len += sizeof mv;
        return PGN_FLOW_CONTINUE;
    }
    return put(l, &mv, sizeof mv) ? PGN_FLOW_CONTINUE : PGN_FLOW_STOP;
}

static pgn_flow on_begin_variation(void *user) {
    ((dd_line *)user)->depth++;
    return PGN_FLOW_CONTINUE;
}

static pgn_flow on_end_variation(void *user) {
    ((dd_line *)user)->depth--;
    return PGN_FLOW_CONTINUE;
}

/* Taken and dropped: a comment is decoded only for a visitor that takes it, and its encoding
 * warnings are to be the same as when the game is built. */
static pgn_flow on_comment(void *user, pgn_str text) {
    (void)user;
    (void)text;
    return PGN_FLOW_CONTINUE;
}

const pgn_visitor *dd_line_visitor(void) {
    static const pgn_visitor v = {on_begin,   on_tag, on_end_tags,        on_move,
                                  on_comment, NULL,   on_begin_variation, on_end_variation,
                                  NULL};
    return &v;
}

/* Ends the record: the number of plies in its head, then the tags. */
static pgn_status finish(dd_line *l) {
    static const size_t head = 64 + 1 + 8 + 8;
    pgn_str tags[4];
    if (l->nomem || l->len < head + sizeof l->plies) {
        return PGN_E_NOMEM;
    }
    memcpy(l->rec + head, &l->plies, sizeof l->plies);
    int use = (l->flags & PGN_DEDUPE_TAGS) || l->plies == 0; /* as pgn_game_same_line */
    for (unsigned i = 0; use && i < 4; i++) {
        uint16_t n = (uint16_t)l->tag_len[i];
        tags[i].ptr = l->tags[i];
        tags[i].len = l->tag_len[i];
        put(l, &n, sizeof n);
        put(l, l->tags[i], n);
    }
    l->key = pgn_line_key_finish(l->key, l->plies, use ? tags : NULL);
    return l->nomem ? PGN_E_NOMEM : PGN_OK;
}

/* pgn_dedupe_same_key_fn: the record of cluster ref compared with the line, in memory or read
 * back from the spool file. */
static int same_record(void *ctx, uint64_t ref) {
    dd_state *s = ctx;
    dd_line *l = &s->line;
    const rep *r = &s->reps[ref];
    if (r->len != l->len) {
        return 0;
    }
    if (r->start < DD_SPOOL_MEM) {
        return memcmp(l->mem + r->start, l->rec, l->len) == 0;
    }
    if (l->back_cap < l->len) {
        unsigned char *b = realloc(l->back, l->len);
        if (!b) {
            l->nomem = 1;
            return -1;
        }
        l->back = b;
        l->back_cap = l->len;
    }
    if (fflush(s->spool) != 0 || pread(fileno(s->spool), l->back, l->len,
                                       (off_t)(r->start - DD_SPOOL_MEM)) != (ssize_t)l->len) {
        return -1;
    }
    return memcmp(l->back, l->rec, l->len) == 0;
}

/* Keeps the record of a new line: in memory while it fits there, else in the spool file. */
static pgn_status keep_record(dd_state *s, uint64_t *at) {
    dd_line *l = &s->line;
    if (!l->mem_full && l->mem_len + l->len <= DD_SPOOL_MEM) {
        if (l->mem_len + l->len > l->mem_cap) {
            size_t cap = l->mem_cap ? l->mem_cap * 2 : (size_t)64 << 10;
            cap = cap < l->mem_len + l->len ? l->mem_len + l->len : cap;
            cap = cap > DD_SPOOL_MEM ? DD_SPOOL_MEM : cap;
            unsigned char *m = realloc(l->mem, cap);
            if (!m) {
                return PGN_E_NOMEM;
            }
            l->mem = m;
            l->mem_cap = cap;
        }
        memcpy(l->mem + l->mem_len, l->rec, l->len);
        *at = l->mem_len;
        l->mem_len += l->len;
        return PGN_OK;
    }
    l->mem_full = 1;
    if (fwrite(l->rec, 1, l->len, s->spool) != l->len) {
        return PGN_E_IO;
    }
    *at = DD_SPOOL_MEM + s->spooled;
    s->spooled += l->len;
    return PGN_OK;
}

/* -j N: each worker reads the main lines with a dd_line of its own and sends each game's key and
 * record (finished) as its product; the set, the spool and the clustering stay on the main
 * thread, in input order. */
static void *worker_new(void *user) {
    dd_line *l = calloc(1, sizeof *l);
    if (l) {
        l->flags = ((dd_state *)user)->line.flags;
    }
    return l;
}

static void worker_free(void *wuser) {
    dd_line_free(wuser);
    free(wuser);
}

static void *worker_vuser(void *wuser) {
    return wuser;
}

static pgn_status prepare(void *wuser, const cli_game *g, cli_membuf *out) {
    dd_line *l = wuser;
    pgn_status st;
    if (g->summary->broken || g->raw.len > UINT32_MAX) {
        return PGN_OK; /* written as it is: no record */
    }
    if ((st = finish(l)) != PGN_OK) {
        return st;
    }
    return cli_membuf_write(out, &l->key, sizeof l->key) < 0 ||
                   cli_membuf_write(out, l->rec, l->len) < 0
               ? PGN_E_NOMEM
               : PGN_OK;
}

const cli_par_hooks *dd_line_hooks(void) {
    static const cli_par_hooks h = {worker_new, worker_free, worker_vuser, prepare};
    return &h;
}

/* The key and record a worker made (prepare) into s->line; 0 when out of memory. */
static int from_product(dd_line *l, pgn_str p) {
    l->len = 0;
    if (p.len < sizeof l->key) {
        return 0;
    }
    memcpy(&l->key, p.ptr, sizeof l->key);
    return put(l, p.ptr + sizeof l->key, p.len - sizeof l->key);
}

pgn_status dd_line_add(dd_state *s, const cli_game *g, uint64_t *cluster, int *is_new, uint64_t *at,
                       uint32_t *len) {
    dd_line *l = &s->line;
    pgn_str made;
    pgn_status st =
        cli_par_product(g, &made) ? (from_product(l, made) ? PGN_OK : PGN_E_NOMEM) : finish(l);
    if (st == PGN_OK) {
        st = pgn_dedupe_add_key(s->set, l->key, pgn_dedupe_count(s->set), same_record, s, cluster,
                                is_new);
    }
    if (st != PGN_OK || !*is_new) {
        return st == PGN_E_IO && l->nomem ? PGN_E_NOMEM : st;
    }
    *len = (uint32_t)l->len;
    return keep_record(s, at);
}

void dd_line_free(dd_line *l) {
    free(l->mem);
    free(l->rec);
    free(l->back);
}
