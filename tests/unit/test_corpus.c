/* SPDX-License-Identifier: MIT */
/* Corpus tests of the reader and the export writer on real third-party files (corpus/big and
 * corpus/edge, see corpus/README.md):
 *  1. every file reads to its end without a resource error; big/ has one game per "[Event " line
 *     and no error;
 *  2. TWIC 1427/1428 through pgn_reader_next: main-line UCI and final FEN equal pgn-extract's;
 *  3. fmt is lossless (same tags, start, moves, NAGs, comments, variations, result after a
 *     re-read) and idempotent (fmt(fmt(x)) == fmt(x)), and the export re-reads without warnings;
 *  4. with PGN_READ_KEEP_RAW the raw pieces are the input's bytes, back to back up to the end;
 *     two files concatenated have the games of both;
 *  5. reads in 64 KiB, 1-byte and 1..20-byte pieces show exactly what the read from memory shows
 *     (diagnostics, summaries, exports), also for the input without its final newline;
 *  6. reading [0, split) and [split, EOF) as byte ranges gives every game exactly once;
 *  7. nothing lost through the CLI: `pgnkit fmt --rejects R -o O` (PGNKIT_BIN) on the same bytes
 *     writes exactly the library's export to O and exactly the raw bytes of the broken games (4
 *     checks them against the input) to R, and its summary line says games = written + rejected.
 * PGNKIT_SLOW=1 covers all of big/, else a slice. Mismatches are counted per check and file and
 * the first few printed with a diff hint; a missing corpus file is a failure, never a skip. */
#define _POSIX_C_SOURCE 200809L

#include "harness.h"
#include "testutil.h"

#include <pgnkit/chess.h>
#include <pgnkit/game.h>
#include <pgnkit/reader.h>
#include <pgnkit/writer.h>

#include <dirent.h>
#include <stdarg.h>
#include <stdlib.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define SHOW_MAX 5 /* mismatches printed per check and file */

static int slow;

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Number of lines starting with "[Event " (corpus README, games column). */
static uint64_t event_lines(const char *p, size_t len) {
    uint64_t n = 0;
    for (size_t i = 0; i + 7 <= len; i++) {
        if ((i == 0 || p[i - 1] == '\n') && memcmp(p + i, "[Event ", 7) == 0) {
            n++;
        }
    }
    return n;
}

/* ---- mismatch tallies ---- */

typedef struct tally {
    const char *check, *file;
    unsigned long n;
} tally;

static void miss(tally *t, uint64_t game, const char *fmt, ...) {
    if (t->n++ < SHOW_MAX) {
        va_list ap;
        printf("  %s: %s: game %" PRIu64 ": ", t->check, t->file, game);
        va_start(ap, fmt);
        vprintf(fmt, ap);
        va_end(ap);
        putchar('\n');
    }
}

static void tally_done(const tally *t, int line) {
    if (t->n) {
        harness_fail(__FILE__, line, "%s: %s: %lu mismatches", t->check, t->file, t->n);
    } else {
        harness_counts.passed++;
    }
}

/* Writes up to n bytes of s into out as one printable line (\n, \r, \t escaped). */
static const char *excerpt(const char *s, size_t n, char *out, size_t cap) {
    size_t o = 0;
    for (size_t i = 0; i < n && o + 5 < cap; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '\n' || c == '\r' || c == '\t') {
            out[o++] = '\\';
            out[o++] = c == '\n' ? 'n' : c == '\r' ? 'r' : 't';
        } else if (c < 32 || c == 127) {
            o += (size_t)snprintf(out + o, cap - o, "\\x%02x", c);
        } else {
            out[o++] = (char)c;
        }
    }
    out[o] = 0;
    return out;
}

/* Compares two texts; on a difference tells where (byte offset and line) with both excerpts. */
static int text_diff(tally *t, uint64_t game, const char *what, const char *a, size_t alen,
                     const char *b, size_t blen) {
    size_t i = 0, line = 1, ls = 0;
    if (alen == blen && memcmp(a, b, alen) == 0) {
        return 0;
    }
    while (i < alen && i < blen && a[i] == b[i]) {
        if (a[i++] == '\n') {
            line++;
            ls = i;
        }
    }
    char x[200], y[200];
    size_t from = i - ls > 40 ? i - 40 : ls;
    miss(t, game, "%s differ at byte %zu (line %zu): \"%s\" vs \"%s\"", what, i, line,
         excerpt(a + from, (alen - from) < 80 ? alen - from : 80, x, sizeof x),
         excerpt(b + from, (blen - from) < 80 ? blen - from : 80, y, sizeof y));
    return 1;
}

/* ---- reading ---- */

/* A read callback over memory: everything at once, 1 byte, or 1..20 bytes per call. */
enum { FEED_MEM, FEED_WHOLE, FEED_ONE, FEED_RANDOM };

typedef struct feed {
    const char *data;
    size_t len, pos;
    int mode;
    uint32_t rng;
} feed;

static ptrdiff_t feed_read(void *ctx, void *out, size_t cap) {
    feed *f = ctx;
    size_t n = f->len - f->pos;
    if (f->mode == FEED_ONE) {
        n = n < 1 ? n : 1;
    } else if (f->mode == FEED_RANDOM) {
        f->rng = f->rng * 1103515245u + 12345u;
        size_t k = 1 + (f->rng >> 16) % 20;
        n = n < k ? n : k;
    }
    n = n < cap ? n : cap;
    memcpy(out, f->data + f->pos, n);
    f->pos += n;
    return (ptrdiff_t)n;
}

typedef struct diag_log {
    buf text; /* one line per diagnostic */
    uint64_t errors, warnings;
    int skip_null_moves; /* W_NULL_MOVE only counted in null_moves */
    uint64_t null_moves;
} diag_log;

static void log_diag(void *ctx, const pgn_diag *d) {
    diag_log *l = ctx;
    /* the re-read export keeps a null move and a result the board contradicts by design */
    if (l->skip_null_moves && (d->code == PGN_W_NULL_MOVE || d->code == PGN_W_RESULT_CONTRADICTS)) {
        l->null_moves++;
        return;
    }
    if (d->severity == PGN_SEV_ERROR) {
        l->errors++;
    } else {
        l->warnings++;
    }
    buf_printf(&l->text, "diag %s %" PRIu32 ":%" PRIu32 " @%" PRIu64 " game %" PRIu64 " '%s'\n",
               pgn_status_name(d->code), d->at.line, d->at.column, d->at.offset, d->game, d->token);
}

static pgn_reader *open_reader(const char *data, size_t len, uint32_t flags, feed *f, int mode,
                               diag_log *log) {
    pgn_reader_opts o;
    pgn_reader *r = NULL;
    memset(&o, 0, sizeof o);
    o.flags = flags;
    if (log) {
        o.on_diag = log_diag;
        o.diag_ctx = log;
    }
    pgn_status st;
    if (mode == FEED_MEM) {
        st = pgn_reader_new_mem(&r, &o, data, len);
    } else {
        memset(f, 0, sizeof *f);
        f->data = data;
        f->len = len;
        f->mode = mode;
        f->rng = 12345u;
        st = pgn_reader_new(&r, &o, feed_read, f);
    }
    if (st != PGN_OK) {
        printf("FAIL cannot create a reader: %s\n", pgn_status_name(st));
        exit(1);
    }
    return r;
}

static pgn_game *new_game(void) {
    pgn_game *g = NULL;
    if (pgn_game_new(&g, NULL) != PGN_OK) {
        printf("FAIL out of memory\n");
        exit(1);
    }
    return g;
}

static pgn_writer *new_writer(buf *out) {
    pgn_writer *w = NULL;
    if (pgn_writer_new(&w, NULL, buf_write, out) != PGN_OK) {
        printf("FAIL out of memory\n");
        exit(1);
    }
    return w;
}

/* The games of a text (syntax only), and whether the last one is "open": read without errors but
 * with no termination marker (a tag-only game, as in lichess exports), so that a tag section
 * following it may be read as more of its tags. */
typedef struct game_count {
    uint64_t games, missing_result_game;
    int last_open;
} game_count;

static void note_missing_result(void *ctx, const pgn_diag *d) {
    if (d->code == PGN_W_MISSING_RESULT) {
        ((game_count *)ctx)->missing_result_game = d->game;
    }
}

