/* SPDX-License-Identifier: MIT */
/* pgnkit serve: reading a paste (its diagnostics as JSON, the caps on games and plies) and the JSON
 * of each game for the viewer (its moves, graph and per-side statistics), with the JSON writing
 * helpers every answer of the server uses (serve.h). */
#define _DEFAULT_SOURCE
#include "serve.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DIAGS 200 /* diagnostics listed in an answer (all are counted) */

int serve_put(cli_membuf *b, const void *p, size_t n) {
    return n == 0 || cli_membuf_write(b, p, n) >= 0 ? 0 : -1;
}

int serve_printf(cli_membuf *b, const char *fmt, ...) {
    char small[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) {
        return -1;
    }
    if ((size_t)n < sizeof small) {
        return serve_put(b, small, (size_t)n);
    }
    char *big = malloc((size_t)n + 1);
    if (!big) {
        return -1;
    }
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    int r = serve_put(b, big, (size_t)n);
    free(big);
    return r;
}

/* Copies JSON text with <, > and & as \u00XX escapes (pgn_json_html_write), so that no text of a
 * PGN reaches the page as markup even if the answer were read as HTML. */
static int put_safe_json(cli_membuf *b, const char *p, size_t n) {
    pgn_json_html_sink sink = {cli_membuf_write, b};
    return pgn_json_html_write(&sink, p, n) < 0 ? -1 : 0;
}

/* put_safe_json as a pgn_write_fn: JSON from the library (strings, diagnostics) into a buffer */
static ptrdiff_t put_safe_cb(void *ctx, const void *p, size_t n) {
    return put_safe_json(ctx, p, n) < 0 ? -1 : (ptrdiff_t)n;
}

/* the library's one JSON string writer (pgn_json_write_string), and <, >, & escaped */
int serve_json_string(cli_membuf *b, const char *s, size_t n) {
    return pgn_json_write_string(put_safe_cb, b, s, n == (size_t)-1 ? strlen(s) : n) == PGN_OK ? 0
                                                                                               : -1;
}

void serve_reader_opts(pgn_reader_opts *ro, int fix) {
    memset(ro, 0, sizeof *ro);
#ifdef PGN_READ_FIX
    ro->flags |= fix ? PGN_READ_FIX : 0u;
#else
    (void)fix;
#endif
}

static void on_diag(void *ctx, const pgn_diag *d) {
    serve_reading *rd = ctx;
    *(d->severity == PGN_SEV_ERROR ? &rd->errors : &rd->warnings) += 1;
    if (rd->ndiags >= MAX_DIAGS) {
        return;
    }
    /* the one JSON form of a diagnostic (pgn_diag_json, docs/diagnostics.schema.json) */
    rd->nomem |= (rd->ndiags && serve_put(&rd->diags, ",", 1) < 0) ||
                 pgn_diag_json(d, NULL, put_safe_cb, &rd->diags) != PGN_OK;
    rd->ndiags++;
}

/* The <svg> element of an SVG document (its XML declaration dropped: it goes into HTML). */
static const char *svg_element(const cli_membuf *b, size_t *len) {
    const char *svg = b->p;
    for (size_t i = 0; i + 4 <= b->len; i++) {
        if (memcmp(b->p + i, "<svg", 4) == 0) {
            svg = b->p + i;
            break;
        }
    }
    *len = b->len - (size_t)(svg - b->p);
    return svg;
}

static void stats_side(cli_membuf *b, const pgn_game_stats *s, int c, int *bad) {
    char acpl[32] = "null", acc[32] = "null";
    if (s->acpl[c] >= 0) {
        snprintf(acpl, sizeof acpl, "%.1f", s->acpl[c]);
    }
    if (s->accuracy[c] >= 0) {
        snprintf(acc, sizeof acc, "%.1f", s->accuracy[c]);
    }
    *bad |= serve_printf(b,
                         "{\"moves\":%u,\"acpl\":%s,\"accuracy\":%s,\"inaccuracies\":%u,"
                         "\"mistakes\":%u,\"blunders\":%u}",
                         s->moves[c], acpl, acc, s->inaccuracies[c], s->mistakes[c],
                         s->blunders[c]) < 0;
}

/* One game for the viewer: {"game": JSON (docs/json-format.md), "graph": SVG, "stats": ...}.
 * Returns 0 or -1 (out of memory). */
int serve_game_entry(cli_membuf *out, cli_membuf *tmp, pgn_json_writer *jw, const pgn_game *g,
                     const pgn_game_stats *stats, int analysed) {
    tmp->len = 0;
    if (pgn_json_writer_write(jw, g) != PGN_OK) {
        return -1;
    }
    while (tmp->len && tmp->p[tmp->len - 1] == '\n') {
        tmp->len--;
    }
    int bad = serve_printf(out, "{\"game\":") < 0 || put_safe_json(out, tmp->p, tmp->len) < 0;
    tmp->len = 0;
    if (!bad && pgn_game_has_evals(g)) { /* no graph for a game without evaluations */
        pgn_graph_opts go = {720, 180};
        if (pgn_graph_svg(g, &go, cli_membuf_write, tmp) != PGN_OK) {
            return -1;
        }
        size_t n;
        const char *svg = svg_element(tmp, &n);
        bad |= serve_printf(out, ",\"graph\":") < 0 || serve_json_string(out, svg, n) < 0;
    }
    if (stats) {
        bad |= serve_printf(
                   out, ",\"analysed\":%s,\"stats\":{\"white\":", analysed ? "true" : "false") < 0;
        stats_side(out, stats, PGN_WHITE, &bad);
        bad |= serve_printf(out, ",\"black\":") < 0;
        stats_side(out, stats, PGN_BLACK, &bad);
        bad |= serve_printf(out, "}") < 0;
    }
    return bad || serve_printf(out, "}") < 0 ? -1 : 0;
}

