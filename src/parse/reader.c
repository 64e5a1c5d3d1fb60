/* SPDX-License-Identifier: MIT */
/* The streaming PGN reader: finding games (PGN §8; digest §5.2 boundaries and recovery), tag pairs
 * (PGN §8.1), the start position (FEN, SetUp and Variant tags, PGN §9.7) and diagnostics. The
 * movetext is read by movetext.c, the result checked by results.c; the game tree is built by
 * builder.c. */
#include "parse.h"

#include <stdlib.h>
#include <string.h>

void *pgnk_reader_alloc(pgn_reader *r, void *old, size_t old_size, size_t size) {
    if (size == 0) {
        pgnk_free(&r->alloc, old);
        return NULL;
    }
    return pgnk_realloc(&r->alloc, old, old_size, size);
}

/* A diagnostic with the given severity; pgnk_reader_diag gives the usual one. */
void pgnk_reader_diag_sev(pgn_reader *r, pgn_status code, pgn_severity sev, pgn_loc at,
                          const char *text, size_t len) {
    if (r->lx.error == PGN_E_IO) {
        return; /* the input failed: what is left of the game was cut by that, not by its text */
    }
    pgn_diag d;
    d.code = code;
    d.severity = sev;
    d.at = at;
    d.game = r->games + 1;
    d.source = r->opts.source_name;
    d.token[0] = 0;
    memcpy(d.suggestions, r->diag_sugg, sizeof d.suggestions); /* repair.c, else empty */
    memcpy(d.replacement, r->diag_repl, sizeof d.replacement);
    r->diag_sugg[0] = 0;
    r->diag_repl[0] = 0;
    if (text && len) {
        pgnk_text_excerpt(r, d.token, sizeof d.token, text, len);
    }
    if (d.severity == PGN_SEV_ERROR) {
        if (r->sum.errors++ == 0) {
            r->sum.first_error = d;
        }
        r->sum.broken = 1;
        r->errors++;
    } else {
        r->sum.warnings++;
        r->warnings++;
    }
    if (r->build && pgn_game_add_diag(r->build, &d) != PGN_OK) {
        r->nomem = 1;
    }
    if (r->opts.on_diag) {
        r->opts.on_diag(r->opts.diag_ctx, &d);
    }
}

void pgnk_reader_diag(pgn_reader *r, pgn_status code, pgn_loc at, const char *text, size_t len) {
    int error = !pgn_status_is_warning(code) || (r->opts.flags & PGN_READ_STRICT);
    pgnk_reader_diag_sev(r, code, error ? PGN_SEV_ERROR : PGN_SEV_WARNING, at, text, len);
}

/* ---- creating ---- */

static pgn_status reader_make(pgn_reader **out, const pgn_reader_opts *opts) {
    const pgn_allocator *a = opts ? opts->alloc : NULL;
    pgn_reader *r;
    *out = NULL;
    pgn_status st;
    r = pgnk_alloc_object(a, sizeof *r, &st);
    if (r == NULL) {
        return st;
    }
    if (opts) {
        r->opts = *opts;
    }
    pgnk_alloc_copy(&r->alloc, a); /* the reader keeps no pointer of the caller's */
    r->opts.alloc = &r->alloc;
    if (!r->opts.max_token) {
        r->opts.max_token = (size_t)1 << 20;
    }
    if (!r->opts.max_depth) {
        r->opts.max_depth = 4096;
    }
    *out = r;
    return PGN_OK;
}

pgn_status pgn_reader_new(pgn_reader **out, const pgn_reader_opts *opts, pgn_read_fn read,
                          void *ctx) {
    pgn_status st = reader_make(out, opts);
    if (st == PGN_OK) {
        pgnk_lexer_init(&(*out)->lx, (*out)->opts.alloc, read, ctx, (*out)->opts.max_token);
        (*out)->lx.nested_comments = ((*out)->opts.flags & PGN_READ_NESTED_COMMENTS) != 0;
    }
    return st;
}

pgn_status pgn_reader_new_mem(pgn_reader **out, const pgn_reader_opts *opts, const void *data,
                              size_t len) {
    pgn_status st = reader_make(out, opts);
    if (st == PGN_OK) {
        pgnk_lexer_init_mem(&(*out)->lx, data, len, (*out)->opts.max_token);
        (*out)->lx.nested_comments = ((*out)->opts.flags & PGN_READ_NESTED_COMMENTS) != 0;
    }
    return st;
}

