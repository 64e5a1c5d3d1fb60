/* SPDX-License-Identifier: MIT */
/* The spec suite runner (STYLE C10, cmark's spec_tests in C): reads the tests/spec/ files, runs
 * each example from memory (pgn_reader_new_mem), through a read callback that gives one byte at a
 * time, and through one that gives the whole input at once, and compares the export of every
 * unbroken game, the count of broken games, the final status and every diagnostic. It then checks
 * that errors.spec covers every PGN_E_* and PGN_W_* code. The file format is described at the top
 * of each .spec file and in docs/pgn-dialect.md. */
#include "harness.h"
#include "testutil.h"
#include "pgnkit.h"

#include <stdlib.h>

#define SPEC_DIR "tests/spec/"
#define MAX_CODE 256

static int buf_eq(const buf *a, const buf *b) {
    return a->len == b->len && (a->len == 0 || memcmp(a->p, b->p, a->len) == 0);
}

/* ---- one example ---- */

typedef struct example {
    const char *file;
    unsigned line; /* of the "===" line */
    char title[128];
    pgn_reader_opts ropts;
    pgn_writer_opts wopts;
    int trace;    /* no-board: the output is a visitor trace, not the writer's export */
    int flags_ok; /* every flag was understood */
    buf input, output, diags;
    buf raw;      /* the title, flags and input lines as written (for PGNKIT_SPEC_UPDATE) */
    FILE *update; /* PGNKIT_SPEC_UPDATE: write the example with its actual results here */
    unsigned long rejected;
    char status[32]; /* the status that ended the reading: END unless a section says otherwise */
} example;

/* Decodes one line of an input or output section into b: \xHH, \r, \t, \n and \\ are escapes, any
 * other backslash is literal; a single \ at the end of the line joins it to the next one (at the
 * end of the section: the text has no final line feed), else the line ends with a line feed. */
static void decode_line(buf *b, const char *s, size_t n) {
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (c == '\\' && i + 1 == n) {
            return;
        }
        if (c == '\\' && s[i + 1] == 'x' && i + 3 < n &&
            strchr("0123456789abcdefABCDEF", s[i + 2]) &&
            strchr("0123456789abcdefABCDEF", s[i + 3])) {
            char hex[3] = {s[i + 2], s[i + 3], 0};
            c = (char)strtol(hex, NULL, 16);
            i += 3;
        } else if (c == '\\' && strchr("rtn\\", s[i + 1])) {
            c = s[i + 1] == 'r' ? '\r' : s[i + 1] == 't' ? '\t' : s[i + 1] == 'n' ? '\n' : '\\';
            i++;
        }
        buf_put(b, &c, 1);
    }
    buf_put(b, "\n", 1);
}

static int parse_number(const char *s, const char *key, unsigned long long *out) {
    size_t k = strlen(key);
    if (strncmp(s, key, k) != 0 || s[k] < '0' || s[k] > '9') {
        return 0;
    }
    char *end;
    *out = strtoull(s + k, &end, 10);
    return *end == '\0';
}

static int parse_encoding(const char *s, pgn_encoding *enc) {
    static const struct {
        const char *name;
        pgn_encoding enc;
    } encs[] = {{"auto", PGN_ENC_AUTO},
                {"utf-8", PGN_ENC_UTF8},
                {"latin-1", PGN_ENC_LATIN1},
                {"cp1252", PGN_ENC_CP1252},
                {"cp437", PGN_ENC_CP437}};
    for (size_t i = 0; i < sizeof encs / sizeof encs[0]; i++) {
        if (strncmp(s, "encoding=", 9) == 0 && strcmp(s + 9, encs[i].name) == 0) {
            *enc = encs[i].enc;
            return 1;
        }
    }
    return 0;
}

