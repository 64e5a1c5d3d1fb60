/* SPDX-License-Identifier: MIT */
/* The JSON reader's lower half: a strict RFC 8259 tokenizer over a pulled input window (UTF-8
 * checked, escapes and surrogate pairs decoded, line and column kept), and a parser that turns
 * one game object into a tree of values with an explicit stack (no recursion per nesting level).
 * The top level is a sequence of game objects and arrays of game objects (JSON and NDJSON). */
#include "json_internal.h"

#include "../base/utf8.h"

#include <assert.h>
#include <string.h>

#define WINDOW ((size_t)1 << 16)
#define DEFAULT_MAX_TOKEN ((size_t)1 << 20)
#define DEFAULT_MAX_DEPTH 12400u

/* Top-level states, between games. */
enum { TOP_VALUE, TOP_ARRAY_FIRST, TOP_ARRAY_NEXT, TOP_ARRAY_ELEM };
/* What an open container wants next. */
enum { W_VALUE_OR_CLOSE, W_KEY_OR_CLOSE, W_KEY, W_VALUE, W_COMMA_OR_CLOSE };

typedef enum tok_kind {
    T_EOF,
    T_LBRACE,
    T_RBRACE,
    T_LBRACKET,
    T_RBRACKET,
    T_COLON,
    T_COMMA,
    T_STRING,
    T_NUMBER,
    T_TRUE,
    T_FALSE,
    T_NULL,
    T_ERROR /* already reported */
} tok_kind;

typedef struct tok {
    tok_kind kind;
    pgn_status err; /* T_ERROR: the code reported */
    pgn_loc at;
    size_t raw_len; /* strings: bytes between the quotes */
} tok;

/* ---- life cycle ---- */

static pgn_status reader_new(pgn_json_reader **out, const pgn_json_reader_opts *opts) {
    const pgn_allocator *alloc = opts != NULL ? opts->alloc : NULL;
    pgn_json_reader *r;
    assert(out != NULL);
    *out = NULL;
    pgn_status st;
    r = pgnk_alloc_object(alloc, sizeof *r, &st);
    if (r == NULL) {
        return st;
    }
    if (opts != NULL) {
        r->opts = *opts;
    }
    pgnk_alloc_copy(&r->alloc, alloc);
    r->opts.alloc = &r->alloc; /* no pointer of the caller's is kept */
    if (r->opts.max_token == 0) {
        r->opts.max_token = DEFAULT_MAX_TOKEN;
    }
    if (r->opts.max_depth == 0) {
        r->opts.max_depth = DEFAULT_MAX_DEPTH;
    }
    r->line = 1;
    pgnk_arena_init(&r->arena, &r->alloc);
    *out = r;
    return PGN_OK;
}

pgn_status pgn_json_reader_new(pgn_json_reader **out, const pgn_json_reader_opts *opts,
                               pgn_read_fn read, void *ctx) {
    pgn_status st = reader_new(out, opts);
    assert(read != NULL);
    if (st != PGN_OK) {
        return st;
    }
    (*out)->read = read;
    (*out)->ctx = ctx;
    (*out)->own = pgnk_malloc(&(*out)->alloc, WINDOW);
    if ((*out)->own == NULL) {
        pgn_json_reader_free(*out);
        *out = NULL;
        return PGN_E_NOMEM;
    }
    (*out)->win = (*out)->own;
    return PGN_OK;
}

pgn_status pgn_json_reader_new_mem(pgn_json_reader **out, const pgn_json_reader_opts *opts,
                                   const void *data, size_t len) {
    pgn_status st = reader_new(out, opts);
    assert(data != NULL || len == 0);
    if (st != PGN_OK) {
        return st;
    }
    (*out)->win = len ? data : "";
    (*out)->win_len = len;
    (*out)->eof = 1;
    return PGN_OK;
}

void pgn_json_reader_free(pgn_json_reader *reader) {
    pgn_allocator alloc;
    if (reader == NULL) {
        return;
    }
    alloc = reader->alloc;
    pgnk_arena_free(&reader->arena);
    pgnk_free(&alloc, reader->own);
    pgnk_free(&alloc, reader->sbuf);
    pgnk_free(&alloc, reader->stack);
    pgnk_free(&alloc, reader->lines);
    pgnk_free(&alloc, reader);
}