static game_count count_games(const char *data, size_t len) {
    game_count gc = {0, 0, 0};
    pgn_reader_opts o;
    pgn_reader *r = NULL;
    memset(&o, 0, sizeof o);
    o.flags = PGN_READ_NO_BOARD;
    o.on_diag = note_missing_result;
    o.diag_ctx = &gc;
    if (pgn_reader_new_mem(&r, &o, data, len) != PGN_OK) {
        printf("FAIL out of memory\n");
        exit(1);
    }
    pgn_status st;
    while ((st = pgn_reader_visit(r, NULL, NULL)) == PGN_OK) {
        gc.games++;
        gc.last_open = gc.missing_result_game == gc.games && !pgn_reader_summary(r)->errors;
    }
    CHECK_EQ_INT(st, PGN_END);
    pgn_reader_free(r);
    return gc;
}

/* ---- comparing game trees ---- */

/* A comment as the writer keeps it (digest §4.2): white-space runs as one space, no space at
 * either end, "}" dropped, "{" written as "[". Two parts (pre-comment and comment) are joined. */
static void norm_comment(buf *out, pgn_str a, pgn_str b) {
    pgn_str part[2] = {a, b};
    int space = 0;
    out->len = 0;
    buf_put(out, "", 0);
    for (int k = 0; k < 2; k++) {
        for (size_t i = 0; i < part[k].len; i++) {
            char c = part[k].ptr[i];
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f') {
                space = out->len > 0;
            } else if (c != '}') {
                if (space) {
                    buf_put(out, " ", 1);
                    space = 0;
                }
                buf_put(out, c == '{' ? "[" : &c, 1);
            }
        }
        space = out->len > 0;
    }
}

typedef struct node_pair {
    const pgn_node *a, *b;
} node_pair;

typedef struct tree_cmp {
    buf na, nb;
    node_pair *stack;
    size_t depth, cap;
    char why[2 * PGN_FEN_MAX + 128];
} tree_cmp;

static const pgn_str no_str = {"", 0};

static int node_diff(tree_cmp *c, const pgn_node *a, const pgn_node *b, int is_root) {
    pgn_loc at = pgn_node_loc(a);
    if (pgn_node_move(a) != pgn_node_move(b)) {
        snprintf(c->why, sizeof c->why, "move %04x vs %04x (input line %" PRIu32 ")",
                 (unsigned)pgn_node_move(a), (unsigned)pgn_node_move(b), at.line);
        return 1;
    }
    size_t n = pgn_node_nag_count(a);
    int nags_differ = n != pgn_node_nag_count(b);
    for (size_t i = 0; i < n && !nags_differ; i++) {
        nags_differ = pgn_node_nag(a, i) != pgn_node_nag(b, i);
    }
    if (nags_differ) {
        snprintf(c->why, sizeof c->why, "NAGs (%zu vs %zu) at input line %" PRIu32, n,
                 pgn_node_nag_count(b), at.line);
        return 1;
    }
    /* the root's two comments are written together, before the first move */
    for (int k = is_root ? 2 : 0; k < 3; k++) {
        pgn_str pa = k != 1 ? pgn_node_pre_comment(a) : no_str;
        pgn_str pb = k != 1 ? pgn_node_pre_comment(b) : no_str;
        pgn_str ca = k != 0 ? pgn_node_comment(a) : no_str;
        pgn_str cb = k != 0 ? pgn_node_comment(b) : no_str;
        norm_comment(&c->na, pa, ca);
        norm_comment(&c->nb, pb, cb);
        if (c->na.len != c->nb.len || memcmp(c->na.p, c->nb.p, c->na.len) != 0) {
            char x[120], y[120];
            snprintf(c->why, sizeof c->why, "%s at input line %" PRIu32 ": \"%s\" vs \"%s\"",
                     k == 0   ? "pre-comment"
                     : k == 1 ? "comment"
                              : "game comment",
                     at.line, excerpt(c->na.p, c->na.len < 50 ? c->na.len : 50, x, sizeof x),
                     excerpt(c->nb.p, c->nb.len < 50 ? c->nb.len : 50, y, sizeof y));
            return 1;
        }
        if (k == 1) {
            break;
        }
    }
    if (!pgn_node_child(a) != !pgn_node_child(b) || !pgn_node_sibling(a) != !pgn_node_sibling(b)) {
        snprintf(c->why, sizeof c->why, "%s at input line %" PRIu32,
                 !pgn_node_child(a) != !pgn_node_child(b) ? "continuation" : "variation", at.line);
        return 1;
    }
    return 0;
}

static void push_pair(tree_cmp *c, const pgn_node *a, const pgn_node *b) {
    if (c->depth == c->cap) {
        c->cap = c->cap ? c->cap * 2 : 256;
        c->stack = realloc(c->stack, c->cap * sizeof *c->stack);
        if (!c->stack) {
            printf("FAIL out of memory\n");
            exit(1);
        }
    }
    c->stack[c->depth].a = a;
    c->stack[c->depth++].b = b;
}

static int str_is(pgn_str s, const char *lit) {
    return s.len == strlen(lit) && memcmp(s.ptr, lit, s.len) == 0;
}

static int is_str_tag(const char *name) {
    static const char *const str[] = {"Event", "Site", "Date", "Round", "White", "Black", "Result"};
    for (size_t i = 0; i < sizeof str / sizeof str[0]; i++) {
        if (strcmp(name, str[i]) == 0) {
            return 1;
        }
    }
    return 0;
}

/* Every tag of a (but FEN, SetUp, Result) is in b with the same value; b has no other tag but
 * the roster's defaults. */
static int tags_diff(tree_cmp *c, const pgn_game *a, const pgn_game *b) {
    for (int dir = 0; dir < 2; dir++) {
        const pgn_game *x = dir ? b : a, *y = dir ? a : b;
        for (size_t i = 0; i < pgn_game_tag_count(x); i++) {
            pgn_str name = pgn_game_tag_name(x, i), v = pgn_game_tag_value(x, i), w;
            char nm[64];
            snprintf(nm, sizeof nm, "%.*s", (int)(name.len < 63 ? name.len : 63), name.ptr);
            if (!strcmp(nm, "FEN") || !strcmp(nm, "SetUp") || !strcmp(nm, "Result")) {
                continue;
            }
            int have = pgn_game_tag_get(y, nm, &w);
            if (dir == 1 && !have && is_str_tag(nm) &&
                (str_is(v, "?") || str_is(v, "????.??.??"))) {
                continue;
            }
            if (!have || w.len != v.len || memcmp(w.ptr, v.ptr, v.len) != 0) {
                char e[120];
                snprintf(c->why, sizeof c->why, "tag %s \"%s\" %s", nm,
                         excerpt(v.ptr, v.len < 50 ? v.len : 50, e, sizeof e),
                         !have ? (dir ? "added" : "lost") : "changed");
                return 1;
            }
        }
    }
    return 0;
}

static const char *marker_of(const pgn_game *g) {
    pgn_result r = pgn_game_result(g);
    pgn_str tag;
    if (r == PGN_RESULT_NONE && pgn_game_tag_get(g, "Result", &tag)) {
        r = pgn_result_parse(tag.ptr, tag.len);
    }
    return pgn_result_str(r);
}

/* 0 if b (re-read from the export of a) has a's tags, start, result and move tree; else 1 with
 * c->why set. */
static int game_diff(tree_cmp *c, const pgn_game *a, const pgn_game *b) {
    char fa[PGN_FEN_MAX], fb[PGN_FEN_MAX];
    pgn_fen_write(pgn_game_start(a), 0, fa, sizeof fa);
    pgn_fen_write(pgn_game_start(b), 0, fb, sizeof fb);
    if (strcmp(fa, fb) != 0 || pgn_game_start(a)->chess960 != pgn_game_start(b)->chess960) {
        snprintf(c->why, sizeof c->why, "start %s vs %s", fa, fb);
        return 1;
    }
    if (strcmp(marker_of(a), pgn_result_str(pgn_game_result(b))) != 0) {
        snprintf(c->why, sizeof c->why, "result %s vs %s", marker_of(a),
                 pgn_result_str(pgn_game_result(b)));
        return 1;
    }
    if (tags_diff(c, a, b)) {
        return 1;
    }
    c->depth = 0;
    push_pair(c, pgn_game_root(a), pgn_game_root(b));
    while (c->depth > 0) {
        node_pair p = c->stack[--c->depth];
        if (node_diff(c, p.a, p.b, p.a == pgn_game_root(a))) {
            return 1;
        }
        if (pgn_node_sibling(p.a)) {
            push_pair(c, pgn_node_sibling(p.a), pgn_node_sibling(p.b));
        }
        if (pgn_node_child(p.a)) {
            push_pair(c, pgn_node_child(p.a), pgn_node_child(p.b));
        }
    }
    return 0;
}