/* One word of a "--- flags" line. Returns 0 if it is unknown. */
static int apply_flag(example *ex, const char *w) {
    static const struct {
        const char *name;
        int writer;
        uint32_t bit;
    } bits[] = {{"strict", 0, PGN_READ_STRICT},
                {"no-board", 0, PGN_READ_NO_BOARD},
                {"nested-comments", 0, PGN_READ_NESTED_COMMENTS},
                {"no-null-moves", 0, PGN_READ_NO_NULL_MOVES},
                {"fix", 0, PGN_READ_FIX},
                {"reduced", 1, PGN_WRITE_REDUCED},
                {"no-comments", 1, PGN_WRITE_NO_COMMENTS},
                {"no-variations", 1, PGN_WRITE_NO_VARIATIONS},
                {"no-nags", 1, PGN_WRITE_NO_NAGS},
                {"nag-compat", 1, PGN_WRITE_NAG_COMPAT},
                {"spaced-rav", 1, PGN_WRITE_SPACED_RAV}};
    unsigned long long v;
    for (size_t i = 0; i < sizeof bits / sizeof bits[0]; i++) {
        if (strcmp(w, bits[i].name) == 0) {
            *(bits[i].writer ? &ex->wopts.flags : &ex->ropts.flags) |= bits[i].bit;
            ex->trace |= bits[i].bit == PGN_READ_NO_BOARD && !bits[i].writer;
            return 1;
        }
    }
    if (strcmp(w, "nag-style=symbol") == 0) {
        ex->wopts.nag_style = PGN_NAG_STYLE_SYMBOL;
    } else if (strcmp(w, "nag-style=text") == 0) {
        ex->wopts.nag_style = PGN_NAG_STYLE_TEXT;
    } else if (parse_number(w, "width=", &v)) {
        ex->wopts.width = (uint32_t)v;
    } else if (parse_number(w, "max-depth=", &v)) {
        ex->ropts.max_depth = (uint32_t)v;
    } else if (parse_number(w, "max-token=", &v)) {
        ex->ropts.max_token = (size_t)v;
    } else if (parse_number(w, "max-errors=", &v)) {
        ex->ropts.max_errors = v;
    } else {
        return parse_encoding(w, &ex->ropts.encoding);
    }
    return 1;
}

static void parse_flags(example *ex, const char *s, size_t n) {
    char line[256];
    if (n >= sizeof line) {
        ex->flags_ok = 0;
        return;
    }
    memcpy(line, s, n);
    line[n] = '\0';
    for (char *w = strtok(line, " \t"); w != NULL; w = strtok(NULL, " \t")) {
        if (!apply_flag(ex, w)) {
            ex->flags_ok = 0;
            fprintf(stdout, "%s:%u: unknown flag '%s'\n", ex->file, ex->line, w);
        }
    }
}

/* ---- running an example ---- */

typedef struct run_result {
    buf output, diags;
    unsigned long rejected;
    pgn_status status;
} run_result;

typedef struct bytes_src {
    const char *p;
    size_t len, pos;
    size_t fail_at; /* the callback fails when pos reaches this (SIZE_MAX: never) */
} bytes_src;

/* Gives as much as fits (so a small input comes in one read, then the end). */
static ptrdiff_t read_all_at_once(void *ctx, void *dst, size_t cap) {
    bytes_src *s = ctx;
    size_t n = s->len - s->pos < cap ? s->len - s->pos : cap;
    if (n) {
        memcpy(dst, s->p + s->pos, n);
    }
    s->pos += n;
    return (ptrdiff_t)n;
}

/* Gives one byte per call. */
static ptrdiff_t read_one(void *ctx, void *dst, size_t cap) {
    bytes_src *s = ctx;
    if (s->pos >= s->fail_at) {
        return -1;
    }
    if (s->pos >= s->len || cap == 0) {
        return 0;
    }
    *(char *)dst = s->p[s->pos++];
    return 1;
}

static void on_diag(void *ctx, const pgn_diag *d) {
    buf *b = ctx;
    buf_printf(b, "%" PRIu32 ":%" PRIu32 " ", d->at.line, d->at.column);
    buf_str(b, d->severity == PGN_SEV_ERROR ? "error " : "warning ");
    buf_str(b, pgn_status_name(d->code));
    buf_str(b, "\n");
}

/* The no-board trace: each game's tags as [Name "value"] lines (value decoded, not escaped), an
 * empty line, its movetext events on one line (moves as written, $n, {comment}, ( and )), the
 * result, and an empty line. */
typedef struct trace {
    buf game;
    run_result *res;
} trace;

static void trace_token(trace *t, const char *s, size_t n) {
    if (t->game.len && t->game.p[t->game.len - 1] != '\n') {
        buf_put(&t->game, " ", 1);
    }
    buf_put(&t->game, s, n);
}

static pgn_flow tr_begin(void *user, pgn_loc at) {
    (void)at;
    ((trace *)user)->game.len = 0;
    return PGN_FLOW_CONTINUE;
}