void pgn_json_reader_totals(const pgn_json_reader *reader, uint64_t *games, uint64_t *errors) {
    assert(reader != NULL);
    if (games != NULL) {
        *games = reader->games;
    }
    if (errors != NULL) {
        *errors = reader->errors;
    }
}

const char *pgn_json_reader_detail(const pgn_json_reader *reader) {
    assert(reader != NULL);
    return reader->detail != NULL ? reader->detail : "";
}

pgn_status pgnk_json_error(pgn_json_reader *r, pgn_status code, pgn_loc at, const char *excerpt,
                           size_t len, const char *detail) {
    pgn_diag d;
    memset(&d, 0, sizeof d);
    d.code = code;
    d.severity = PGN_SEV_ERROR;
    d.at = at;
    d.game = r->games + 1;
    d.source = r->opts.source_name;
    if (excerpt != NULL && len) {
        pgnk_utf8_excerpt(d.token, sizeof d.token, excerpt, len);
    }
    r->detail = detail;
    r->errors++;
    if (r->opts.on_diag != NULL) {
        r->opts.on_diag(r->opts.diag_ctx, &d);
    }
    return code;
}

/* ---- bytes ---- */

static pgn_loc here(const pgn_json_reader *r) {
    pgn_loc at;
    at.offset = r->win_offset + r->win_pos;
    at.line = r->line;
    at.column = (uint32_t)(at.offset - r->line_start + 1);
    return at;
}

/* The next byte (not consumed), or -1 at the end of the input or after a read error. */
static int peek(pgn_json_reader *r) {
    if (r->win_pos < r->win_len) {
        return (unsigned char)r->win[r->win_pos];
    }
    if (r->eof) {
        return -1;
    }
    r->win_offset += r->win_len;
    r->win_pos = 0;
    r->win_len = 0;
    ptrdiff_t n = r->read(r->ctx, r->own, WINDOW);
    if (n <= 0 || (size_t)n > WINDOW) {
        r->eof = 1;
        r->io_error = n != 0;
        return -1;
    }
    r->win_len = (size_t)n;
    return (unsigned char)r->win[0];
}

static void skip_space(pgn_json_reader *r) {
    for (;;) {
        int c = peek(r);
        if (c == ' ' || c == '\t') {
            r->last_cr = 0;
        } else if (c == '\n' || c == '\r') {
            uint64_t off = r->win_offset + r->win_pos;
            if (!(c == '\n' && r->last_cr)) {
                r->line++;
            }
            r->line_start = off + 1;
            r->last_cr = c == '\r';
        } else {
            return;
        }
        r->win_pos++;
    }
}

static int sbuf_put(pgn_json_reader *r, const char *s, size_t n) {
    if (n > r->scap - r->slen) {
        void *p = r->sbuf;
        if (n > SIZE_MAX - r->slen || !pgnk_grow(&r->alloc, &p, &r->scap, r->slen + n, 1, 256)) {
            return 0;
        }
        r->sbuf = p;
    }
    memcpy(r->sbuf + r->slen, s, n);
    r->slen += n;
    return 1;
}

/* ---- tokens ---- */

static tok_kind fail(pgn_json_reader *r, tok *t, pgn_status code, pgn_loc at, const char *detail) {
    char ex[8];
    int c = peek(r);
    size_t n = 0;
    if (r->io_error) {
        /* the input failed inside a token: that is the error, not the token */
        t->err = PGN_E_IO;
        t->kind = T_ERROR;
        return T_ERROR;
    }
    if (c >= 0x20 && c < 0x7F) {
        ex[n++] = (char)c;
    }
    t->err = pgnk_json_error(r, code, at, ex, n, detail);
    t->kind = T_ERROR;
    return T_ERROR;
}

static tok_kind nomem(tok *t) {
    t->err = PGN_E_NOMEM;
    t->kind = T_ERROR;
    return T_ERROR;
}

static int hex_value(int c) {
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
        return c - 'A' + 10;
    }
    return -1;
}

/* Four hex digits after "\u"; -1 if they are not. */
static long hex4(pgn_json_reader *r) {
    long v = 0;
    for (int i = 0; i < 4; i++) {
        int h = hex_value(peek(r));
        if (h < 0) {
            return -1;
        }
        v = v * 16 + h;
        r->win_pos++;
    }
    return v;
}