static ptrdiff_t read_file(void *ctx, void *buf, size_t cap) {
    size_t n = fread(buf, 1, cap, (FILE *)ctx);
    if (n == 0 && ferror((FILE *)ctx)) {
        return -1;
    }
    return (ptrdiff_t)n;
}

pgn_status pgn_reader_new_file(pgn_reader **out, const pgn_reader_opts *opts, FILE *file) {
    return pgn_reader_new(out, opts, read_file, file);
}

void pgn_reader_free(pgn_reader *r) {
    if (!r) {
        return;
    }
    pgnk_lexer_free(&r->lx);
    scratch *bufs[] = {&r->name, &r->value, &r->text, &r->tag_result, &r->fen, &r->tag_tails};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++) {
        pgnk_reader_alloc(r, bufs[i]->ptr, bufs[i]->cap, 0);
    }
    pgnk_reader_alloc(r, r->levels, r->levels_cap * sizeof *r->levels, 0);
    pgnk_reader_alloc(r, r->line_moves, r->line_cap * sizeof *r->line_moves, 0);
    pgnk_reader_alloc(r, r->build_stack, r->build_cap * sizeof *r->build_stack, 0);
    pgnk_reader_alloc(r, r->build_pending, r->build_pending_cap, 0);
    pgn_allocator a = r->alloc;
    pgnk_free(&a, r);
}

const pgn_game_summary *pgn_reader_summary(const pgn_reader *r) {
    return &r->sum;
}

pgn_str pgn_reader_raw(const pgn_reader *r) {
    pgn_str s = {"", 0};
    if ((r->opts.flags & PGN_READ_KEEP_RAW) && r->raw_end > r->raw_start) {
        s = pgnk_lexer_span(&r->lx, r->raw_start, r->raw_end);
    }
    return s;
}

pgn_str pgn_reader_raw_between(const pgn_reader *r, pgn_str *lead) {
    pgn_str s = {"", 0};
    if (lead) {
        *lead = s;
    }
    if (!(r->opts.flags & PGN_READ_KEEP_RAW) || r->raw_end <= r->raw_start) {
        return s;
    }
    if (lead && r->lead_start < r->raw_start && r->lead_start >= r->lx.base) {
        *lead = pgnk_lexer_span(&r->lx, r->lead_start, r->raw_start);
    }
    uint64_t end = r->text_end < r->raw_start ? r->raw_start
                   : r->text_end > r->raw_end ? r->raw_end
                                              : r->text_end;
    return pgnk_lexer_span(&r->lx, end, r->raw_end);
}

void pgn_reader_totals(const pgn_reader *r, uint64_t *games, uint64_t *errors, uint64_t *warnings) {
    if (games) {
        *games = r->games;
    }
    if (errors) {
        *errors = r->errors;
    }
    if (warnings) {
        *warnings = r->warnings;
    }
}

/* ---- finding games ---- */

static int is_digits(const char *p, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (p[i] < '0' || p[i] > '9') {
            return 0;
        }
    }
    return n > 0;
}

/* Could this symbol start a game without tags? A move number or something shaped like a move. */
static int starts_movetext(const token *t) {
    if (t->kind == TOK_STAR) {
        return 1; /* a marker alone is a whole game (the standard's grammar; issue 35) */
    }
    if (t->kind != TOK_SYMBOL) {
        return 0;
    }
    if (t->value != 0 || pgn_result_parse(t->ptr, t->len) != PGN_RESULT_NONE) {
        return 1; /* 1-0, 1/2-1/2 (0-1 already started one below) */
    }
    if (is_digits(t->ptr, t->len) ||
        (t->len >= 3 && (t->ptr[0] == 'O' || t->ptr[0] == '0') && t->ptr[1] == '-')) {
        return 1;
    }
    for (size_t i = 0; i + 1 < t->len; i++) {
        if (t->ptr[i] >= 'a' && t->ptr[i] <= 'h' && t->ptr[i + 1] >= '1' && t->ptr[i + 1] <= '8') {
            return t->len <= 10;
        }
    }
    return 0;
}

/* A forum's [pgn] or [/pgn] around a pasted game (the current token its '['), between games:
 * skipped with W_WRAPPER (issue 28 point 7). Returns 1 if it was one. */