static pgn_flow tr_tag(void *user, pgn_str name, pgn_str value) {
    buf *g = &((trace *)user)->game;
    buf_put(g, "[", 1);
    buf_put(g, name.ptr, name.len);
    buf_put(g, " \"", 2);
    buf_put(g, value.ptr, value.len);
    buf_put(g, "\"]\n", 3);
    return PGN_FLOW_CONTINUE;
}

static pgn_flow tr_end_tags(void *user, const pgn_pos *start) {
    (void)start;
    buf_put(&((trace *)user)->game, "\n", 1);
    return PGN_FLOW_CONTINUE;
}

static pgn_flow tr_move(void *user, const pgn_pos *before, pgn_move mv, pgn_str san, pgn_loc at) {
    (void)before;
    (void)mv;
    (void)at;
    trace_token(user, san.ptr, san.len);
    return PGN_FLOW_CONTINUE;
}

static pgn_flow tr_comment(void *user, pgn_str text) {
    buf tmp = {NULL, 0, 0};
    buf_put(&tmp, "{", 1);
    buf_put(&tmp, text.ptr, text.len);
    buf_put(&tmp, "}", 1);
    trace_token(user, tmp.p, tmp.len);
    free(tmp.p);
    return PGN_FLOW_CONTINUE;
}

static pgn_flow tr_nag(void *user, unsigned nag) {
    char tmp[16];
    int n = snprintf(tmp, sizeof tmp, "$%u", nag);
    trace_token(user, tmp, (size_t)n);
    return PGN_FLOW_CONTINUE;
}

static pgn_flow tr_open(void *user) {
    trace_token(user, "(", 1);
    return PGN_FLOW_CONTINUE;
}

static pgn_flow tr_close(void *user) {
    trace_token(user, ")", 1);
    return PGN_FLOW_CONTINUE;
}

static pgn_flow tr_end_game(void *user, pgn_result result, const pgn_game_summary *summary) {
    trace *t = user;
    trace_token(t, pgn_result_str(result), strlen(pgn_result_str(result)));
    buf_put(&t->game, "\n\n", 2);
    if (summary->broken) {
        t->res->rejected++;
    } else {
        buf_put(&t->res->output, t->game.p, t->game.len);
    }
    return PGN_FLOW_CONTINUE;
}

static const pgn_visitor trace_visitor = {tr_begin, tr_tag,  tr_end_tags, tr_move,    tr_comment,
                                          tr_nag,   tr_open, tr_close,    tr_end_game};

/* Reads every game with the tree builder and exports the unbroken ones. */
static pgn_status read_and_export(pgn_reader *r, const example *ex, run_result *res) {
    pgn_game *g;
    pgn_writer *w;
    pgn_status st;
    if (pgn_game_new(&g, NULL) != PGN_OK ||
        pgn_writer_new(&w, &ex->wopts, buf_write, &res->output) != PGN_OK) {
        fprintf(stderr, "test_spec: out of memory\n");
        exit(3);
    }
    while ((st = pgn_reader_next(r, g)) == PGN_OK || st == PGN_E_LIMIT) {
        if (pgn_reader_summary(r)->broken) {
            res->rejected++;
        } else if (pgn_writer_write(w, g) != PGN_OK) {
            buf_str(&res->output, "<<writer failed>>");
        }
        if (st != PGN_OK) {
            break;
        }
    }
    pgn_writer_free(w);
    pgn_game_free(g);
    return st;
}

enum feed { FEED_MEM, FEED_ONE_BYTE, FEED_CHUNKS };

/* Runs ex from memory (pgn_reader_new_mem) or through a read callback. */
static void run_example(const example *ex, enum feed feed, run_result *res) {
    pgn_reader_opts o = ex->ropts;
    pgn_reader *r;
    bytes_src src = {ex->input.p, ex->input.len, 0, SIZE_MAX};
    memset(res, 0, sizeof *res);
    o.on_diag = on_diag;
    o.diag_ctx = &res->diags;
    pgn_status st;
    if (feed == FEED_MEM) {
        st = pgn_reader_new_mem(&r, &o, ex->input.p ? ex->input.p : "", ex->input.len);
    } else {
        st = pgn_reader_new(&r, &o, feed == FEED_ONE_BYTE ? read_one : read_all_at_once, &src);
    }
    if (st != PGN_OK) {
        res->status = st;
        return;
    }
    if (ex->trace) {
        trace t = {{NULL, 0, 0}, res};
        while ((st = pgn_reader_visit(r, &trace_visitor, &t)) == PGN_OK) {
        }
        free(t.game.p);
    } else {
        st = read_and_export(r, ex, res);
    }
    res->status = st;
    pgn_reader_free(r);
}