/* An escape after the backslash (consumed); at is the backslash. */
static tok_kind escape(pgn_json_reader *r, tok *t, pgn_loc at) {
    static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
    int c = peek(r);
    const char *p = c > 0 ? strchr(from, c) : NULL;
    char out[4];
    if (p != NULL) {
        r->win_pos++;
        return sbuf_put(r, &to[p - from], 1) ? T_STRING : nomem(t);
    }
    if (c != 'u') {
        return fail(r, t, PGN_E_BAD_JSON, at, "unknown escape in a string");
    }
    r->win_pos++;
    long cp = hex4(r);
    if (cp < 0) {
        return fail(r, t, PGN_E_BAD_JSON, at, "\\u needs four hex digits");
    }
    if (cp >= 0xD800 && cp <= 0xDBFF) {
        long lo = -1;
        if (peek(r) == '\\') {
            r->win_pos++;
            if (peek(r) == 'u') {
                r->win_pos++;
                lo = hex4(r);
            }
        }
        if (lo < 0xDC00 || lo > 0xDFFF) {
            return fail(r, t, PGN_E_BAD_JSON, at, "high surrogate without its low surrogate");
        }
        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
    } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
        return fail(r, t, PGN_E_BAD_JSON, at, "low surrogate without its high surrogate");
    } /* \u0000 is kept: strings have a length, and PGN comments and tag values may hold a NUL */
    return sbuf_put(r, out, pgnk_utf8_encode((uint32_t)cp, out)) ? T_STRING : nomem(t);
}

/* A multi-byte UTF-8 sequence whose first byte c is next (RFC 3629). */
static tok_kind utf8_seq(pgn_json_reader *r, tok *t, int c) {
    pgn_loc at = here(r);
    char seq[4];
    unsigned lo, hi;
    int n = (int)pgnk_utf8_lead((unsigned)c, &lo, &hi);
    if (n == 0) {
        return fail(r, t, PGN_E_BAD_JSON, at, "byte that is not UTF-8");
    }
    seq[0] = (char)c;
    r->win_pos++;
    for (int i = 1; i < n; i++) {
        int b = peek(r);
        if (b < (int)lo || b > (int)hi) {
            return fail(r, t, PGN_E_BAD_JSON, at, "byte that is not UTF-8");
        }
        seq[i] = (char)b;
        r->win_pos++;
        lo = 0x80;
        hi = 0xBF;
    }
    return sbuf_put(r, seq, (size_t)n) ? T_STRING : nomem(t);
}

static tok_kind string_tok(pgn_json_reader *r, tok *t) {
    uint64_t start;
    r->win_pos++; /* the quote */
    start = r->win_offset + r->win_pos;
    for (;;) {
        int c = peek(r);
        if (r->slen > r->opts.max_token) {
            return fail(r, t, PGN_E_LIMIT, t->at, "string longer than max_token");
        }
        if (c == '"') {
            t->raw_len = (size_t)(r->win_offset + r->win_pos - start);
            r->win_pos++;
            if (!sbuf_put(r, "", 1)) {
                return nomem(t);
            }
            r->slen--; /* the NUL is kept but not counted */
            return T_STRING;
        }
        if (c < 0) {
            return fail(r, t, PGN_E_BAD_JSON, t->at, "string without its closing quote");
        }
        if (c < 0x20) {
            return fail(r, t, PGN_E_BAD_JSON, here(r),
                        "control character in a string (write it as \\u00XX)");
        }
        if (c == '\\') {
            pgn_loc at = here(r);
            r->win_pos++;
            if (escape(r, t, at) == T_ERROR) {
                return T_ERROR;
            }
        } else if (c >= 0x80) {
            if (utf8_seq(r, t, c) == T_ERROR) {
                return T_ERROR;
            }
        } else {
            /* a run of plain bytes in one copy */
            size_t i = r->win_pos, end = r->win_len;
            while (i < end) {
                unsigned char b = (unsigned char)r->win[i];
                if (b < 0x20 || b == '"' || b == '\\' || b >= 0x80) {
                    break;
                }
                i++;
            }
            if (!sbuf_put(r, r->win + r->win_pos, i - r->win_pos)) {
                return nomem(t);
            }
            r->win_pos = i;
        }
    }
}

static int is_digit(int c) {
    return c >= '0' && c <= '9';
}