/* ---- checks 1, 3 and 4: read, keep raw bytes, export, re-read ---- */

typedef struct file_result {
    uint64_t games, errors, warnings, written, rejected;
    buf out;    /* the export of every game that is not broken (text A) */
    buf seg;    /* size_t offsets in out after each exported game */
    buf broken; /* one byte per game read */
    buf rej;    /* the raw bytes of every broken game, back to back */
    buf fmt;    /* what pgnkit fmt writes: out with the text before and between the games kept in
                   its place (issue 34 point 5) */
} file_result;

static void file_result_free(file_result *fr) {
    free(fr->out.p);
    free(fr->seg.p);
    free(fr->broken.p);
    free(fr->rej.p);
    free(fr->fmt.p);
    memset(fr, 0, sizeof *fr);
}

/* Checks the raw piece of the game just read: the input's bytes at its start offset, and right
 * after the previous piece. */
static void check_raw(tally *t, pgn_reader *r, const char *data, size_t len, uint64_t *next) {
    const pgn_game_summary *s = pgn_reader_summary(r);
    pgn_str raw = pgn_reader_raw(r);
    uint64_t at = s->start.offset;
    if (raw.len == 0 || at > len || raw.len > len - at ||
        memcmp(data + at, raw.ptr, raw.len) != 0) {
        miss(t, s->game, "raw bytes (%zu) are not the input's at offset %" PRIu64, raw.len, at);
    }
    if (*next != UINT64_MAX && at != *next) {
        miss(t, s->game, "starts at %" PRIu64 " but the previous raw piece ended at %" PRIu64, at,
             *next);
    }
    if (s->end_offset != at + raw.len) {
        miss(t, s->game, "end_offset %" PRIu64 " != start %" PRIu64 " + raw %zu", s->end_offset, at,
             raw.len);
    }
    *next = at + raw.len;
}

/* Nonzero if t holds more than white space (the text pgnkit fmt keeps between games). */
static int has_text(pgn_str t) {
    for (size_t i = 0; i < t.len; i++) {
        if (t.ptr[i] != ' ' && t.ptr[i] != '\t' && t.ptr[i] != '\n' && t.ptr[i] != '\r') {
            return 1;
        }
    }
    return 0;
}

/* fmt's output for a game exported at out[from..]: the export, and the text between the game and
 * the next one verbatim in its place (the export's closing line breaks give way to it). */
static void fmt_put(file_result *fr, size_t from, pgn_str between) {
    size_t tl = fr->out.len - from;
    if (has_text(between)) {
        while (tl > 0 && fr->out.p[from + tl - 1] == '\n') {
            tl--;
        }
    }
    buf_put(&fr->fmt, fr->out.p + from, tl);
    if (has_text(between)) {
        buf_put(&fr->fmt, between.ptr, between.len);
    }
}

/* Pass 1: reads with PGN_READ_KEEP_RAW, checks the raw pieces, exports the good games. */
static void read_pass(const char *name, const char *data, size_t len, file_result *fr) {
    diag_log log;
    memset(&log, 0, sizeof log);
    pgn_reader *r =
        open_reader(data, len, PGN_READ_KEEP_RAW | PGN_READ_KEEP_LEAD, NULL, FEED_MEM, &log);
    pgn_writer *w = new_writer(&fr->out);
    pgn_game *g = new_game();
    tally t = {"raw", name, 0};
    uint64_t next = UINT64_MAX;
    pgn_status st;
    buf_put(&fr->out, "", 0);
    while ((st = pgn_reader_next(r, g)) == PGN_OK) {
        const pgn_game_summary *s = pgn_reader_summary(r);
        char b = (char)(s->broken != 0);
        fr->games++;
        check_raw(&t, r, data, len, &next);
        buf_put(&fr->broken, &b, 1);
        pgn_str lead;
        pgn_str between = pgn_reader_raw_between(r, &lead);
        if (has_text(lead)) {
            buf_put(&fr->fmt, lead.ptr, lead.len);
        }
        if (s->broken) {
            pgn_str raw = pgn_reader_raw(r);
            buf_put(&fr->rej, raw.ptr, raw.len);
            fr->rejected++;
            continue;
        }
        size_t from = fr->out.len;
        pgn_status ws = pgn_writer_write(w, g);
        if (ws != PGN_OK) {
            miss(&t, s->game, "pgn_writer_write: %s", pgn_status_name(ws));
        }
        fmt_put(fr, from, between);
        fr->written++;
        buf_put(&fr->seg, &fr->out.len, sizeof fr->out.len);
    }
    if (st != PGN_END) {
        harness_fail(__FILE__, __LINE__, "%s: reading stopped after game %" PRIu64 ": %s", name,
                     fr->games, pgn_status_name(st));
    }
    if (fr->games > 0 && next != len) {
        miss(&t, fr->games, "the raw pieces end at %" PRIu64 ", the input at %zu", next, len);
    }
    CHECK_EQ_U64(fr->games, fr->written + fr->rejected);
    pgn_reader_totals(r, NULL, &fr->errors, &fr->warnings);
    CHECK_EQ_U64(fr->errors, log.errors);
    tally_done(&t, __LINE__);
    pgn_game_free(g);
    pgn_writer_free(w);
    pgn_reader_free(r);
    free(log.text.p);
}

/* Pass 2: reads the input again (without KEEP_RAW) beside the export A: every good game re-read
 * from A has the same tree, and its export is its piece of A (fmt(fmt(x)) == fmt(x)). Reading A
 * gives no diagnostic but W_NULL_MOVE: a null move has no standard form, so the writer's "--"
 * keeps its warning. */
static void fmt_pass(const char *name, const char *data, size_t len, const file_result *fr) {
    diag_log log;
    memset(&log, 0, sizeof log);
    log.skip_null_moves = 1;
    pgn_reader *r1 = open_reader(data, len, 0, NULL, FEED_MEM, NULL);
    pgn_reader *r2 = open_reader(fr->out.p, fr->out.len, 0, NULL, FEED_MEM, &log);
    buf tmp = {0};
    pgn_writer *w = new_writer(&tmp);
    pgn_game *g1 = new_game(), *g2 = new_game();
    tree_cmp c;
    memset(&c, 0, sizeof c);
    tally tt = {"fmt-tree", name, 0}, ti = {"fmt-idempotent", name, 0};
    tally tr = {"fmt-reread", name, 0};
    const size_t *seg = (const size_t *)(const void *)fr->seg.p;
    uint64_t k = 0, j = 0;
    pgn_status st, st2;
    while ((st = pgn_reader_next(r1, g1)) == PGN_OK) {
        int broken = pgn_reader_summary(r1)->broken != 0;
        if (k >= fr->games || broken != fr->broken.p[k]) {
            miss(&tr, k + 1, "broken or not differs with and without KEEP_RAW");
        }
        k++;
        if (broken) {
            continue;
        }
        if (j >= fr->written || (st2 = pgn_reader_next(r2, g2)) != PGN_OK) {
            miss(&tr, k, "the export has no game %" PRIu64, j + 1);
            break;
        }
        if (game_diff(&c, g1, g2)) {
            miss(&tt, k, "%s", c.why);
        }
        tmp.len = 0;
        if (pgn_writer_write(w, g2) != PGN_OK) {
            miss(&ti, k, "pgn_writer_write failed");
        }
        size_t from = j ? seg[j - 1] : 0;
        text_diff(&ti, k, "fmt(fmt(x)) and fmt(x)", fr->out.p + from, seg[j] - from, tmp.p,
                  tmp.len);
        j++;
    }
    CHECK_EQ_INT(st, PGN_END);
    CHECK_EQ_U64(k, fr->games);
    if ((st2 = pgn_reader_next(r2, g2)) != PGN_END) {
        miss(&tr, k, "the export has more games than were written (%s)", pgn_status_name(st2));
    }
    if (log.errors || log.warnings) {
        char e[400];
        miss(&tr, 0, "re-reading the export: %" PRIu64 " errors, %" PRIu64 " warnings, first: %s",
             log.errors, log.warnings, excerpt(log.text.p, strcspn(log.text.p, "\n"), e, sizeof e));
    }
    tally_done(&tt, __LINE__);
    tally_done(&ti, __LINE__);
    tally_done(&tr, __LINE__);
    pgn_game_free(g1);
    pgn_game_free(g2);
    pgn_writer_free(w);
    pgn_reader_free(r1);
    pgn_reader_free(r2);
    free(tmp.p);
    free(c.na.p);
    free(c.nb.p);
    free(c.stack);
    free(log.text.p);
}