/* ---- reporting ---- */

/* Writes text in the spec escape convention, so that a failing case can be pasted back. */
static void write_escaped(FILE *f, const buf *b) {
    for (size_t i = 0; i < b->len; i++) {
        unsigned char c = (unsigned char)b->p[i];
        int last_on_line = i + 1 == b->len || b->p[i + 1] == '\n';
        if (c == '\n') {
            fputc('\n', f);
        } else if (c == '\\') {
            fputs("\\\\", f);
        } else if (c == '\t') {
            fputs("\\t", f);
        } else if (c == '\r') {
            fputs("\\r", f);
        } else if (c < 0x20 || c >= 0x7F || (c == ' ' && last_on_line)) {
            fprintf(f, "\\x%02X", c);
        } else {
            fputc(c, f);
        }
    }
    if (b->len && b->p[b->len - 1] != '\n') {
        fputs("\\\n", f);
    }
}

static void print_escaped(const char *label, const buf *b) {
    printf("  %s:\n", label);
    write_escaped(stdout, b);
}

/* PGNKIT_SPEC_UPDATE: the example as written, with its actual results (to review, then adopt). */
static void write_update(const example *ex, const run_result *res) {
    fwrite(ex->raw.p, 1, ex->raw.len, ex->update);
    if (res->output.len) {
        fputs("--- output\n", ex->update);
        write_escaped(ex->update, &res->output);
    }
    if (res->rejected) {
        fprintf(ex->update, "--- rejected\n%lu\n", res->rejected);
    }
    if (res->status != PGN_END) {
        fprintf(ex->update, "--- status\n%s\n", pgn_status_name(res->status));
    }
    if (res->diags.len) {
        fputs("--- diagnostics\n", ex->update);
        fwrite(res->diags.p, 1, res->diags.len, ex->update);
    }
}

static void compare(const example *ex, const run_result *res, const char *mode) {
    int ok_out = buf_eq(&ex->output, &res->output), ok_diag = buf_eq(&ex->diags, &res->diags);
    int ok_rej = ex->rejected == res->rejected;
    int ok_status = strcmp(ex->status, pgn_status_name(res->status)) == 0;
    if (ok_out && ok_diag && ok_rej && ok_status) {
        harness_counts.passed++;
        return;
    }
    harness_fail(ex->file, (int)ex->line, "%s (%s):%s%s%s%s", ex->title, mode,
                 ok_out ? "" : " output", ok_diag ? "" : " diagnostics", ok_rej ? "" : " rejected",
                 ok_status ? "" : " status");
    if (harness_counts.failed > 50) {
        return;
    }
    if (!ok_out) {
        print_escaped("expected output", &ex->output);
        print_escaped("actual output", &res->output);
    }
    if (!ok_diag) {
        print_escaped("expected diagnostics", &ex->diags);
        print_escaped("actual diagnostics", &res->diags);
    }
    if (!ok_rej || !ok_status) {
        printf("  rejected %lu, status %s; actual: rejected %lu, status %s\n", ex->rejected,
               ex->status, res->rejected, pgn_status_name(res->status));
    }
}

/* Runs ex from memory and through a 1-byte read callback (STYLE C10), and once more through a
 * callback that gives everything in one read: a token that ends the input is then scanned after a
 * refill that moved the window, which neither of the other two feeds does. */
static void run_all_feeds(const example *ex) {
    static const char *const names[] = {"memory", "1-byte reads", "reads of the whole input"};
    run_result res;
    if (!ex->flags_ok) {
        harness_fail(ex->file, (int)ex->line, "%s: bad flags", ex->title);
        return;
    }
    for (int feed = FEED_MEM; feed <= FEED_CHUNKS; feed++) {
        run_example(ex, (enum feed)feed, &res);
        if (ex->update && feed == FEED_MEM) {
            write_update(ex, &res);
        }
        compare(ex, &res, names[feed]);
        free(res.output.p);
        free(res.diags.p);
    }
}

/* ---- reading .spec files ---- */

enum section { S_NONE, S_FLAGS, S_INPUT, S_OUTPUT, S_REJECTED, S_STATUS, S_DIAGS };