/* Takes the next byte into the scratch if pred holds for it; returns whether it did. */
static int take_if(pgn_json_reader *r, int ok, int *nomem_) {
    if (!ok) {
        return 0;
    }
    char c = r->win[r->win_pos++];
    if (!sbuf_put(r, &c, 1)) {
        *nomem_ = 1;
    }
    return 1;
}

/* RFC 8259 §6: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? */
static tok_kind number_tok(pgn_json_reader *r, tok *t) {
    int oom = 0, digits = 0;
    take_if(r, peek(r) == '-', &oom);
    if (peek(r) == '0') {
        take_if(r, 1, &oom);
        if (is_digit(peek(r))) {
            return fail(r, t, PGN_E_BAD_JSON, here(r), "number with a leading zero");
        }
        digits = 1;
    }
    while (!digits && take_if(r, is_digit(peek(r)), &oom)) {
        while (take_if(r, is_digit(peek(r)), &oom)) {
        }
        digits = 1;
    }
    if (!digits) {
        return fail(r, t, PGN_E_BAD_JSON, here(r), "a digit must follow the minus sign");
    }
    if (take_if(r, peek(r) == '.', &oom)) {
        if (!take_if(r, is_digit(peek(r)), &oom)) {
            return fail(r, t, PGN_E_BAD_JSON, here(r), "a digit must follow the decimal point");
        }
        while (take_if(r, is_digit(peek(r)), &oom)) {
        }
    }
    if (take_if(r, peek(r) == 'e' || peek(r) == 'E', &oom)) {
        take_if(r, peek(r) == '+' || peek(r) == '-', &oom);
        if (!take_if(r, is_digit(peek(r)), &oom)) {
            return fail(r, t, PGN_E_BAD_JSON, here(r), "a digit must follow the exponent");
        }
        while (take_if(r, is_digit(peek(r)), &oom)) {
        }
    }
    if (r->slen > 64 || r->slen > r->opts.max_token) {
        return fail(r, t, PGN_E_LIMIT, t->at, "number longer than 64 characters");
    }
    if (oom || !sbuf_put(r, "", 1)) {
        return nomem(t);
    }
    r->slen--;
    return T_NUMBER;
}

static tok_kind literal_tok(pgn_json_reader *r, tok *t) {
    static const struct {
        const char *text;
        tok_kind kind;
    } words[] = {{"true", T_TRUE}, {"false", T_FALSE}, {"null", T_NULL}};
    char w[8];
    size_t n = 0;
    int c;
    while ((c = peek(r)) >= 'a' && c <= 'z' && n < sizeof w - 1) {
        w[n++] = (char)c;
        r->win_pos++;
    }
    w[n] = 0;
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        if (strcmp(w, words[i].text) == 0 && !(c >= 'a' && c <= 'z')) {
            return t->kind = words[i].kind;
        }
    }
    t->err = pgnk_json_error(r, PGN_E_BAD_JSON, t->at, w, n, "not a JSON value");
    return t->kind = T_ERROR;
}

/* Reads the next token; a string's or number's text is in r->sbuf (NUL-terminated). */
static tok_kind next_tok(pgn_json_reader *r, tok *t) {
    static const char punct[] = "{}[]:,";
    static const tok_kind kinds[] = {T_LBRACE, T_RBRACE, T_LBRACKET, T_RBRACKET, T_COLON, T_COMMA};
    skip_space(r);
    r->last_cr = 0;
    r->slen = 0;
    t->at = here(r);
    t->raw_len = 0;
    int c = peek(r);
    if (c < 0) {
        if (r->io_error) {
            t->err = PGN_E_IO;
            return t->kind = T_ERROR;
        }
        return t->kind = T_EOF;
    }
    const char *p = c > 0 ? strchr(punct, c) : NULL;
    if (p != NULL) {
        r->win_pos++;
        return t->kind = kinds[p - punct];
    }
    if (c == '"') {
        return t->kind = string_tok(r, t);
    }
    if (c == '-' || is_digit(c)) {
        return t->kind = number_tok(r, t);
    }
    if (c >= 'a' && c <= 'z') {
        return literal_tok(r, t);
    }
    if (c == 0xEF && t->at.offset == 0) {
        return fail(r, t, PGN_E_BAD_JSON, t->at, "byte order mark (RFC 8259 §8.1 forbids it)");
    }
    return fail(r, t, PGN_E_BAD_JSON, t->at, "character that starts no JSON token");
}