/* ---- check 7: nothing lost through the CLI ---- */

static void cli_pass(const char *name, const char *data, size_t len, const file_result *fr) {
    const char *bin = getenv("PGNKIT_BIN");
    char dir[] = "/tmp/pgnkit-corpus-XXXXXX", cmd[4096], in[300], out[300], rej[300], err[300];
    if (!bin || !*bin) {
        bin = "build/pgnkit";
    }
    if (!mkdtemp(dir)) {
        harness_fail(__FILE__, __LINE__, "mkdtemp failed");
        return;
    }
    snprintf(in, sizeof in, "%s/in.pgn", dir);
    snprintf(out, sizeof out, "%s/out.pgn", dir);
    snprintf(rej, sizeof rej, "%s/rej.pgn", dir);
    snprintf(err, sizeof err, "%s/err.txt", dir);
    FILE *f = fopen(in, "wb");
    if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0) {
        harness_fail(__FILE__, __LINE__, "cannot write %s", in);
        return;
    }
    snprintf(cmd, sizeof cmd, "'%s' fmt --rejects '%s' -o '%s' '%s' 2>'%s'", bin, rej, out, in,
             err);
    int st = system(cmd);
    buf o, r, e;
    int ok = buf_read_path(out, &o) & buf_read_path(rej, &r) & buf_read_path(err, &e);
    unsigned long long g = 0, w = 0, k = 0;
    const char *sum = NULL;
    for (const char *p = e.p; ok && p && (p = strstr(p, " games, ")) != NULL; p++) {
        sum = p;
    }
    while (sum && sum > e.p && sum[-1] != '\n') {
        sum--;
    }
    if (!ok || !sum || sscanf(sum, "%llu games, %llu written, %llu rejected", &g, &w, &k) != 3) {
        harness_fail(__FILE__, __LINE__, "%s: pgnkit fmt (status %d) left no summary line", name,
                     st);
    } else if (g != fr->games || w != fr->written || k != fr->rejected || g != w + k) {
        harness_fail(
            __FILE__, __LINE__,
            "%s: pgnkit fmt says %llu games, %llu written, %llu rejected; the library read %" PRIu64
            " = %" PRIu64 " + %" PRIu64,
            name, g, w, k, fr->games, fr->written, fr->rejected);
    } else if (o.len != fr->fmt.len || (o.len && memcmp(o.p, fr->fmt.p, o.len) != 0)) {
        harness_fail(__FILE__, __LINE__,
                     "%s: pgnkit fmt -o is not the library's export with the text between games",
                     name);
    } else if (r.len != fr->rej.len || (r.len && memcmp(r.p, fr->rej.p, r.len) != 0)) {
        harness_fail(__FILE__, __LINE__,
                     "%s: --rejects (%zu bytes) is not the broken games' bytes (%zu)", name, r.len,
                     fr->rej.len);
    } else {
        harness_counts.passed++;
    }
    free(o.p);
    free(r.p);
    free(e.p);
    remove(in);
    remove(out);
    remove(rej);
    remove(err);
    rmdir(dir);
}

/* ---- check 5: chunk boundaries ---- */

/* Everything a read shows, as text: each diagnostic, each game's summary and export, whether its
 * raw bytes are the input's, and the final status. */
static void transcript(const char *data, size_t len, int mode, buf *out) {
    diag_log log;
    feed f;
    memset(&log, 0, sizeof log);
    pgn_reader *r = open_reader(data, len, PGN_READ_KEEP_RAW, &f, mode, &log);
    pgn_writer *w = new_writer(&log.text);
    pgn_game *g = new_game();
    pgn_status st;
    while ((st = pgn_reader_next(r, g)) == PGN_OK) {
        const pgn_game_summary *s = pgn_reader_summary(r);
        pgn_str raw = pgn_reader_raw(r);
        int raw_ok = s->start.offset <= len && raw.len <= len - s->start.offset &&
                     memcmp(raw.ptr, data + s->start.offset, raw.len) == 0;
        buf_printf(
            &log.text,
            "game %" PRIu64 " at %" PRIu32 ":%" PRIu32 " @%" PRIu64 "..%" PRIu64 " errors %" PRIu32
            " warnings %" PRIu32 " broken %d plies %" PRIu32 " raw %zu %s\n",
            s->game, s->start.line, s->start.column, s->start.offset, s->end_offset, s->errors,
            s->warnings, s->broken != 0, s->plies, raw.len, raw_ok ? "same" : "DIFFERENT");
        if (pgn_writer_write(w, g) != PGN_OK) {
            buf_printf(&log.text, "write failed\n");
        }
    }
    buf_printf(&log.text, "end %s\n", pgn_status_name(st));
    *out = log.text;
    pgn_game_free(g);
    pgn_writer_free(w);
    pgn_reader_free(r);
}

/* The reads through the callback show what the read from memory shows. */
static void compare_feeds(tally *t, const char *what, const char *data, size_t len) {
    static const int modes[] = {FEED_WHOLE, FEED_ONE, FEED_RANDOM};
    static const char *const mode_names[] = {"", "64 KiB reads", "1-byte reads",
                                             "1..20-byte reads"};
    buf ref;
    char label[128];
    transcript(data, len, FEED_MEM, &ref);
    if (strstr(ref.p, "DIFFERENT")) {
        miss(t, 0, "%s: raw bytes differ from the input in memory", what);
    }
    for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
        buf got;
        transcript(data, len, modes[m], &got);
        snprintf(label, sizeof label, "%s%s", mode_names[modes[m]], what);
        text_diff(t, 0, label, ref.p, ref.len, got.p, got.len);
        free(got.p);
    }
    free(ref.p);
}

/* Whole, and once more without the white space at its end (a last token that ends the input). */
static void check_chunks(const char *name, const char *data, size_t len) {
    tally t = {"chunks", name, 0};
    size_t trimmed = len;
    while (trimmed > 0 && (data[trimmed - 1] == ' ' || data[trimmed - 1] == '\t' ||
                           data[trimmed - 1] == '\r' || data[trimmed - 1] == '\n')) {
        trimmed--;
    }
    compare_feeds(&t, "", data, len);
    if (trimmed < len) {
        compare_feeds(&t, " (no newline at the end)", data, trimmed);
    }
    tally_done(&t, __LINE__);
}

/* ---- check 5b: skipped movetext ----
 * A visitor that answers SKIP at end_tags makes the reader skip the movetext on its fast path
 * (pgnk_lexer_skip_inert), which works only inside the window: a read from memory uses it over
 * whole games, a read in 1-byte pieces almost never. Both must show the same games, tags,
 * boundaries, raw bytes and diagnostics; and the game boundaries must be those of a full read. */

typedef struct skip_log {
    buf *out;
    pgn_reader *r;
    const char *data;
    size_t len;
    int skip;
} skip_log;

static pgn_flow skip_tag(void *user, pgn_str name, pgn_str value) {
    skip_log *l = user;
    if (l->skip) {
        buf_printf(l->out, "tag %.*s=%.*s\n", (int)name.len, name.ptr, (int)value.len, value.ptr);
    }
    return PGN_FLOW_CONTINUE;
}

static pgn_flow skip_end_tags(void *user, const pgn_pos *start) {
    (void)start;
    return ((skip_log *)user)->skip ? PGN_FLOW_SKIP : PGN_FLOW_CONTINUE;
}