static pgn_status code_by_name(const char *name, size_t n) {
    for (int c = 0; c < MAX_CODE; c++) {
        const char *s = pgn_status_name((pgn_status)c);
        if (strlen(s) == n && memcmp(s, name, n) == 0 && strcmp(s, "UNKNOWN") != 0) {
            return (pgn_status)c;
        }
    }
    return (pgn_status)-1;
}

static enum section section_of(const char *s, size_t n) {
    static const char *const names[] = {"flags",    "input",  "output",
                                        "rejected", "status", "diagnostics"};
    for (int i = 0; i < 6; i++) {
        if (strlen(names[i]) == n && memcmp(names[i], s, n) == 0) {
            return (enum section)(i + 1);
        }
    }
    return S_NONE;
}

/* A line of a flags, rejected, status or diagnostics section (trimmed; # starts a comment). */
static void add_meta_line(example *ex, enum section sec, const char *s, size_t n, int *covered) {
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r')) {
        n--;
    }
    if (n == 0 || s[0] == '#') {
        return;
    }
    if (sec == S_FLAGS) {
        parse_flags(ex, s, n);
    } else if (sec == S_REJECTED) {
        ex->rejected = strtoul(s, NULL, 10);
    } else if (sec == S_STATUS) {
        snprintf(ex->status, sizeof ex->status, "%.*s", (int)n, s);
        pgn_status c = code_by_name(s, n);
        if (covered && (int)c >= 0) {
            covered[c] = 1;
        }
    } else {
        size_t k = n;
        while (k && s[k - 1] != ' ') {
            k--;
        }
        pgn_status c = code_by_name(s + k, n - k);
        if ((int)c < 0) {
            harness_fail(ex->file, (int)ex->line, "%s: unknown code in '%.*s'", ex->title, (int)n,
                         s);
        } else if (covered) {
            covered[c] = 1;
        }
        buf_put(&ex->diags, s, n);
        buf_put(&ex->diags, "\n", 1);
    }
}

static void start_example(example *ex, const char *file, unsigned line, const char *title,
                          size_t n) {
    memset(ex, 0, sizeof *ex);
    ex->file = file;
    ex->line = line;
    ex->flags_ok = 1;
    strcpy(ex->status, "END");
    snprintf(ex->title, sizeof ex->title, "%.*s", (int)n, title);
}

static void end_example(example *ex) {
    const char *only = getenv("PGNKIT_SPEC_ONLY"); /* a title substring, to run a few cases */
    if (only == NULL || strstr(ex->title, only) != NULL) {
        run_all_feeds(ex);
    }
    free(ex->input.p);
    free(ex->output.p);
    free(ex->diags.p);
    free(ex->raw.p);
}

typedef struct spec_parser {
    const char *path;
    int *covered; /* codes named by the examples (errors.spec only) */
    FILE *update; /* PGNKIT_SPEC_UPDATE output, or NULL */
    example ex;
    unsigned count, lineno;
    enum section sec;
} spec_parser;

static int is_header(const char *s, size_t n, const char *mark) {
    return n >= 4 && memcmp(s, mark, 4) == 0;
}

/* One line of a .spec file (without its line feed). */
static void spec_line(spec_parser *p, const char *s, size_t n) {
    if (is_header(s, n, "=== ")) {
        if (p->count++) {
            end_example(&p->ex);
        }
        start_example(&p->ex, p->path, p->lineno, s + 4, n - 4);
        p->ex.update = p->update;
        p->sec = S_NONE;
    } else if (is_header(s, n, "--- ") && p->count) {
        p->sec = section_of(s + 4, n - 4);
        if (p->sec == S_NONE) {
            harness_fail(p->path, (int)p->lineno, "unknown section '%.*s'", (int)n, s);
        }
    } else if (p->update && !p->count) {
        fprintf(p->update, "%.*s\n", (int)n, s); /* the file's header */
    }
    if (p->count && (p->sec == S_NONE || p->sec == S_FLAGS || p->sec == S_INPUT)) {
        buf_put(&p->ex.raw, s, n);
        buf_put(&p->ex.raw, "\n", 1);
    }
    if (is_header(s, n, "=== ") || is_header(s, n, "--- ")) {
        return;
    }
    if (p->sec == S_INPUT || p->sec == S_OUTPUT) {
        decode_line(p->sec == S_INPUT ? &p->ex.input : &p->ex.output, s, n);
    } else if (p->sec != S_NONE) {
        add_meta_line(&p->ex, p->sec, s, n, p->covered);
    }
}