static int skip_wrapper(pgn_reader *r) {
    size_t end = pgnk_lexer_wrapper(&r->lx);
    if (end == 0) {
        return 0;
    }
    token t = r->tok;
    t.len = 1 + end - r->lx.pos;
    t.ptr = r->lx.buf + r->lx.pos - 1;
    pgnk_reader_diag(r, PGN_W_WRAPPER, t.at, t.ptr, t.len);
    pgnk_lexer_take(&r->lx, end);
    reader_consume(r);
    return 1;
}

/* Skips what lies between games (white space, comments, stray text) up to the next game's first
 * token, which it leaves unread; sets next_known/next_start, or finished at the end. */
static void find_next_game(pgn_reader *r) {
    int have_comment = 0, warned = 0;
    uint64_t hold0 = r->lx.hold; /* what the window keeps already (a raw game's start) */
    uint64_t c_off = 0;
    pgn_loc c_loc = {0, 0, 0};
    uint8_t c_line = 0;
    for (;;) {
        if (!r->have_tok && lexer_next_game_bracket(&r->lx, &r->tok)) {
            r->have_tok = 1; /* the common case: an empty line, the next game's tags */
        }
        reader_next_token(r);
        token *t = &r->tok;
        if (t->kind == TOK_EOF) {
            r->finished = 1;
            r->raw_end = lexer_offset(&r->lx);
            return;
        }
        if (t->kind == TOK_LBRACKET && skip_wrapper(r)) {
            continue;
        }
        /* a ( can start a movetext too: the variation is then dropped (W_VARIATION_START, T53) */
        if (t->kind == TOK_LBRACKET || t->kind == TOK_LPAREN || starts_movetext(t)) {
            int from_comment = have_comment && t->kind != TOK_LBRACKET;
            r->next_known = 1;
            r->next_start = from_comment ? c_off : t->at.offset;
            r->next_loc = from_comment ? c_loc : t->at;
            r->next_line_start = from_comment ? c_line : t->line_start;
            r->next_boundary = t->kind == TOK_LBRACKET &&
                               pgnk_lexer_range_boundary(&r->lx, t->at.offset, r->opts.range_end);
            r->raw_end = r->next_start;
            return;
        }
        int lost = t->too_long || t->unterminated; /* text dropped, or run to a tag line (T49) */
        if (t->kind == TOK_COMMENT && !have_comment && !lost) {
            have_comment = 1;
            c_off = t->at.offset;
            c_loc = t->at;
            c_line = t->line_start;
            /* keep its bytes: it may be the next game's comment (the reader goes back to it) */
            r->lx.hold = c_off < hold0 ? c_off : hold0;
        } else if ((t->kind != TOK_COMMENT && t->kind != TOK_LINE_COMMENT) || lost) {
            /* a comment too long to keep (its text was dropped while it was read) cannot be
             * the next game's first comment: it is skipped text like any other; so is one never
             * closed (to the end, or to a tag line: T49), always said, as no game holds it */
            if (!warned || t->unterminated) {
                pgnk_reader_diag(r, PGN_W_SKIPPED_TEXT, t->at, t->ptr, t->len);
                warned = 1;
            }
            have_comment = 0;
            r->lx.hold = hold0;
        }
        reader_consume(r);
    }
}

/* ---- tags ---- */

static int valid_tag_name(const char *p, size_t n) {
    for (size_t i = 0; i < n; i++) {
        char c = p[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_')) {
            return 0;
        }
    }
    return 1;
}

enum { TAG_OK = 1, TAG_BAD = 0, TAG_NEW_GAME = 2 };

/* Where a tag pair starts: its '[' (location, first on its line, after an empty line) and the
 * lexer's hold before it. */
typedef struct tag_start {
    pgn_loc at;
    uint64_t hold;
    uint8_t line_start, blank;
    lexer_ws ws; /* the white space before it */
} tag_start;

/* A tag the game has, after an empty line: the next game's tags (back to it, blanks kept). */
static int tag_new_game(pgn_reader *r, const tag_start *ts) {
    pgnk_lexer_rewind_ws(&r->lx, ts->at.offset, ts->at, ts->line_start, ts->ws);
    r->lx.hold = ts->hold;
    r->have_tok = 0;
    return TAG_NEW_GAME;
}

/* b's text replaced by s's bytes, NUL-terminated: one copy where b holds them already. */
static inline int scratch_set(pgn_reader *r, scratch *b, pgn_str s) {
    if (s.len < b->cap) {
        memcpy(b->ptr, s.ptr, s.len);
        b->ptr[s.len] = 0;
        b->len = s.len;
        return 1;
    }
    b->len = 0;
    return pgnk_scratch_put(r, b, s.ptr, s.len);
}