static pgn_flow skip_end_game(void *user, pgn_result result, const pgn_game_summary *s) {
    skip_log *l = user;
    (void)result;
    buf_printf(l->out, "game %" PRIu64 " at %" PRIu32 ":%" PRIu32 " @%" PRIu64 "..%" PRIu64 "\n",
               s->game, s->start.line, s->start.column, s->start.offset, s->end_offset);
    if (l->skip) {
        buf_printf(l->out, "errors %" PRIu32 " warnings %" PRIu32 " broken %d\n", s->errors,
                   s->warnings, s->broken != 0);
    }
    return PGN_FLOW_CONTINUE;
}

/* skip: 1 SKIP at end_tags and log tags, counts and diagnostics; 0 read all, log boundaries only */
static void skip_transcript(const char *data, size_t len, int mode, uint32_t flags, int skip,
                            buf *out) {
    diag_log log;
    feed f;
    memset(&log, 0, sizeof log);
    pgn_reader *r = open_reader(data, len, flags | PGN_READ_KEEP_RAW, &f, mode, skip ? &log : NULL);
    pgn_visitor v;
    memset(&v, 0, sizeof v);
    v.tag = skip_tag;
    v.end_tags = skip_end_tags;
    v.end_game = skip_end_game;
    skip_log sl = {&log.text, r, data, len, skip};
    pgn_status st;
    while ((st = pgn_reader_visit(r, &v, &sl)) == PGN_OK) {
        const pgn_game_summary *s = pgn_reader_summary(r);
        pgn_str raw = pgn_reader_raw(r);
        int raw_ok = s->start.offset <= len && raw.len <= len - s->start.offset &&
                     memcmp(raw.ptr, data + s->start.offset, raw.len) == 0;
        buf_printf(&log.text, "raw %zu %s\n", raw.len, raw_ok ? "same" : "DIFFERENT");
    }
    buf_printf(&log.text, "end %s\n", pgn_status_name(st));
    *out = log.text;
    pgn_reader_free(r);
}

/* Only the lines that a full read and a skipping read both give: boundaries, raw bytes, end; and
 * with tags, the tags too (what a tags-only read gives as a skipping read does). */
static void keep_lines(buf *b, int tags) {
    size_t w = 0;
    for (size_t i = 0; i < b->len;) {
        const char *nl = memchr(b->p + i, '\n', b->len - i);
        size_t n = nl ? (size_t)(nl - (b->p + i)) + 1 : b->len - i;
        if (strncmp(b->p + i, "game ", 5) == 0 || strncmp(b->p + i, "raw ", 4) == 0 ||
            strncmp(b->p + i, "end ", 4) == 0 || (tags && strncmp(b->p + i, "tag ", 4) == 0)) {
            memmove(b->p + w, b->p + i, n);
            w += n;
        }
        i += n;
    }
    b->len = w;
    if (b->p) {
        b->p[w] = 0;
    }
}

/* PGN_READ_TAGS_ONLY (src/parse/tag_skip.c): the same games, tags, boundaries and raw bytes as
 * the skipping read without it, from memory (the search over whole games) and in 1-byte and
 * 1..20-byte pieces (the search at the window's end), the last also with PGN_READ_TAG_SPANS (the
 * tags given as spans of a window that moves). Its diagnostics may be fewer. */
static void check_tags_only(tally *t, const char *data, size_t len) {
    buf want, got;
    skip_transcript(data, len, FEED_MEM, PGN_READ_NO_BOARD, 1, &want);
    keep_lines(&want, 1);
    static const int modes[] = {FEED_MEM, FEED_ONE, FEED_RANDOM, FEED_RANDOM};
    static const uint32_t spans[] = {0, 0, 0, PGN_READ_TAG_SPANS}; /* tags not copied */
    static const char *const what[] = {"tags only vs skip", "tags only, 1-byte reads",
                                       "tags only, 1..20-byte reads",
                                       "tags only as spans, 1..20-byte reads"};
    for (size_t k = 0; k < sizeof modes / sizeof modes[0]; k++) {
        skip_transcript(data, len, modes[k], PGN_READ_NO_BOARD | PGN_READ_TAGS_ONLY | spans[k], 1,
                        &got);
        keep_lines(&got, 1);
        text_diff(t, 0, what[k], want.p, want.len, got.p, got.len);
        free(got.p);
    }
    free(want.p);
}

static void check_skip(const char *name, const char *data, size_t len) {
    tally t = {"skip", name, 0};
    static const uint32_t flag_sets[] = {PGN_READ_NO_BOARD, 0};
    for (size_t k = 0; k < sizeof flag_sets / sizeof flag_sets[0]; k++) {
        buf mem, one, rnd, full;
        skip_transcript(data, len, FEED_MEM, flag_sets[k], 1, &mem);
        skip_transcript(data, len, FEED_ONE, flag_sets[k], 1, &one);
        skip_transcript(data, len, FEED_RANDOM, flag_sets[k], 1, &rnd);
        if (strstr(mem.p, "DIFFERENT")) {
            miss(&t, 0, "raw bytes of a skipped game differ from the input");
        }
        text_diff(&t, 0, k ? "skip, 1-byte reads" : "skip no-board, 1-byte reads", one.p, one.len,
                  mem.p, mem.len);
        text_diff(&t, 0, k ? "skip, 1..20-byte reads" : "skip no-board, 1..20-byte reads", rnd.p,
                  rnd.len, mem.p, mem.len);
        skip_transcript(data, len, FEED_MEM, flag_sets[k], 0, &full);
        keep_lines(&mem, 0);
        text_diff(&t, 0, k ? "boundaries, skip vs full" : "boundaries no-board, skip vs full",
                  full.p, full.len, mem.p, mem.len);
        free(mem.p);
        free(one.p);
        free(rnd.p);
        free(full.p);
    }
    check_tags_only(&t, data, len);
    tally_done(&t, __LINE__);
}

/* ---- check 6: byte ranges ---- */

typedef struct game_list {
    buf out;   /* exports, back to back */
    buf index; /* per game: uint64_t start offset, size_t end in out */
    uint64_t n;
} game_list;

typedef struct game_rec {
    uint64_t start;
    size_t end;
} game_rec;

/* Reads data[from..len) as a byte range: range_start = from (the callback delivers the bytes from
 * there), range_end = end (0: none). */
static pgn_status read_range(const char *data, size_t len, uint64_t from, uint64_t end,
                             game_list *gl) {
    pgn_reader_opts o;
    pgn_reader *r = NULL;
    feed f = {data + from, (size_t)(len - from), 0, FEED_WHOLE, 1};
    memset(&o, 0, sizeof o);
    o.range_start = from;
    o.range_end = end;
    if (pgn_reader_new(&r, &o, feed_read, &f) != PGN_OK) {
        printf("FAIL out of memory\n");
        exit(1);
    }
    pgn_writer *w = new_writer(&gl->out);
    pgn_game *g = new_game();
    pgn_status st;
    buf_put(&gl->out, "", 0);
    while ((st = pgn_reader_next(r, g)) == PGN_OK) {
        game_rec rec = {pgn_reader_summary(r)->start.offset, 0};
        if (pgn_writer_write(w, g) != PGN_OK) {
            buf_printf(&gl->out, "write failed\n");
        }
        rec.end = gl->out.len;
        buf_put(&gl->index, &rec, sizeof rec);
        gl->n++;
    }
    pgn_game_free(g);
    pgn_writer_free(w);
    pgn_reader_free(r);
    return st;
}

static game_rec rec_at(const game_list *gl, uint64_t i) {
    game_rec rec;
    memcpy(&rec, gl->index.p + i * sizeof rec, sizeof rec);
    return rec;
}

static const char *rec_text(const game_list *gl, uint64_t i, size_t *n) {
    size_t from = i ? rec_at(gl, i - 1).end : 0;
    *n = rec_at(gl, i).end - from;
    return gl->out.p + from;
}

