/* SPDX-License-Identifier: MIT */
/* The JSON a page's viewer is given (pgnkit html and serve): one game's entry (its moves as
 * docs/json-format.md, its evaluation graph, the per-side statistics of an analysis) and a pasted
 * PGN read into entries with its diagnostics, its broken games counted and its caps checked
 * (issue 28). Every text of a PGN goes out with <, > and & as \u00XX (pgn_json_html_write). */
#include "../base/alloc.h"
#include "pgnkit/json.h"
#include "pgnkit/reader.h"
#include "pgnkit/render.h"

#include <stdio.h>
#include <string.h>

#define PASTE_DIAGS 200 /* diagnostics listed by default (all are counted) */

/* A destination of text: a write callback and its context (pgn_json_html_write's sink too). */
typedef pgn_json_html_sink sink;

/* text to o: 0, or -1 when the write failed */
static int put(const sink *o, const char *text) {
    size_t n = strlen(text);
    return o->fn(o->ctx, text, n) == (ptrdiff_t)n ? 0 : -1;
}

/* text to a buffer: 0, or -1 when it cannot grow */
static int put_buf(pgn_membuf *b, const char *text) {
    return pgn_membuf_write(b, text, strlen(text)) < 0 ? -1 : 0;
}

/* JSON string of n bytes at s to o, with <, > and & escaped: 0 or -1 */
static int put_string(const sink *o, const char *s, size_t n) {
    sink copy = *o;
    return pgn_json_write_string(pgn_json_html_write, &copy, s, n) == PGN_OK ? 0 : -1;
}

/* The <svg> element of an SVG document (its XML declaration dropped: it goes into HTML). */
static const char *svg_element(const pgn_membuf *b, size_t *len) {
    const char *svg = b->ptr;
    for (size_t i = 0; i + 4 <= b->len; i++) {
        if (memcmp(b->ptr + i, "<svg", 4) == 0) {
            svg = b->ptr + i;
            break;
        }
    }
    *len = b->len - (size_t)(svg - b->ptr);
    return svg;
}

static int stats_side(const sink *o, const pgn_game_stats *s, int c) {
    char acpl[32] = "null", acc[32] = "null", text[256];
    if (s->acpl[c] >= 0) {
        snprintf(acpl, sizeof acpl, "%.1f", s->acpl[c]);
    }
    if (s->accuracy[c] >= 0) {
        snprintf(acc, sizeof acc, "%.1f", s->accuracy[c]);
    }
    snprintf(text, sizeof text,
             "{\"moves\":%u,\"acpl\":%s,\"accuracy\":%s,\"inaccuracies\":%u,\"mistakes\":%u,"
             "\"blunders\":%u}",
             (unsigned)s->moves[c], acpl, acc, (unsigned)s->inaccuracies[c],
             (unsigned)s->mistakes[c], (unsigned)s->blunders[c]);
    return put(o, text);
}

/* The entry's members after the game, tmp as scratch: 0, -1 (the write failed), -2 (out of
 * memory). */
static int entry_rest(const sink *o, pgn_membuf *tmp, const pgn_game *g,
                      const pgn_game_stats *stats, int analysed) {
    if (pgn_game_has_evals(g)) { /* no graph for a game without evaluations */
        pgn_graph_opts go = {720, 180};
        tmp->len = 0;
        if (pgn_graph_svg(g, &go, pgn_membuf_write, tmp) != PGN_OK) {
            return -2;
        }
        size_t n;
        const char *svg = svg_element(tmp, &n);
        if (put(o, ",\"graph\":") < 0 || put_string(o, svg, n) < 0) {
            return -1;
        }
    }
    if (stats && (put(o, analysed ? ",\"analysed\":true" : ",\"analysed\":false") < 0 ||
                  put(o, ",\"stats\":{\"white\":") < 0 || stats_side(o, stats, 0) < 0 ||
                  put(o, ",\"black\":") < 0 || stats_side(o, stats, 1) < 0 || put(o, "}") < 0)) {
        return -1;
    }
    return put(o, "}");
}

pgn_status pgn_viewer_entry_json(const pgn_game *g, uint32_t json_flags,
                                 const pgn_game_stats *stats, int analysed, pgn_write_fn fn,
                                 void *ctx) {
    pgn_membuf tmp = {0};
    pgn_json_writer *jw = NULL;
    pgn_json_writer_opts jo = {PGN_JSON_NDJSON | json_flags, 0, NULL};
    sink o = {fn, ctx};
    int r = pgn_json_writer_new(&jw, &jo, pgn_membuf_write, &tmp) != PGN_OK ||
                    pgn_json_writer_write(jw, g) != PGN_OK
                ? -2
                : 0;
    while (r == 0 && tmp.len && tmp.ptr[tmp.len - 1] == '\n') {
        tmp.len--;
    }
    if (r == 0) {
        r = put(&o, "{\"game\":") < 0 || pgn_json_html_write(&o, tmp.ptr, tmp.len) < 0
                ? -1
                : entry_rest(&o, &tmp, g, stats, analysed);
    }
    pgn_json_writer_free(jw);
    pgn_membuf_free(&tmp);
    return r == 0 ? PGN_OK : r == -1 ? PGN_E_IO : PGN_E_NOMEM;
}