/* Counts game g in pa: 1 (with pa->error) when it is over --max-games or --max-plies. */
static int over_caps(const serve_limits *lim, const pgn_game *g, serve_paste *pa) {
    if (++pa->games > lim->max_games) {
        snprintf(pa->error, sizeof pa->error, "more than %u games (--max-games)", lim->max_games);
        return 1;
    }
    size_t plies = pgn_game_ply_count(g);
    if (plies > lim->max_plies) {
        snprintf(pa->error, sizeof pa->error, "game %u has %zu plies, more than %u (--max-plies)",
                 pa->games, plies, lim->max_plies);
        return 1;
    }
    pa->positions += plies + 1;
    return 0;
}

/* Reads every game of the paste (with the games' entries appended to entries unless NULL).
 * Returns the HTTP status: 200, 422 (errors, no game, a cap), 500 (out of memory). */
int serve_read_paste(const serve_limits *lim, const char *text, size_t len, serve_reading *rd,
                     serve_paste *pa, cli_membuf *entries) {
    pgn_reader_opts ro;
    memset(&ro, 0, sizeof ro);
    ro.on_diag = on_diag;
    ro.diag_ctx = rd;
    ro.source_name = "serve_paste";
#ifdef PGN_READ_FIX
    ro.flags |= pa->fix ? PGN_READ_FIX : 0u;
#endif
    pgn_reader *r = NULL;
    pgn_game *g = NULL;
    pgn_json_writer *jw = NULL;
    cli_membuf tmp = {0};
    pgn_json_writer_opts jo = {PGN_JSON_NDJSON, 0, NULL};
    int status = 200;
    if (pgn_reader_new_mem(&r, &ro, text, len) != PGN_OK || pgn_game_new(&g, NULL) != PGN_OK ||
        pgn_json_writer_new(&jw, &jo, cli_membuf_write, &tmp) != PGN_OK) {
        status = 500;
    }
    while (status == 200) {
        pgn_status st = pgn_reader_next(r, g);
        if (st == PGN_END) {
            break;
        }
        if (st != PGN_OK) {
            status = st == PGN_E_NOMEM ? 500 : 422;
            break;
        }
        if (pgn_reader_summary(r)->broken) {
            pa->broken++;
            continue;
        }
        if (over_caps(lim, g, pa)) {
            status = 422;
            break;
        }
        if (entries && ((entries->len && serve_put(entries, ",", 1) < 0) ||
                        serve_game_entry(entries, &tmp, jw, g, NULL, 0) < 0)) {
            status = 500;
        }
    }
    if (status == 200 && pa->games == 0) {
        status = 422;
    }
    if (rd->nomem) {
        status = 500;
    }
    if (status == 422 && !pa->error[0]) {
        snprintf(pa->error, sizeof pa->error, "%s",
                 pa->broken ? "no game reads whole: see the errors" : "no game in the text");
    }
    pgn_json_writer_free(jw);
    pgn_game_free(g);
    pgn_reader_free(r);
    free(tmp.p);
    return status;
}

/* The members every answer about a paste has: error, counts, diagnostics. */
int serve_paste_json(cli_membuf *b, const serve_reading *rd, const serve_paste *pa) {
    if (pa->error[0] &&
        (serve_printf(b, "\"error\":") < 0 || serve_json_string(b, pa->error, (size_t)-1) < 0 ||
         serve_printf(b, ",") < 0)) {
        return -1;
    }
    return serve_printf(b,
                        "\"games\":%u,\"broken\":%u,\"positions\":%llu,\"errors\":%u,"
                        "\"warnings\":%u,\"diagnostics\":[",
                        pa->games, pa->broken, (unsigned long long)pa->positions, rd->errors,
                        rd->warnings) < 0 ||
                   serve_put(b, rd->diags.p, rd->diags.len) < 0 || serve_printf(b, "]") < 0
               ? -1
               : 0;
}

int serve_nomem(cli_membuf *b) {
    b->len = 0;
    serve_printf(b, "{\"error\":\"out of memory\"}");
    return 500;
}

int serve_error_json(cli_membuf *b, int status, const char *msg) {
    b->len = 0;
    if (serve_printf(b, "{\"error\":") < 0 || serve_json_string(b, msg, (size_t)-1) < 0 ||
        serve_printf(b, "}") < 0) {
        return serve_nomem(b);
    }
    return status;
}