/* Reading [0, split) and [split, EOF) gives every game of the whole read exactly once. */
static void check_split(tally *t, const char *data, size_t len, const game_list *whole,
                        uint64_t split, const char *what) {
    game_list p[2];
    memset(p, 0, sizeof p);
    pgn_status s1 = read_range(data, len, 0, split, &p[0]);
    pgn_status s2 = read_range(data, len, split, 0, &p[1]);
    uint64_t before = 0;
    while (before < whole->n && rec_at(whole, before).start < split) {
        before++;
    }
    uint64_t bad = UINT64_MAX;
    for (uint64_t i = 0; i < whole->n && i < p[0].n + p[1].n && bad == UINT64_MAX; i++) {
        const game_list *q = i < p[0].n ? &p[0] : &p[1];
        uint64_t k = i < p[0].n ? i : i - p[0].n;
        size_t na, nb;
        const char *a = rec_text(whole, i, &na), *b = rec_text(q, k, &nb);
        if (na != nb || memcmp(a, b, na) != 0 || rec_at(whole, i).start != rec_at(q, k).start) {
            bad = i;
        }
    }
    if (s1 != PGN_END || s2 != PGN_END || p[0].n + p[1].n != whole->n || bad != UINT64_MAX) {
        char e[120] = "";
        if (bad != UINT64_MAX && bad >= p[0].n) {
            size_t n;
            const char *x = rec_text(&p[1], bad - p[0].n, &n);
            excerpt(x, n < 40 ? n : 40, e, sizeof e);
        }
        miss(t, bad == UINT64_MAX ? 0 : bad + 1,
             "split at %" PRIu64 " (%s): %" PRIu64 " + %" PRIu64 " games for %" PRIu64 " (%" PRIu64
             " start before the split), statuses %s/%s; first wrong game: \"%s\"",
             split, what, p[0].n, p[1].n, whole->n, before, pgn_status_name(s1),
             pgn_status_name(s2), e);
    }
    for (int i = 0; i < 2; i++) {
        free(p[i].out.p);
        free(p[i].index.p);
    }
}

/* Offset of the first byte after the line holding offset at. */
static uint64_t next_line(const char *data, size_t len, uint64_t at) {
    while (at < len && data[at] != '\n') {
        at++;
    }
    return at < len ? at + 1 : len;
}

static void check_ranges(const char *name, const char *data, size_t len, int games_to_split) {
    game_list whole;
    tally t = {"ranges", name, 0};
    memset(&whole, 0, sizeof whole);
    CHECK_EQ_INT(read_range(data, len, 0, 0, &whole), PGN_END);
    for (int k = 1; k <= games_to_split && whole.n > 2; k++) {
        uint64_t m = whole.n * (uint64_t)k / (uint64_t)(games_to_split + 1);
        uint64_t g = rec_at(&whole, m).start,
                 end = m + 1 < whole.n ? rec_at(&whole, m + 1).start : len;
        uint64_t tag2 = next_line(data, len, g); /* the '[' of the game's second tag line */
        uint64_t body = g;
        for (uint64_t i = g; i + 1 < end; i++) { /* the empty line after the tags */
            if (data[i] == '\n' && (data[i + 1] == '\n' || data[i + 1] == '\r')) {
                body = i + 1;
                break;
            }
        }
        CHECK(data[g] == '[' && (g == 0 || data[g - 1] == '\n'));
        check_split(&t, data, len, &whole, g, "a game's '['");
        check_split(&t, data, len, &whole, g - 1, "just before a game's '['");
        check_split(&t, data, len, &whole, g - 2, "two bytes before a game's '['");
        check_split(&t, data, len, &whole, g + 1, "just after a game's '['");
        check_split(&t, data, len, &whole, g + 3, "in the first tag");
        check_split(&t, data, len, &whole, tag2, "the '[' of the second tag line");
        check_split(&t, data, len, &whole, tag2 - 1, "just before the second tag line");
        check_split(&t, data, len, &whole, body, "the empty line after the tags");
        check_split(&t, data, len, &whole, (body + end) / 2, "the middle of the movetext");
    }
    tally_done(&t, __LINE__);
    free(whole.out.p);
    free(whole.index.p);
}

/* ---- check 2: the pgn-extract oracle for TWIC, through pgn_reader_next ---- */

/* The main line of g as UCI moves and its final FEN (en passant square after every double step,
 * as pgn-extract writes it). */
static void main_line(const pgn_game *g, buf *uci, char fen[PGN_FEN_MAX]) {
    pgn_pos pos = *pgn_game_start(g);
    uci->len = 0;
    buf_put(uci, "", 0);
    for (const pgn_node *n = pgn_node_child(pgn_game_root(g)); n; n = pgn_node_child(n)) {
        char mv[PGN_UCI_MAX];
        size_t k = pgn_uci_write(&pos, pgn_node_move(n), mv);
        if (uci->len) {
            buf_put(uci, " ", 1);
        }
        buf_put(uci, mv, k);
        pgn_pos_play(&pos, pgn_node_move(n));
    }
    pgn_fen_write(&pos, PGN_FEN_EP_ALWAYS, fen, PGN_FEN_MAX);
}