/* ---- one game object as a tree of values ---- */

static jval *new_value(pgn_json_reader *r, const tok *t) {
    jval *v = pgnk_arena_calloc(&r->arena, 1, sizeof *v);
    if (v == NULL) {
        return NULL;
    }
    v->at = t->at;
    switch (t->kind) {
    case T_LBRACE: v->type = JV_OBJECT; break;
    case T_LBRACKET: v->type = JV_ARRAY; break;
    case T_TRUE: v->type = JV_TRUE; break;
    case T_FALSE: v->type = JV_FALSE; break;
    case T_NULL: v->type = JV_NULL; break;
    case T_NUMBER:
    case T_STRING:
    default:
        v->type = t->kind == T_STRING ? JV_STRING : JV_NUMBER;
        v->str = pgnk_arena_strndup(&r->arena, r->sbuf, r->slen);
        v->len = r->slen;
        v->raw_len = t->raw_len;
        if (v->str == NULL) {
            return NULL;
        }
        break;
    }
    return v;
}

static int push_open(pgn_json_reader *r, jval *v) {
    if (r->depth == r->stack_cap) {
        void *s = r->stack;
        if (!pgnk_grow(&r->alloc, &s, &r->stack_cap, r->depth + 1, sizeof *r->stack, 32)) {
            return 0;
        }
        r->stack = s;
    }
    r->stack[r->depth].v = v;
    r->stack[r->depth].last = NULL;
    r->stack[r->depth].want = v->type == JV_OBJECT ? W_KEY_OR_CLOSE : W_VALUE_OR_CLOSE;
    r->depth++;
    return 1;
}

static const char *wanted(uint8_t want, uint8_t type) {
    switch (want) {
    case W_KEY_OR_CLOSE: return "expected a member name in quotes or }";
    case W_KEY: return "expected a member name in quotes";
    case W_VALUE: return "expected a value";
    case W_VALUE_OR_CLOSE: return "expected a value or ]";
    default: return type == JV_OBJECT ? "expected , or } after a member" : "expected , or ]";
    }
}

static pgn_status syntax(pgn_json_reader *r, const tok *t, const char *detail) {
    char ex[2] = {0, 0};
    static const char chars[] = " {}[]:,";
    if (t->kind == T_ERROR) {
        return t->err;
    }
    if (t->kind <= T_COMMA) {
        ex[0] = chars[t->kind];
    }
    return pgnk_json_error(r, PGN_E_BAD_JSON, t->at, ex, t->kind == T_EOF ? 0 : 1,
                           t->kind == T_EOF ? "the input ends inside a game" : detail);
}

/* A member name waiting for its value. */
typedef struct jkey {
    const char *name;
    size_t len;
    pgn_loc at;
} jkey;

/* After "{" or ",": the member name (t, a string) and its ":". */
static pgn_status member_name(pgn_json_reader *r, jopen *o, tok *t, jkey *key) {
    if (t->kind != T_STRING) {
        return syntax(r, t, wanted(o->want, o->v->type));
    }
    key->name = pgnk_arena_strndup(&r->arena, r->sbuf, r->slen);
    key->len = r->slen;
    key->at = t->at;
    if (key->name == NULL) {
        return PGN_E_NOMEM;
    }
    next_tok(r, t);
    if (t->kind == T_ERROR) {
        return t->err;
    }
    if (t->kind != T_COLON) {
        return syntax(r, t, "expected : after the member name");
    }
    o->want = W_VALUE;
    return PGN_OK;
}

/* The value that starts with t, appended to the open container o; a container is opened. */
static pgn_status add_value(pgn_json_reader *r, jopen *o, const tok *t, const jkey *key) {
    if (t->kind == T_EOF || t->kind == T_RBRACE || t->kind == T_RBRACKET || t->kind == T_COLON ||
        t->kind == T_COMMA) {
        return syntax(r, t, wanted(o->want, o->v->type));
    }
    jval *v = new_value(r, t);
    if (v == NULL) {
        return PGN_E_NOMEM;
    }
    if (o->v->type == JV_OBJECT) {
        v->key = key->name;
        v->key_len = key->len;
        v->key_at = key->at;
    }
    if (o->last != NULL) {
        o->last->next = v;
    } else {
        o->v->first = v;
    }
    o->last = v;
    o->want = W_COMMA_OR_CLOSE;
    if (v->type == JV_OBJECT || v->type == JV_ARRAY) {
        if (r->depth >= r->opts.max_depth) {
            return pgnk_json_error(r, PGN_E_LIMIT, t->at, t->kind == T_LBRACE ? "{" : "[", 1,
                                   "nested deeper than max_depth");
        }
        if (!push_open(r, v)) { /* o is not used after this: the stack may move */
            return PGN_E_NOMEM;
        }
    }
    return PGN_OK;
}