static void scratch_str(pgn_str *s, const scratch *b) {
    s->ptr = b->ptr;
    s->len = b->len;
}

/* A plain tag pair in one block (lexer_tag): the block copied whole, a NUL put after the name
 * and over the closing quote (two fixed-size copies, no call). */
static inline void block_copy(pgn_reader *r, const lexer_tag *fast) {
    if (fast->block == 32) {
        memcpy(r->tag_line, fast->name.ptr, 32);
    } else {
        memcpy(r->tag_line, fast->name.ptr, 64);
    }
    size_t v = (size_t)(fast->value.ptr - fast->name.ptr);
    r->tag_line[fast->name.len] = 0;
    r->tag_line[v + fast->value.len] = 0;
    r->tag_name.ptr = r->tag_line;
    r->tag_value.ptr = r->tag_line + v;
}

/* A plain tag pair read by pgnk_lexer_peek_tag (end: the index past its ']'): nothing to decode. */
static int read_tag_fast(pgn_reader *r, const lexer_tag *fast, size_t end, const tag_start *ts,
                         pgn_loc *value_at) {
    if (pgnk_seen_tag(r, fast->name.ptr, fast->name.len)) {
        if (ts->blank) {
            return tag_new_game(r, ts);
        }
        pgnk_reader_diag(r, PGN_W_DUPLICATE_TAG, fast->name_at, fast->name.ptr, fast->name.len);
    } else if (r->nomem) {
        return TAG_BAD;
    }
    r->lx.hold = ts->hold;
    *value_at = fast->value_at;
    if ((r->opts.flags & PGN_READ_STRICT) && fast->value.len > 255) { /* PGN §7: at most 255 */
        pgnk_reader_diag(r, PGN_E_TOKEN_TOO_LONG, fast->value_at, NULL, 0);
    }
    r->tag_name = fast->name;
    r->tag_value = fast->value;
    if (r->v && r->v->tag && !(r->opts.flags & PGN_READ_TAG_SPANS) &&
        r->v != &pgnk_builder_visitor) {
        /* a visitor gets NUL-terminated copies, as from the slow path (the tree builder copies
         * the spans itself, as PGN_READ_TAG_SPANS allows) */
        if (fast->block) {
            block_copy(r, fast);
        } else {
            if (!scratch_set(r, &r->name, fast->name) || !scratch_set(r, &r->value, fast->value)) {
                return 0;
            }
            scratch_str(&r->tag_name, &r->name);
            scratch_str(&r->tag_value, &r->value);
        }
    }
    pgnk_lexer_take(&r->lx, end); /* the window stays as it is until the next token */
    return TAG_OK;
}

/* The tag name, token by token, into r->name: TAG_OK, TAG_NEW_GAME or TAG_BAD. */
static int read_tag_name(pgn_reader *r, const tag_start *ts) {
    reader_next_token(r);
    r->lx.hold = ts->hold;
    if (r->tok.kind == TOK_SYMBOL && pgnk_seen_tag(r, r->tok.ptr, r->tok.len)) {
        if (ts->blank) {
            return tag_new_game(r, ts);
        }
        pgnk_reader_diag(r, PGN_W_DUPLICATE_TAG, r->tok.at, r->tok.ptr, r->tok.len);
    } else if (r->nomem) {
        return TAG_BAD;
    }
    if (r->tok.kind == TOK_SYMBOL && r->tok.too_long) {
        pgnk_reader_diag(r, PGN_E_TOKEN_TOO_LONG, r->tok.at, NULL, 0);
        return TAG_BAD;
    }
    if (r->tok.kind != TOK_SYMBOL) {
        pgnk_reader_diag(r, PGN_E_BAD_TAG, r->tok.kind == TOK_EOF ? ts->at : r->tok.at, r->tok.ptr,
                         r->tok.len);
        return TAG_BAD;
    }
    if (!valid_tag_name(r->tok.ptr, r->tok.len)) {
        pgnk_reader_diag(r, PGN_W_TAG_NAME, r->tok.at, r->tok.ptr, r->tok.len);
    }
    r->name.len = 0;
    return pgnk_scratch_put(r, &r->name, r->tok.ptr, r->tok.len) ? TAG_OK : TAG_BAD;
}