/* Runs every example of one file; returns how many it has. covered: codes seen (errors.spec). */
static unsigned run_file(const char *path, int *covered) {
    size_t len, pos = 0;
    char *data = buf_read_file(path, &len);
    spec_parser p;
    memset(&p, 0, sizeof p);
    p.path = path;
    p.covered = covered;
    if (data == NULL) {
        harness_fail(__FILE__, __LINE__, "cannot read %s (run the tests from the repository root)",
                     path);
        return 0;
    }
    if (getenv("PGNKIT_SPEC_UPDATE") != NULL) {
        char out[512];
        snprintf(out, sizeof out, "%s/%s", getenv("PGNKIT_SPEC_UPDATE"), strrchr(path, '/') + 1);
        p.update = fopen(out, "w");
    }
    while (pos < len) {
        const char *s = data + pos, *eol = memchr(s, '\n', len - pos);
        size_t n = eol ? (size_t)(eol - s) : len - pos;
        pos += n + 1;
        p.lineno++;
        spec_line(&p, s, n);
    }
    if (p.count) {
        end_example(&p.ex);
    }
    if (p.update) {
        fclose(p.update);
    }
    free(data);
    return p.count;
}

/* ---- cases that need C: resource failures and a generated long line ---- */

static const char two_games[] = "[Event \"a\"]\n\n1. e4 {c} e5 (1... c5) 2. Nf3 *\n\n"
                                "[Event \"b\"]\n\n1. d4 d5 1-0\n";

/* Reads the whole stream; returns the status that ended it. */
static pgn_status read_all(pgn_reader *r, pgn_game *g) {
    pgn_status st;
    while ((st = pgn_reader_next(r, g)) == PGN_OK) {
    }
    return st;
}

/* PGN_E_IO: the read callback fails at byte k, for every k. The reader must return E_IO, never
 * END (the input was not all read) and never crash. */
static void io_case(int *seen) {
    size_t len = sizeof two_games - 1;
    pgn_game *g;
    CHECK_EQ_INT(pgn_game_new(&g, NULL), PGN_OK);
    for (size_t k = 0; k < len; k++) {
        bytes_src src = {two_games, len, 0, k};
        pgn_reader *r;
        CHECK_EQ_INT(pgn_reader_new(&r, NULL, read_one, &src), PGN_OK);
        pgn_status st = read_all(r, g);
        if (st != PGN_E_IO) {
            harness_fail(__FILE__, __LINE__, "read failing at byte %zu: status %s, not E_IO", k,
                         pgn_status_name(st));
        } else {
            harness_counts.passed++;
            seen[PGN_E_IO] = 1;
        }
        pgn_reader_free(r);
    }
    pgn_game_free(g);
}

static void json_diag(void *ctx, const pgn_diag *d) {
    pgn_diag *out = ctx;
    if (out->code == PGN_OK) {
        *out = *d;
    }
}

/* PGN_E_BAD_JSON and PGN_E_BROKEN_GAME come from the JSON reader, not from PGN: one case each
 * here (the member name not followed by ':'; a game written with "broken": true, refused at its
 * member name), with line and column; tests/unit/test_json.c has the rest. */
static void json_case(int *seen, const char *input, pgn_status code, uint32_t line,
                      uint32_t column) {
    pgn_diag d;
    pgn_json_reader_opts o;
    pgn_json_reader *r;
    pgn_game *g;
    memset(&d, 0, sizeof d);
    memset(&o, 0, sizeof o);
    o.on_diag = json_diag;
    o.diag_ctx = &d;
    CHECK_EQ_INT(pgn_game_new(&g, NULL), PGN_OK);
    CHECK_EQ_INT(pgn_json_reader_new_mem(&r, &o, input, strlen(input)), PGN_OK);
    CHECK_EQ_INT(pgn_json_reader_next(r, g), code);
    if (d.code == code && d.at.line == line && d.at.column == column) {
        harness_counts.passed++;
        seen[code] = 1;
    } else {
        harness_fail(__FILE__, __LINE__, "JSON case: %s at %u:%u, not %s at %u:%u",
                     pgn_status_name(d.code), d.at.line, d.at.column, pgn_status_name(code), line,
                     column);
    }
    pgn_json_reader_free(r);
    pgn_game_free(g);
}