/* Parses the object whose "{" is t0 into *out, with an explicit stack of open containers. */
static pgn_status parse_object(pgn_json_reader *r, const tok *t0, jval **out) {
    tok t = *t0;
    jkey key = {NULL, 0, t0->at};
    pgn_status st = PGN_OK;
    r->depth = 0;
    jval *root = new_value(r, &t);
    if (root == NULL || !push_open(r, root)) {
        return PGN_E_NOMEM;
    }
    while (r->depth > 0 && st == PGN_OK) {
        jopen *o = &r->stack[r->depth - 1];
        next_tok(r, &t);
        if (t.kind == T_ERROR) {
            return t.err;
        }
        int closes = t.kind == (o->v->type == JV_OBJECT ? T_RBRACE : T_RBRACKET);
        switch (o->want) {
        case W_KEY_OR_CLOSE:
        case W_VALUE_OR_CLOSE:
            if (closes) {
                r->depth--;
            } else {
                st = o->want == W_KEY_OR_CLOSE ? member_name(r, o, &t, &key)
                                               : add_value(r, o, &t, &key);
            }
            break;
        case W_KEY: st = member_name(r, o, &t, &key); break;
        case W_VALUE: st = add_value(r, o, &t, &key); break;
        case W_COMMA_OR_CLOSE:
        default:
            if (t.kind == T_COMMA) {
                o->want = o->v->type == JV_OBJECT ? W_KEY : W_VALUE;
            } else if (closes) {
                r->depth--;
            } else {
                st = syntax(r, &t, wanted(o->want, o->v->type));
            }
            break;
        }
    }
    *out = root;
    return st;
}

/* ---- games ---- */

/* A fatal error: nothing more can be read. */
static pgn_status stop(pgn_json_reader *r, pgn_status st) {
    r->done = 1;
    return st;
}

pgn_status pgn_json_reader_next(pgn_json_reader *reader, pgn_game *game) {
    pgn_json_reader *r = reader;
    tok t;
    assert(r != NULL && game != NULL);
    pgn_game_reset(game);
    if (r->done) {
        return PGN_END;
    }
    pgnk_arena_reset(&r->arena);
    for (;;) {
        next_tok(r, &t);
        if (t.kind == T_ERROR) {
            return stop(r, t.err);
        }
        if (r->top == TOP_VALUE && t.kind == T_EOF) {
            return stop(r, PGN_END);
        }
        if (r->top == TOP_VALUE && t.kind == T_LBRACKET) {
            r->top = TOP_ARRAY_FIRST;
            continue;
        }
        if ((r->top == TOP_ARRAY_FIRST || r->top == TOP_ARRAY_NEXT) && t.kind == T_RBRACKET) {
            r->top = TOP_VALUE;
            continue;
        }
        if (r->top == TOP_ARRAY_NEXT && t.kind == T_COMMA) {
            r->top = TOP_ARRAY_ELEM;
            continue;
        }
        if (t.kind != T_LBRACE || r->top == TOP_ARRAY_NEXT) {
            static const char *const want[] = {
                "expected a game object or an array of games", "expected a game object or ]",
                "expected , or ] after a game", "expected a game object"};
            return stop(r, syntax(r, &t, want[r->top]));
        }
        break;
    }
    if (r->top != TOP_VALUE) {
        r->top = TOP_ARRAY_NEXT;
    }
    jval *v = NULL;
    pgn_status st = parse_object(r, &t, &v);
    if (st != PGN_OK) {
        return stop(r, st);
    }
    st = pgnk_json_build_game(r, v, game);
    r->games++;
    if (st == PGN_E_NOMEM) {
        return stop(r, st);
    }
    if (st != PGN_OK) {
        pgn_game_reset(game);
    }
    return st;
}