/* The tag value after the name, token by token, into r->value, and the closing ']' (or a lax
 * value, lax_value). at: the tag pair's '['. */
static int read_tag_value(pgn_reader *r, pgn_loc at, pgn_loc *value_at) {
    reader_consume(r);
    reader_next_token(r);
    if (r->tok.unterminated && pgnk_tag_unclosed(r, value_at)) {
        return TAG_OK;
    }
    if (r->tok.kind != TOK_STRING || r->tok.unterminated) {
        pgnk_reader_diag(r, r->tok.kind == TOK_STRING ? PGN_E_UNTERMINATED_STRING : PGN_E_BAD_TAG,
                         r->tok.kind == TOK_EOF ? at : r->tok.at, r->tok.ptr, r->tok.len);
        if (r->tok.kind == TOK_STRING) {
            reader_consume(r);
        }
        return TAG_BAD;
    }
    *value_at = r->tok.at;
    if (r->tok.too_long) {
        pgnk_reader_diag(r, PGN_E_TOKEN_TOO_LONG, r->tok.at, NULL, 0);
    } else if ((r->opts.flags & PGN_READ_STRICT) && pgnk_tag_string_chars(&r->tok) > 255) {
        pgnk_reader_diag(r, PGN_E_TOKEN_TOO_LONG, r->tok.at, NULL, 0); /* PGN §7: at most 255 */
    }
    if (!pgnk_text_decode(r, &r->value, &r->tok, 1)) {
        return TAG_BAD;
    }
    size_t first_len = r->tok.len;
    uint64_t hold = r->lx.hold;
    if (r->lx.hold > value_at->offset) {
        r->lx.hold = value_at->offset; /* so that lax_value can go back to the quote */
    }
    reader_consume(r);
    reader_next_token(r);
    if (r->tok.kind != TOK_RBRACKET && !pgnk_tag_lax_value(r, *value_at, first_len)) {
        r->lx.hold = hold;
        pgnk_reader_diag(r, PGN_E_BAD_TAG, r->tok.kind == TOK_EOF ? at : r->tok.at, r->tok.ptr,
                         r->tok.len);
        return TAG_BAD;
    }
    r->lx.hold = hold;
    reader_consume(r);
    return value_at->line != 0 ? TAG_OK : TAG_BAD;
}

/* Reads one tag pair starting at '['. Returns TAG_BAD after a syntax error (already reported), or
 * TAG_NEW_GAME (nothing consumed) when a tag the game already has follows an empty line: the
 * tag section of the next game (lichess exports of tag-only games); likewise any tag after an
 * empty line once the section had a malformed tag pair, so that a damaged game does not take the
 * next game's tags. */
static int read_tag(pgn_reader *r, pgn_loc *value_at) {
    tag_start ts = {r->tok.at, r->lx.hold, r->tok.line_start, r->tok.blank_before, r->lx.ws};
    if (ts.blank && r->bad_tag) {
        return TAG_NEW_GAME; /* after a malformed tag pair, an empty line ends the tag section */
    }
    if (r->lx.hold > ts.at.offset) {
        r->lx.hold = ts.at.offset;
    }
    reader_consume(r);
    lexer_tag fast;
    size_t end = lexer_peek_tag(&r->lx, &fast);
    if (end) {
        return read_tag_fast(r, &fast, end, &ts, value_at);
    }
    int got = read_tag_name(r, &ts);
    got = got == TAG_OK ? read_tag_value(r, ts.at, value_at) : got;
    scratch_str(&r->tag_name, &r->name);
    scratch_str(&r->tag_value, &r->value);
    return got;
}

/* Parses the FEN tag's value (r->fen) in variant into r->start. report: bit 0 the error (and
 * fen_bad), bit 1 the tolerated quirks. Returns nonzero on success. */
static int parse_fen(pgn_reader *r, pgn_variant variant, int report) {
    pgn_fen_diag d;
    uint32_t flags = (r->opts.flags & PGN_READ_STRICT) ? PGN_FEN_STRICT : 0;
    if (pgn_fen_parse_variant(&r->start, variant, r->fen.ptr, r->fen.len, flags, &d) != PGN_OK) {
        if (report & 1) {
            pgn_loc where = r->fen_value_at; /* d.column counts from 1 after the quote */
            where.column += d.column;
            where.offset += d.column;
            pgnk_reader_diag(r, PGN_E_BAD_FEN, where, r->fen.ptr, r->fen.len);
            r->fen_bad = 1;
        }
        return 0;
    }
    r->fen_bad = 0;
    for (unsigned b = 0; b < 32 && (report & 2); b++) {
        if (d.warnings & (1u << b)) {
            pgnk_reader_diag(r, (pgn_status)(PGN_W_CASTLE_ZERO + b), r->fen_at, r->fen.ptr,
                             r->fen.len);
        }
    }
    return 1;
}