/* One run with allocation k failing; returns 1 when no allocation failed (the run is complete). */
static int nomem_run(long k, int *seen) {
    limit_alloc fa = {k, 0};
    pgn_allocator al = limit_allocator(&fa);
    pgn_reader_opts o;
    pgn_reader *r = NULL;
    pgn_game *g = NULL;
    bytes_src src = {two_games, sizeof two_games - 1, 0, SIZE_MAX};
    memset(&o, 0, sizeof o);
    o.alloc = &al;
    pgn_status st = pgn_game_new(&g, &al);
    if (st == PGN_OK) {
        st = pgn_reader_new(&r, &o, read_one, &src);
    }
    if (st == PGN_OK) {
        st = read_all(r, g);
    }
    pgn_reader_free(r);
    pgn_game_free(g);
    CHECK_EQ_INT(fa.live, 0);
    if (st == PGN_END) {
        return 1;
    }
    if (st == PGN_E_NOMEM) {
        harness_counts.passed++;
        seen[PGN_E_NOMEM] = 1;
    } else {
        harness_fail(__FILE__, __LINE__, "allocation %ld failing: status %s, not E_NOMEM", k,
                     pgn_status_name(st));
    }
    return 0;
}

/* PGN_E_BAD_ALLOCATOR: a reader given malloc and free but no realloc is refused. */
static void bad_allocator_case(int *seen) {
    limit_alloc fa = {0, 0};
    pgn_allocator al = limit_allocator(&fa);
    pgn_reader_opts o;
    pgn_reader *r = NULL;
    memset(&o, 0, sizeof o);
    al.realloc = NULL;
    o.alloc = &al;
    if (pgn_reader_new_mem(&r, &o, two_games, sizeof two_games - 1) == PGN_E_BAD_ALLOCATOR &&
        r == NULL) {
        harness_counts.passed++;
        seen[PGN_E_BAD_ALLOCATOR] = 1;
    } else {
        harness_fail(__FILE__, __LINE__, "a half-filled allocator was not refused");
    }
    pgn_reader_free(r);
}

/* PGN_E_NOMEM: allocation k fails, for every k until a run needs no failing allocation. */
static void nomem_case(int *seen) {
    long k = 0;
    while (!nomem_run(k, seen) && k < 10000) {
        k++;
    }
    CHECK(k > 0 && k < 10000);
}

/* Digest T9: a movetext line of more than 5,000 characters (lichess writes whole games on one
 * line) is read without any diagnostic, in strict mode too. */
static void long_line_case(void) {
    static const char *const cycle[] = {"Nf3", "Nf6", "Ng1", "Ng8"};
    buf in = {NULL, 0, 0};
    for (unsigned m = 1; in.len < 5000; m++) {
        buf_printf(&in, "%u. ", m);
        buf_str(&in, cycle[(m - 1) % 2 * 2]);
        buf_str(&in, " ");
        buf_str(&in, cycle[(m - 1) % 2 * 2 + 1]);
        buf_str(&in, " ");
    }
    buf_str(&in, "*\n");
    for (int strict = 0; strict < 2; strict++) {
        buf diags = {NULL, 0, 0};
        pgn_reader_opts o;
        pgn_reader *r;
        pgn_game *g;
        memset(&o, 0, sizeof o);
        o.flags = strict ? PGN_READ_STRICT : 0;
        o.on_diag = on_diag;
        o.diag_ctx = &diags;
        CHECK_EQ_INT(pgn_reader_new_mem(&r, &o, in.p, in.len), PGN_OK);
        CHECK_EQ_INT(pgn_game_new(&g, NULL), PGN_OK);
        CHECK_EQ_INT(pgn_reader_next(r, g), PGN_OK);
        CHECK(pgn_game_ply_count(g) > 600);
        CHECK_EQ_INT(pgn_reader_next(r, g), PGN_END);
        CHECK_EQ_U64(diags.len, 0);
        pgn_game_free(g);
        pgn_reader_free(r);
        free(diags.p);
    }
    free(in.p);
}