static void check_oracle(const char *issue, uint64_t expect) {
    char rel[256];
    buf pgn, tsv, uci = {0};
    snprintf(rel, sizeof rel, "corpus/big/twic/%s.pgn.gz", issue);
    int ok = buf_load_shared(rel, &pgn);
    snprintf(rel, sizeof rel, "corpus/expected/pgn-extract-oracle/%s.uci-fen.tsv.gz", issue);
    if (!buf_load_shared(rel, &tsv) || !ok) {
        free(pgn.p);
        free(tsv.p);
        return;
    }
    tally t = {"oracle", issue, 0};
    pgn_reader *r = open_reader(pgn.p, pgn.len, 0, NULL, FEED_MEM, NULL);
    pgn_game *g = new_game();
    uint64_t rows = 0, plies = 0;
    char *save = NULL;
    for (char *line = strtok_r(tsv.p, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *f[9], fen[PGN_FEN_MAX];
        if (line[0] == '#') {
            continue;
        }
        rows++;
        if (split_tabs(line, f, 9) != 9 || strtoull(f[0], NULL, 10) != rows) {
            miss(&t, rows, "bad oracle row");
            continue;
        }
        pgn_status st = pgn_reader_next(r, g);
        if (st != PGN_OK) {
            miss(&t, rows, "reader: %s", pgn_status_name(st));
            break;
        }
        if (pgn_reader_summary(r)->errors) {
            miss(&t, rows, "read with errors");
        }
        main_line(g, &uci, fen);
        plies += pgn_game_ply_count(g);
        if (strcasecmp(uci.p, f[7]) != 0) {
            text_diff(&t, rows, "UCI moves", f[7], strlen(f[7]), uci.p, uci.len);
        } else if (f[8][0] ? strcmp(fen, f[8]) != 0 : pgn_game_ply_count(g) != 0) {
            miss(&t, rows, "final FEN %s, pgn-extract %s", fen, f[8]);
        }
    }
    CHECK_EQ_U64(rows, expect);
    CHECK_EQ_INT(pgn_reader_next(r, g), PGN_END);
    printf("oracle %s: %" PRIu64 " games, %" PRIu64 " plies\n", issue, rows, plies);
    tally_done(&t, __LINE__);
    pgn_game_free(g);
    pgn_reader_free(r);
    free(uci.p);
    free(pgn.p);
    free(tsv.p);
}

/* ---- the files ---- */

/* Checks 1, 3, 4 on one text; returns its syntax-only game count (for check_concat). */
static game_count check_text(const char *name, const char *data, size_t len, int big,
                             uint64_t expect) {
    file_result fr;
    double t0 = now();
    memset(&fr, 0, sizeof fr);
    read_pass(name, data, len, &fr);
    fmt_pass(name, data, len, &fr);
    cli_pass(name, data, len, &fr);
    game_count syntax = count_games(data, len);
    if (syntax.games != fr.games) {
        harness_fail(__FILE__, __LINE__, "%s: %" PRIu64 " games, %" PRIu64 " with NO_BOARD", name,
                     fr.games, syntax.games);
    }
    if (big) {
        uint64_t events = event_lines(data, len);
        if (fr.games != events || (expect && fr.games != expect) || fr.errors != 0) {
            harness_fail(__FILE__, __LINE__,
                         "%s: %" PRIu64 " games (%" PRIu64 " [Event lines, %" PRIu64
                         " expected), %" PRIu64 " errors",
                         name, fr.games, events, expect, fr.errors);
        } else {
            harness_counts.passed++;
        }
    }
    printf("%s: %zu bytes, %" PRIu64 " games, %" PRIu64 " errors, %" PRIu64 " warnings, %" PRIu64
           " written, %" PRIu64 " rejected (%.2f s)\n",
           name, len, fr.games, fr.errors, fr.warnings, fr.written, fr.rejected, now() - t0);
    file_result_free(&fr);
    return syntax;
}

/* A bytes + "\n" + B bytes has the games of A and of B. If A ends with an open game (no
 * termination marker, e.g. a tag-only game), B's first tag section may continue it: one game
 * fewer is then accepted. */
static void check_concat(const char *an, const buf *a, game_count ga, const char *bn, const buf *b,
                         game_count gb) {
    buf c = {0};
    buf_put(&c, a->p, a->len);
    buf_put(&c, "\n", 1);
    buf_put(&c, b->p, b->len);
    uint64_t gc = count_games(c.p, c.len).games, want = ga.games + gb.games;
    if (gc != want && !(ga.last_open && gc + 1 == want)) {
        harness_fail(__FILE__, __LINE__,
                     "concatenation of %s (%" PRIu64 " games) and %s (%" PRIu64
                     " games) has %" PRIu64 " games",
                     an, ga.games, bn, gb.games, gc);
    } else {
        harness_counts.passed++;
    }
    free(c.p);
}

static const char *const edge_files[] = {
    "edge/annotated/mliebelt-32games.pgn",
    "edge/annotated/mliebelt-benko.pgn",
    "edge/annotated/pgn-extract-fischer.pgn",
    "edge/annotated/pgn-extract-najdorf.pgn",
    "edge/annotated/pgn-extract-petrosian.pgn",
    "edge/annotated/pychess-annotated.pgn",
    "edge/annotated/pychess-dortmund.pgn",
    "edge/annotated/pychess-world_matches.pgn",
    "edge/annotated/python-chess-anastasian-lewis.pgn",
    "edge/annotated/python-chess-kasparov-deep-blue-1997.pgn",
    "edge/annotated/python-chess-molinari-bordais-1979.pgn",
    "edge/chess960/pychess-chess960rwch.pgn",
    "edge/chess960/python-chess-cutechess-fischerrandom.pgn",
    "edge/eco/pgn-extract-eco.pgn",
    "edge/encoding/gnuchess-book-cp437-subset.pgn",
    "edge/encoding/python-chess-utf8-bom.pgn",
    "edge/lichess-export/mliebelt-lichess_mliebelt_2024-01-03.pgn",
    "edge/lichess-export/python-chess-nepomniachtchi-liren-game1.pgn",
    "edge/lichess-export/scalachess-FWWRC.pgn",
    "edge/lichess-export/scalachess-uzchesscup.pgn",
    "edge/long-games/long-games.pgn",
    "edge/malformed/chessjs-tests-0.pgn",
    "edge/malformed/chessjs-tests-1.pgn",
    "edge/malformed/chessjs-tests-2.pgn",
    "edge/malformed/chessjs-tests-3.pgn",
    "edge/malformed/chesslab-games-01-with-three-invalid.pgn",
    "edge/malformed/chesslab-non-str-games-01.pgn",
    "edge/malformed/chesslab-non-str-games-02.pgn",
    "edge/malformed/chesslab-non-str-games-03.pgn",
    "edge/malformed/chesslab-text-01.pgn",
    "edge/malformed/chesslab-text-with-non-str-games-01.pgn",
    "edge/malformed/chessops-headers-and-moves-on-the-same-line.pgn",
    "edge/malformed/chessops-leading-whitespace.pgn",
    "edge/malformed/chessops-pathological-headers.pgn",
    "edge/malformed/hoover-parsertest-1.pgn",
    "edge/malformed/hoover-scannertest-1.pgn",
    "edge/malformed/pgn-extract-nested-comment.pgn",
    "edge/malformed/pgn-extract-test-fixresulttags-in.pgn",
    "edge/malformed/pgn-extract-test-long-line.pgn",
    "edge/malformed/pgn-extract-test-nobadresults.pgn",
    "edge/malformed/pychess-badpgn.pgn",
    "edge/malformed/python-chess-chessbase-empty-line.pgn",
    "edge/malformed/python-chess-uci-moves.pgn",
    "edge/misc-real/pgn-extract-bots.pgn",
    "edge/misc-real/python-chess-stockfish-learning.pgn",
    "edge/null-moves/pgn-extract-test-allownullmoves.pgn",
    "edge/setup-fen/pgn-extract-odds.pgn",
    "edge/setup-fen/pgn-extract-test-checkmate.pgn",
    "edge/setup-fen/pgn-extract-test-fifty.pgn",
    "edge/setup-fen/pgn-extract-test-promotion-in.pgn",
    "edge/setup-fen/pgn-extract-test-repetition.pgn",
    "edge/setup-fen/pgn-extract-test-setup-in.pgn",
    "edge/setup-fen/pgn-extract-test-seventyfive.pgn",
    "edge/setup-fen/pgn-extract-test-stalemate.pgn",
    "edge/setup-fen/pychess-3fold.pgn",
    "edge/setup-fen/pychess-50halfmoves.pgn",
    "edge/setup-fen/pychess-fenSetup.pgn",
    "edge/setup-fen/pychess-insufficient_material.pgn",
    "edge/setup-fen/pychess-promotion.pgn",
    "edge/variants/pychess-atomic.pgn",
    "edge/variants/pychess-schess-seirawan.pgn",
    "edge/variants/pychess-sittuyin.pgn",
    "edge/variants/pychess-zh.pgn",
    "edge/variants/python-chess-antichess-programfox.pgn",
    "edge/variants/python-chess-knightvuillaume-jannlee-zh-lichess.pgn",
    "edge/variants/python-chess-saturs-jannlee-zh-lichess.pgn",
};

static int edge_listed(const char *rel) {
    for (size_t i = 0; i < sizeof edge_files / sizeof edge_files[0]; i++) {
        if (strcmp(edge_files[i], rel) == 0) {
            return 1;
        }
    }
    return 0;
}

/* Every .pgn file under corpus/edge/ must be in edge_files (so a new one is not silently left
 * out); returns the number found. */
static unsigned scan_edge(const char *rel) {
    char path[4096], sub[1024];
    unsigned found = 0;
    snprintf(path, sizeof path, "%s", harness_shared(rel));
    DIR *d = opendir(path);
    if (!d) {
        harness_fail(__FILE__, __LINE__, "cannot list %s", path);
        return 0;
    }
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        struct stat st;
        size_t n = strlen(e->d_name);
        if (e->d_name[0] == '.' ||
            (size_t)snprintf(sub, sizeof sub, "%s/%s", rel, e->d_name) >= sizeof sub) {
            continue;
        }
        snprintf(path, sizeof path, "%s", harness_shared(sub));
        if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
            found += scan_edge(sub);
        } else if (n > 4 && strcmp(e->d_name + n - 4, ".pgn") == 0) {
            found++;
            if (!edge_listed(sub + strlen("corpus/"))) {
                harness_fail(__FILE__, __LINE__, "%s is not in edge_files", sub);
            }
        }
    }
    closedir(d);
    return found;
}

static void check_edge(void) {
    buf prev = {0};
    const char *prev_name = NULL;
    game_count prev_count = {0, 0, 0};
    double t0 = now();
    CHECK_EQ_INT(scan_edge("corpus/edge"), sizeof edge_files / sizeof edge_files[0]);
    for (size_t i = 0; i < sizeof edge_files / sizeof edge_files[0]; i++) {
        char rel[512];
        buf data;
        snprintf(rel, sizeof rel, "corpus/%s", edge_files[i]);
        if (!buf_load_shared(rel, &data)) {
            continue;
        }
        game_count count = check_text(edge_files[i], data.p, data.len, 0, 0);
        check_chunks(edge_files[i], data.p, data.len);
        check_skip(edge_files[i], data.p, data.len);
        if (prev_name) {
            check_concat(prev_name, &prev, prev_count, edge_files[i], &data, count);
        }
        free(prev.p);
        prev = data;
        prev_count = count;
        prev_name = edge_files[i];
    }
    free(prev.p);
    printf("edge: %.2f s\n", now() - t0);
}

/* big/: the README's game count; how many games the normal run reads (ALL: every one, 0: none);
 * which further checks run on a slice (chunks: games read in 1-byte etc. pieces; ranges: split
 * points per file). */