typedef struct paste_ctx {
    pgn_paste *p;
    unsigned max_diags;
    int nomem;
} paste_ctx;

static void on_diag(void *ctx, const pgn_diag *d) {
    paste_ctx *c = ctx;
    pgn_paste *p = c->p;
    *(d->severity == PGN_SEV_ERROR ? &p->errors : &p->warnings) += 1;
    if (p->ndiags >= c->max_diags) {
        return;
    }
    /* the one JSON form of a diagnostic (pgn_diag_json, docs/diagnostics.schema.json) */
    sink o = {pgn_membuf_write, &p->diags};
    c->nomem |= (p->ndiags && put_buf(&p->diags, ",") < 0) ||
                pgn_diag_json(d, NULL, pgn_json_html_write, &o) != PGN_OK;
    p->ndiags++;
}

/* Counts game g in p: 1 (with p->error) when it is over a cap. */
static int over_caps(const pgn_paste_opts *o, const pgn_game *g, pgn_paste *p) {
    if (++p->games > o->max_games && o->max_games) {
        snprintf(p->error, sizeof p->error, "more than %u games", o->max_games);
        p->over = PGN_PASTE_OVER_GAMES;
        return 1;
    }
    size_t plies = pgn_game_ply_count(g);
    if (plies > o->max_plies && o->max_plies) {
        snprintf(p->error, sizeof p->error, "game %u has %zu plies, more than %u", p->games, plies,
                 o->max_plies);
        p->over = PGN_PASTE_OVER_PLIES;
        return 1;
    }
    p->positions += plies + 1;
    return 0;
}

/* Reads every game of the text into p: PGN_OK, PGN_E_LIMIT (a cap, or the reader's error),
 * PGN_E_NOMEM. */
static pgn_status read_games(pgn_paste *p, const pgn_paste_opts *o, pgn_reader *r, pgn_game *g) {
    for (;;) {
        pgn_status st = pgn_reader_next(r, g);
        if (st == PGN_END) {
            return PGN_OK;
        }
        if (st != PGN_OK) {
            return st == PGN_E_NOMEM ? st : PGN_E_LIMIT;
        }
        if (pgn_reader_summary(r)->broken) {
            p->broken++;
            continue;
        }
        if (over_caps(o, g, p)) {
            return PGN_E_LIMIT;
        }
        if ((o->flags & PGN_PASTE_ENTRIES) &&
            ((p->entries.len && put_buf(&p->entries, ",") < 0) ||
             pgn_viewer_entry_json(g, 0, NULL, 0, pgn_membuf_write, &p->entries) != PGN_OK)) {
            return PGN_E_NOMEM;
        }
    }
}

pgn_status pgn_paste_read(pgn_paste *p, const char *text, size_t len, const pgn_paste_opts *opts) {
    static const pgn_paste_opts none = {0};
    const pgn_paste_opts *o = opts ? opts : &none;
    memset(p, 0, sizeof *p);
    if (pgnk_alloc_check(o->alloc) != PGN_OK) {
        return PGN_E_BAD_ALLOCATOR;
    }
    p->diags.alloc = p->entries.alloc = o->alloc;
    paste_ctx c = {p, o->max_diags ? o->max_diags : PASTE_DIAGS, 0};
    pgn_reader_opts ro;
    memset(&ro, 0, sizeof ro);
    ro.on_diag = on_diag;
    ro.diag_ctx = &c;
    ro.source_name = o->source_name;
    ro.flags = o->reader_flags;
    ro.alloc = o->alloc;
    pgn_reader *r = NULL;
    pgn_game *g = NULL;
    pgn_status st = PGN_E_NOMEM;
    if (pgn_reader_new_mem(&r, &ro, text, len) == PGN_OK && pgn_game_new(&g, o->alloc) == PGN_OK) {
        st = read_games(p, o, r, g);
    }
    pgn_game_free(g);
    pgn_reader_free(r);
    if (c.nomem) {
        st = PGN_E_NOMEM;
    }
    if (st == PGN_OK && p->games == 0) {
        st = PGN_E_LIMIT;
    }
    if (st == PGN_E_LIMIT && !p->error[0]) {
        snprintf(p->error, sizeof p->error, "%s",
                 p->broken ? "no game reads whole: see the errors" : "no game in the text");
    }
    return st;
}

pgn_status pgn_paste_json(const pgn_paste *p, pgn_write_fn fn, void *ctx) {
    char text[256];
    const sink o = {fn, ctx};
    snprintf(text, sizeof text,
             "\"games\":%u,\"broken\":%u,\"positions\":%llu,\"errors\":%u,\"warnings\":%u,"
             "\"diagnostics\":[",
             p->games, p->broken, (unsigned long long)p->positions, p->errors, p->warnings);
    int bad = p->error[0] && (put(&o, "\"error\":") < 0 ||
                              put_string(&o, p->error, strlen(p->error)) < 0 || put(&o, ",") < 0);
    bad = bad || put(&o, text) < 0 ||
          (p->diags.len && fn(ctx, p->diags.ptr, p->diags.len) != (ptrdiff_t)p->diags.len) ||
          put(&o, "]") < 0;
    return bad ? PGN_E_IO : PGN_OK;
}

void pgn_paste_free(pgn_paste *p) {
    if (p) {
        pgn_membuf_free(&p->diags);
        pgn_membuf_free(&p->entries);
    }
}