/* The FEN tag: read at once in the variant of a Variant tag before it, else as standard chess if
 * that reads it; otherwise (a variant's FEN before its Variant tag: pockets, a horde) it is read
 * at the end of the tags, in the game's variant (finish_start). */
static void note_fen(pgn_reader *r, pgn_loc at, pgn_loc value_at, const char *text, size_t len) {
    r->has_fen = 1;
    r->fen_at = at;
    r->fen_value_at = value_at;
    r->fen.len = 0;
    if (!pgnk_scratch_put(r, &r->fen, text, len)) {
        r->fen_bad = 1;
        return;
    }
    if (r->variant_bad) {
        r->fen_bad = 1; /* an unsupported variant's FEN: not judged, the game is refused */
    } else if (r->variant != PGN_VARIANT_STANDARD) {
        r->fen_variant = r->variant;
        parse_fen(r, (pgn_variant)r->variant, 3);
    } else {
        /* read: its quirks reported at the tag, as before; read again if a Variant tag follows */
        r->fen_variant = PGN_VARIANT_STANDARD;
        r->fen_pending = parse_fen(r, PGN_VARIANT_STANDARD, 2) ? 1 : 2;
    }
}

/* at: the tag's [; value_at: its value's opening quote. */
static void note_tag(pgn_reader *r, pgn_loc at, pgn_loc value_at, const char *fen_text,
                     size_t fen_len) {
    unsigned slot = r->tag_slot; /* the name's, pgnk_seen_tag found it */
    if (slot == PGNK_SLOT_FEN) {
        note_fen(r, at, value_at, fen_text, fen_len);
    } else if (slot == PGNK_SLOT_SETUP) {
        r->has_setup = 1;
    } else if (slot == PGNK_SLOT_VARIANT) {
        r->has_variant = 1;
        pgn_variant variant;
        pgn_str v = r->tag_value;
        int k = pgnk_reader_variant_kind(v.ptr, v.len, &variant);
        if (k == 0) {
            pgnk_reader_diag(r, PGN_E_UNSUPPORTED_VARIANT, at, v.ptr, v.len);
            r->variant_bad = 1;
        } else if (k == 3) {
            pgnk_reader_diag(r, PGN_W_VARIANT, at, v.ptr, v.len);
        }
        r->chess960 = k == 2;
        r->variant = (uint8_t)variant;
    } else if (slot == PGNK_SLOT_RESULT) {
        r->tag_result.len = 0;
        pgnk_scratch_put(r, &r->tag_result, r->tag_value.ptr, r->tag_value.len);
    }
}

/* After a bad tag pair: drops the rest of it, up to its ] or the end of its line, so that a bad
 * tag loses neither the movetext after it nor (by running into the next game's tags) the next game.
 */
static void skip_rest_of_line(pgn_reader *r) {
    for (;;) {
        reader_next_token(r);
        if (r->tok.kind == TOK_EOF || r->tok.line_start) {
            return;
        }
        reader_consume(r);
        if (r->tok.kind == TOK_RBRACKET) {
            return; /* the end of the bad tag pair: what follows on the line is read normally */
        }
    }
}

/* Reads the tag section; returns the flow of the visitor. */
static pgn_flow read_tags(pgn_reader *r) {
    pgn_flow flow = PGN_FLOW_CONTINUE;
    for (;;) {
        if (!r->have_tok) {
            r->have_tok = (uint8_t)lexer_next_bracket(&r->lx, &r->tok); /* the next tag pair's [ */
            if (!r->have_tok && lexer_movetext_start(&r->lx)) {
                break; /* an empty line, then the first move number: no token read here */
            }
        }
        reader_next_token(r);
        if (r->tok.kind != TOK_LBRACKET) {
            break;
        }
        pgn_loc at = r->tok.at, value_at = {0, 0, 0};
        int got = read_tag(r, &value_at);
        if (got == TAG_NEW_GAME) {
            break;
        }
        if (got == TAG_BAD) {
            r->bad_tag = 1;
            if (r->nomem) {
                return PGN_FLOW_STOP;
            }
            skip_rest_of_line(r);
            continue;
        }
        note_tag(r, at, value_at, r->tag_value.ptr, r->tag_value.len);
        if (r->v && r->v->tag && flow == PGN_FLOW_CONTINUE) {
            flow = r->v->tag(r->user, r->tag_name, r->tag_value); /* after STOP, still read */
        }
    }
    return flow;
}