#define ALL UINT64_MAX
typedef struct big_file {
    const char *rel;
    uint64_t games, normal_games;
    uint64_t chunk_games, slow_chunk_games;
    int ranges;
} big_file;

static const big_file big_files[] = {
    {"big/fics/fics_01_standard_humans_2000_2199.pgn.gz", 239, ALL, 0, 0, 0},
    {"big/fics/fics_02_standard_humans_2000_2199.pgn.gz", 1214, ALL, 0, 0, 1},
    {"big/gnuchess-book_1.02.pgn.gz", 145716, 5000, 0, 2000, 0},
    {"big/misc/mliebelt-twic-01-232games.pgn", 232, ALL, 0, 0, 0},
    {"big/pgnmentor-players/Anand.pgn.gz", 4144, 0, 0, 0, 0},
    {"big/pgnmentor-players/Capablanca.pgn.gz", 597, 0, 0, 0, 0},
    {"big/pgnmentor-players/Carlsen.pgn.gz", 5662, 0, 0, 0, 0},
    {"big/pgnmentor-players/Chiburdanidze.pgn.gz", 1346, 0, 0, 0, 0},
    {"big/pgnmentor-players/Fischer.pgn.gz", 827, 0, 0, 0, 0},
    {"big/pgnmentor-players/Gaprindashvili.pgn.gz", 1218, 0, 0, 0, 0},
    {"big/pgnmentor-players/Hou.pgn.gz", 2275, 0, 0, 0, 0},
    {"big/pgnmentor-players/Kasparov.pgn.gz", 2128, ALL, 200, ALL, 2},
    {"big/pgnmentor-players/Kosteniuk.pgn.gz", 4646, 0, 0, 0, 0},
    {"big/pgnmentor-players/Kramnik.pgn.gz", 3878, 0, 0, 0, 0},
    {"big/pgnmentor-players/PolgarJ.pgn.gz", 1825, 0, 0, 0, 0},
    {"big/pgnmentor-players/Stefanova.pgn.gz", 3444, 0, 0, 0, 0},
    {"big/tcec-frc/TCEC_Season_16_-_Frc_Sufi.pgn.gz", 20, 0, 0, 0, 0},
    {"big/tcec-frc/TCEC_Season_19_-_Frc2_Final.pgn.gz", 50, 0, 0, 0, 0},
    {"big/tcec-frc/TCEC_Season_21_-_Frc4_Final.pgn.gz", 50, 0, 0, 0, 0},
    {"big/tcec-frc/TCEC_Season_22_-_Bonus_Dfrc_1_Final.pgn.gz", 50, ALL, 0, ALL, 0},
    {"big/tcec-frc/TCEC_Season_24_-_Dfrc_2_Final.pgn.gz", 50, 0, 0, 0, 0},
    {"big/tcec-frc/TCEC_Season_29_-_Frd_5_Final.pgn.gz", 50, 0, 0, 0, 0},
    {"big/tcec-frc/TCEC_Season_6_-_FRC.pgn.gz", 112, 0, 0, 0, 0},
    {"big/tcec/TCEC_Cup_10_Final.pgn.gz", 12, 0, 0, 0, 0},
    {"big/tcec/TCEC_Cup_11_Final.pgn.gz", 16, 0, 0, 0, 0},
    {"big/tcec/TCEC_Cup_12_Final.pgn.gz", 28, 0, 0, 0, 0},
    {"big/tcec/TCEC_Cup_13_Final.pgn.gz", 22, 0, 0, 0, 0},
    {"big/tcec/TCEC_Cup_14_Final.pgn.gz", 36, 0, 0, 0, 0},
    {"big/tcec/TCEC_Cup_15_Final.pgn.gz", 22, 0, 0, 0, 0},
    {"big/tcec/TCEC_Cup_16_Final.pgn.gz", 22, 0, 0, 0, 0},
    {"big/tcec/TCEC_Season_10_-_Superfinal.pgn.gz", 100, ALL, 5, ALL, 2},
    {"big/tcec/TCEC_Season_11_-_Superfinal.pgn.gz", 100, 0, 0, 0, 0},
    {"big/tcec/TCEC_Season_12_-_Superfinal.pgn.gz", 100, 0, 0, 0, 0},
    {"big/tcec/TCEC_Season_13_-_Superfinal.pgn.gz", 100, 0, 0, 0, 0},
    {"big/tcec/TCEC_Season_18_-_Cpu_Superfinal_Bonus.pgn.gz", 100, 0, 0, 0, 0},
    {"big/tcec/TCEC_Season_22_-_League_1.pgn.gz", 112, 0, 0, 0, 0},
    {"big/tcec/TCEC_Season_26_-_1s_Ultra_Bullet_Chess_Bonus.pgn.gz", 100, 0, 0, 0, 0},
    {"big/tcec/TCEC_Season_4_-_Superfinal.pgn.gz", 48, 0, 0, 0, 0},
    {"big/tcec/TCEC_Season_5_-_Superfinal.pgn.gz", 48, 0, 0, 0, 0},
    {"big/tcec/TCEC_Season_6_-_Superfinal.pgn.gz", 64, 0, 0, 0, 0},
    {"big/tcec/TCEC_Season_7_-_Superfinal.pgn.gz", 64, 0, 0, 0, 0},
    {"big/tcec/TCEC_Season_8_-_Superfinal.pgn.gz", 100, 0, 0, 0, 0},
    {"big/tcec/TCEC_Season_9_-_Superfinal.pgn.gz", 100, 0, 0, 0, 0},
    {"big/twic/twic1427.pgn.gz", 4742, ALL, 500, ALL, 3},
    {"big/twic/twic1428.pgn.gz", 4674, 0, 0, ALL, 0},
};

static void check_big(void) {
    buf prev = {0};
    const char *prev_name = NULL;
    game_count prev_count = {0, 0, 0};
    for (size_t i = 0; i < sizeof big_files / sizeof big_files[0]; i++) {
        const big_file *b = &big_files[i];
        uint64_t want = slow ? ALL : b->normal_games;
        uint64_t chunk = slow ? b->slow_chunk_games : b->chunk_games;
        char rel[512];
        buf data;
        if (want == 0) {
            continue;
        }
        snprintf(rel, sizeof rel, "corpus/%s", b->rel);
        if (!buf_load_shared(rel, &data)) {
            continue;
        }
        double t0 = now();
        size_t len = slice_games(data.p, data.len, want);
        game_count count = check_text(b->rel, data.p, len, 1, want == ALL ? b->games : 0);
        if (want != ALL) {
            CHECK_EQ_U64(event_lines(data.p, len), want);
        }
        if (chunk) {
            check_chunks(b->rel, data.p, slice_games(data.p, len, chunk));
            check_skip(b->rel, data.p, slice_games(data.p, len, chunk));
        }
        if (b->ranges) {
            check_ranges(b->rel, data.p, slice_games(data.p, len, slow ? 1000 : 300),
                         slow ? 3 * b->ranges : b->ranges);
        }
        data.len = len;
        if (prev_name) {
            check_concat(prev_name, &prev, prev_count, b->rel, &data, count);
        }
        free(prev.p);
        prev = data;
        prev_count = count;
        prev_name = b->rel;
        printf("%s: all checks %.2f s\n", b->rel, now() - t0);
    }
    free(prev.p);
}

int main(void) {
    const char *env = getenv("PGNKIT_SLOW");
    double t0 = now();
    slow = env && *env && strcmp(env, "0") != 0;
    printf("corpus tests (%s)\n",
           slow ? "slow: everything" : "normal: a slice; PGNKIT_SLOW=1 for all");
    check_edge();
    if (getenv("PGNKIT_VALGRIND") != NULL) {
        /* make check-valgrind: memcheck is some 50 times slower; the edge files exercise every
         * code path, the big files only repeat them (make check and check-slow read those) */
        printf("PGNKIT_VALGRIND: corpus/big and the oracle are not read under valgrind\n");
        printf("total %.2f s\n", now() - t0);
        return harness_finish();
    }
    check_big();
    check_oracle("twic1427", 4742);
    check_oracle("twic1428", 4674);
    printf("total %.2f s\n", now() - t0);
    return harness_finish();
}