/* Digest T56: after an illegal move the game is broken, but its tree keeps the legal prefix. */
static void prefix_case(void) {
    static const char in[] = "1. e4 e5 2. Ke3 Nf6 *\n";
    pgn_reader *r;
    pgn_game *g;
    CHECK_EQ_INT(pgn_reader_new_mem(&r, NULL, in, sizeof in - 1), PGN_OK);
    CHECK_EQ_INT(pgn_game_new(&g, NULL), PGN_OK);
    CHECK_EQ_INT(pgn_reader_next(r, g), PGN_OK);
    CHECK(pgn_reader_summary(r)->broken);
    CHECK_EQ_INT(pgn_reader_summary(r)->errors, 1);
    CHECK_EQ_U64(pgn_game_ply_count(g), 2);
    CHECK_EQ_INT(pgn_game_result(g), PGN_RESULT_UNKNOWN);
    pgn_game_free(g);
    pgn_reader_free(r);
}

/* ---- coverage of the codes (STYLE C10, yyjson's test_err_code) ---- */

/* Codes that no input can produce as a diagnostic, each with the reason and where it is tested. */
static const struct {
    pgn_status code;
    const char *why;
} not_from_input[] = {
    {PGN_E_NOMEM, "a returned status when an allocation fails: nomem_case()"},
    {PGN_E_IO, "a returned status when the read callback fails: io_case()"},
    {PGN_E_BAD_CHAR,
     "reserved: a byte that starts no token is W_SKIPPED_TEXT (an error under strict)"},
    {PGN_E_UNEXPECTED_TOKEN, "reserved: a token out of place is W_SKIPPED_TEXT or W_STRAY_PAREN"},
    {PGN_E_BAD_JSON, "JSON input, not PGN: json_case() here, every kind in tests/unit/test_json.c"},
    {PGN_E_BAD_ALLOCATOR, "a returned status for a half-filled allocator: bad_allocator_case(), "
                          "tests/unit/test_alloc.c"},
    {PGN_E_BROKEN_GAME, "JSON input, not PGN: json_case() here, and tests/cli/test_broken_json.sh"},
};

/* The reason a code needs no errors.spec example, or NULL. */
static const char *exemption(pgn_status code) {
    for (size_t i = 0; i < sizeof not_from_input / sizeof not_from_input[0]; i++) {
        if (not_from_input[i].code == code) {
            return not_from_input[i].why;
        }
    }
    return NULL;
}

/* Every named code from PGN_E_NOMEM on: in an errors.spec example, or exempt. An exempt code must
 * not appear in errors.spec (then it is no longer exempt); a tested one must have been produced by
 * its C case, and a reserved one must stay unused. */
static void check_coverage(const int *covered, const int *seen) {
    for (int c = PGN_E_NOMEM; c < MAX_CODE; c++) {
        const char *name = pgn_status_name((pgn_status)c), *why = exemption((pgn_status)c);
        if (strcmp(name, "UNKNOWN") == 0) {
            continue;
        }
        if (why == NULL && !covered[c]) {
            harness_fail(__FILE__, __LINE__, "code %s appears in no example of errors.spec", name);
        } else if (why != NULL && covered[c]) {
            harness_fail(__FILE__, __LINE__, "%s is in errors.spec: remove it from not_from_input",
                         name);
        } else if (why != NULL && !seen[c] && strncmp(why, "reserved", 8) != 0) {
            harness_fail(__FILE__, __LINE__, "%s was not produced by its C case", name);
        } else {
            harness_counts.passed++;
        }
    }
}

int main(void) {
    static const char *const files[] = {"import.spec", "export.spec", "lenient.spec",
                                        "errors.spec"};
    int covered[MAX_CODE] = {0}, seen[MAX_CODE] = {0};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[256];
        snprintf(path, sizeof path, "%s%s", SPEC_DIR, files[i]);
        unsigned n = run_file(path, strcmp(files[i], "errors.spec") == 0 ? covered : NULL);
        printf("%s: %u examples\n", path, n);
        if (n == 0) {
            harness_fail(__FILE__, __LINE__, "%s has no examples", path);
        }
    }
    io_case(seen);
    json_case(seen, "[\n{\"tags\" {}}]", PGN_E_BAD_JSON, 2, 9);
    json_case(seen, "[\n{\"tags\":{},\"moves\":[],\"result\":\"*\",\"broken\":true}]",
              PGN_E_BROKEN_GAME, 2, 36);
    nomem_case(seen);
    bad_allocator_case(seen);
    long_line_case();
    prefix_case();
    if (getenv("PGNKIT_SPEC_ONLY") == NULL) {
        check_coverage(covered, seen);
    }
    return harness_finish();
}