/* The game's start without a FEN: the variant's initial position; the standard one is built
 * once per reader and copied (most games start there). */
static void start_position(pgn_reader *r) {
    if (r->variant != PGN_VARIANT_STANDARD) {
        pgn_pos_init_variant(&r->start, (pgn_variant)r->variant);
        return;
    }
    if (!r->std_start_ready) {
        pgn_pos_init_variant(&r->std_start, PGN_VARIANT_STANDARD);
        r->std_start_ready = 1;
    }
    r->start = r->std_start;
}

static void finish_start(pgn_reader *r) {
    if (!r->has_variant && !(r->opts.flags & PGN_READ_NO_BOARD) && pgnk_drop_ahead(r)) {
        r->variant = PGN_VARIANT_CRAZYHOUSE; /* drops without a Variant tag (W_DROP_CRAZYHOUSE) */
    }
    if (r->variant_bad) {
        r->fen_bad = r->has_fen; /* not judged: the game is refused (E_UNSUPPORTED_VARIANT) */
    } else if (r->fen_pending == 2) {
        parse_fen(r, (pgn_variant)r->variant, 3); /* standard chess could not read it */
    } else if (r->has_fen && !r->fen_bad && r->fen_variant != r->variant) {
        /* read in another variant than the game's: as standard before the Variant tag, or under
         * a first Variant tag when a second one follows (W_DUPLICATE_TAG: the game keeps the
         * last, and so does its start, or the export would not read back) */
        parse_fen(r, (pgn_variant)r->variant, 1);
    }
    if ((r->fen_bad || !r->has_fen) && !(r->opts.flags & PGN_READ_NO_BOARD)) {
        start_position(r); /* a tag-only pass builds none */
    }
    if (r->chess960) {
        r->start.chess960 = 1;
    }
    if (r->has_fen && !r->has_setup && !r->fen_bad) {
        pgn_loc at = r->sum.start;
        pgnk_reader_diag(r, PGN_W_FEN_WITHOUT_SETUP, at, "FEN", 3);
    }
}

/* ---- a whole game ---- */

static void reset_game(pgn_reader *r) {
    memset(&r->sum, 0, sizeof r->sum);
    r->sum.game = r->games + 1;
    r->encoding_warned = r->fen_bad = r->variant_bad = r->chess960 = 0;
    r->variant = PGN_VARIANT_STANDARD;
    r->fen_pending = r->fen_variant = 0;
    r->has_fen = r->has_setup = r->skip_movetext = r->bad_tag = r->move_skip = 0;
    r->has_variant = r->drop_warn = 0;
    r->tag_result.len = 0;
    r->tag_seen_count = r->tag_other_count = 0;
    r->tag_tails.len = 0;
    r->tag_filter = r->tag_known = 0;
    r->marker = PGN_RESULT_NONE;
    r->depth = 0;
}

/* At the first game: a range reader moves to its range's first game; a UTF-16 stream is refused
 * (not misread: every other byte would be a NUL, docs/pgn-dialect.md). */
static void start_stream(pgn_reader *r) {
    r->started = 1;
    if (r->opts.range_start > 0) {
        r->lx.base = r->opts.range_start;
        r->lx.line_off = r->opts.range_start;
        r->lx.line = r->opts.line_base ? r->opts.line_base : 1;
        r->lx.at_line_start = (r->opts.flags & PGN_READ_RANGE_AT_GAME) != 0;
        if (!r->lx.at_line_start) {
            r->finished = !pgnk_lexer_skip_to_range_start(&r->lx, r->opts.range_end);
        }
    } else if (pgnk_lexer_utf16_bom(&r->lx)) {
        pgn_loc at = {0, 1, 1};
        pgnk_reader_diag(r, PGN_E_UTF16, at, NULL, 0);
        r->finished = 1;
    } else if ((r->opts.flags & (PGN_READ_KEEP_RAW | PGN_READ_KEEP_LEAD)) ==
               (PGN_READ_KEEP_RAW | PGN_READ_KEEP_LEAD)) { /* the text before the first game */
        r->lx.hold = 0;
        r->lead_kept = 1;
    }
}

/* The game's tags and movetext, with the visitor's begin_game and end_tags; a STOP reads the rest
 * of the game without the visitor, so that the next one starts in the right place. */
static void read_game_body(pgn_reader *r) {
    pgn_flow flow =
        r->v && r->v->begin_game ? r->v->begin_game(r->user, r->next_loc) : PGN_FLOW_CONTINUE;
    const pgn_visitor *v = r->v;
    if (flow == PGN_FLOW_STOP) {
        r->v = NULL;
    }
    flow = read_tags(r);
    finish_start(r);
    r->skip_movetext = r->fen_bad || r->variant_bad;
    if (flow != PGN_FLOW_STOP && r->v && r->v->end_tags) {
        flow = r->v->end_tags(r->user, (r->opts.flags & PGN_READ_NO_BOARD) ? NULL : &r->start);
    }
    if (flow != PGN_FLOW_CONTINUE) {
        r->skip_movetext = 2;
    }
    if (flow == PGN_FLOW_STOP) {
        r->v = NULL;
    }
    pgnk_movetext_read(r);
    r->stop = r->v == NULL && !r->move_skip;
    r->v = v;
}

/* The status of a game read to its end: an out-of-memory or input error, the error limit, or OK. */
static pgn_status game_status(const pgn_reader *r) {
    if (r->nomem) {
        return PGN_E_NOMEM;
    }
    if (r->lx.error != PGN_OK) {
        return r->lx.error;
    }
    if (r->opts.max_errors && r->errors >= r->opts.max_errors) {
        return PGN_E_LIMIT;
    }
    return PGN_OK;
}

static pgn_status read_game(pgn_reader *r) {
    if (!r->started) {
        start_stream(r);
    }
    if (!r->next_known && !r->finished) {
        find_next_game(r);
    }
    if (r->finished || r->next_boundary) {
        r->finished = 1;
        return r->lx.error != PGN_OK ? r->lx.error : PGN_END;
    }
    reset_game(r);
    r->next_known = 0;
    r->raw_start = r->next_start;
    r->lead_start = r->lead_kept ? 0 : r->raw_start; /* the first game's lead, once */
    r->lead_kept = 0;
    r->lx.hold = (r->opts.flags & PGN_READ_KEEP_RAW) ? r->lead_start : UINT64_MAX;
    pgnk_lexer_rewind(&r->lx, r->next_start, r->next_loc, r->next_line_start);
    r->have_tok = 0;
    r->sum.start = r->next_loc;
    read_game_body(r);
    r->sum.end_offset = lexer_offset(&r->lx);
    r->text_end = r->have_tok ? r->tok.at.offset : r->sum.end_offset; /* a token left unread
                                                                          is the next game's */
    pgn_result res = pgnk_reader_result(r);
    r->sum.marker = r->marker;
    find_next_game(r); /* the game's raw bytes end where the next one starts */
    r->sum.end_offset = r->raw_end;
    if (r->lx.error == PGN_E_IO) {
        return PGN_E_IO; /* not a game: the input failed while it was read (not counted) */
    }
    r->games++;
    if (!r->stop && r->v && r->v->end_game) {
        int board = !(r->opts.flags & PGN_READ_NO_BOARD) && !r->skip_movetext && r->depth > 0;
        r->sum.final_pos = board ? &r->levels[0].pos : NULL;
        r->stop = r->v->end_game(r->user, res, &r->sum) == PGN_FLOW_STOP;
        r->sum.final_pos = NULL;
    }
    return game_status(r);
}

pgn_status pgn_reader_visit(pgn_reader *r, const pgn_visitor *v, void *user) {
    r->v = v;
    r->user = user;
    return read_game(r);
}

pgn_status pgn_reader_next(pgn_reader *r, pgn_game *game) {
    builder b;
    pgnk_builder_start(&b, r, game);
    pgn_game_reset(game);
    r->build = game;
    pgn_status st = pgn_reader_visit(r, &pgnk_builder_visitor, &b);
    r->build = NULL;
    pgnk_builder_finish(&b, r);
    if (st == PGN_OK && b.status != PGN_OK) {
        st = b.status;
    }
    return st;
}
