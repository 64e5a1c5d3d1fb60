/* SPDX-License-Identifier: MIT */
/* The reader's fast paths against their truth. Tag values (PGN §8.1.1, §7: a string holds the
 * characters between its quotes, with \" and \\ escapes; UTF-8 bytes are kept): every length up
 * to 24 and every place of an escape or a UTF-8 character in it, behind tag names of 1 to 8
 * bytes, so that the word-at-a-time scan meets each stop at each offset of its 8-byte words.
 * Variations (PGN §8.2.5: a RAV replaces the move before it): random legal games made with the
 * library's move generator (checked by perft elsewhere), with one, two or three alternatives
 * after every move, some nested, must read back without a diagnostic and with every move in
 * its place: a variation started from any other position than the one before the move it
 * replaces would find its first move illegal or resolve it elsewhere.
 * The movetext scan's byte classes (issue 32; SSE2, AVX2 or plain C, whichever this build runs):
 * every byte value at every place of 64 bytes, and random bytes at every length, against PGN
 * §7's symbol characters (letters, digits, _+#=:-/; and @ of a crazyhouse drop), and the syntax
 * pass's other classes (letters, periods, blanks, LF, CR). Moves and
 * errors at every offset of those 64 bytes: the same games with 0 to 70 spaces before them, a
 * bad move at the end whose diagnostic must name its own line and column, and symbols of 16 and
 * 17 bytes (the fast scan's longest, and one more). The tree builder's moves, which the fast
 * path reads and plays in one pass (issue 32): the same moves at the same places as a visitor
 * sees them with their positions, each node's kept SAN the canonical text it was read from. The
 * syntax pass's blocks of 64 bytes against the token reader: random movetext read whole and a
 * few bytes at a time gives the same diagnostics, games and plies. */
#include "harness.h"
#include "testutil.h"
#include "pgnkit.h"

#include "../../src/parse/lexer.h"

#include <stdlib.h>

static pgn_game *read_text(const char *text, size_t len) {
    pgn_game *g = NULL;
    pgn_reader *r = NULL;
    if (pgn_game_new(&g, NULL) != PGN_OK || pgn_reader_new_mem(&r, NULL, text, len) != PGN_OK ||
        pgn_reader_next(r, g) != PGN_OK) {
        harness_fail(__FILE__, __LINE__, "cannot read %.60s", text);
    }
    pgn_reader_free(r);
    return g;
}

/* A tag named name_len letters whose value (written as raw) reads as want. */
static void check_tag(size_t name_len, const char *raw, const char *want) {
    char name[9] = "ABCDEFGH", text[256];
    name[name_len] = 0;
    int n = snprintf(text, sizeof text, "[%s \"%s\"]\n[Z \"z\"]\n\n1. e4 *\n", name, raw);
    pgn_game *g = read_text(text, (size_t)n);
    CHECK_EQ_INT(pgn_game_tag_count(g), 2);
    pgn_str v = pgn_game_tag_value(g, 0), z = pgn_game_tag_value(g, 1);
    if (v.len != strlen(want) || memcmp(v.ptr, want, v.len) != 0) {
        harness_fail(__FILE__, __LINE__, "[%s \"%s\"] read as \"%.*s\", not \"%s\"", name, raw,
                     (int)v.len, v.ptr, want);
    } else {
        harness_counts.passed++;
    }
    CHECK(z.len == 1 && z.ptr[0] == 'z');
    pgn_game_free(g);
}

static void test_tag_values(void) {
    static const struct {
        const char *raw, *read;
    } specials[] = {{"\\\"", "\""}, {"\\\\", "\\"}, {"\xC3\xA9", "\xC3\xA9"}};
    char raw[64], want[64];
    for (size_t name_len = 1; name_len <= 8; name_len++) {
        for (size_t len = 0; len <= 24; len++) {
            for (size_t i = 0; i < len; i++) {
                raw[i] = (char)('a' + i % 26);
            }
            raw[len] = 0;
            check_tag(name_len, raw, raw);
            for (size_t k = 0; k < len; k++) {
                for (size_t s = 0; s < sizeof specials / sizeof specials[0]; s++) {
                    size_t rl = strlen(specials[s].raw), wl = strlen(specials[s].read);
                    memcpy(want, raw, k);
                    memcpy(want + k, specials[s].read, wl);
                    strcpy(want + k + wl, raw + k + 1);
                    char r2[64];
                    memcpy(r2, raw, k);
                    memcpy(r2 + k, specials[s].raw, rl);
                    strcpy(r2 + k + rl, raw + k + 1);
                    check_tag(name_len, r2, want);
                }
            }
        }
    }
}

/* The tag-pair scan (pgnk_lexer_peek_tag, 16 bytes at a time where there is SSE2) against its
 * rule written byte by byte (lexer.h): blanks, a name of 1 to 255 letters, digits or '_',
 * blanks, a quote, printable ASCII but '"' and '\', a quote, blanks, ']'. Each text is copied to
 * a heap block of its exact size, so that a read past the window's end is caught (ASan). */
static int is_name_byte(unsigned c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static size_t ref_blanks(const unsigned char *b, size_t i, size_t len) {
    while (i < len && (b[i] == ' ' || b[i] == '\t')) {
        i++;
    }
    return i;
}

static size_t ref_peek_tag(const unsigned char *b, size_t len, size_t f[4]) {
    size_t i = ref_blanks(b, 0, len);
    f[0] = i;
    while (i < len && is_name_byte(b[i])) {
        i++;
    }
    f[1] = i - f[0];
    if (f[1] == 0 || f[1] > 255) {
        return 0;
    }
    i = ref_blanks(b, i, len);
    if (i >= len || b[i] != '"') {
        return 0;
    }
    f[2] = ++i;
    while (i < len && b[i] >= 0x20 && b[i] < 0x7f && b[i] != '"' && b[i] != '\\') {
        i++;
    }
    if (i >= len || b[i] != '"') {
        return 0;
    }
    f[3] = i - f[2];
    i = ref_blanks(b, i + 1, len);
    return i < len && b[i] == ']' ? i + 1 : 0;
}

static void check_peek(const unsigned char *text, size_t len) {
    unsigned char *b = malloc(len ? len : 1);
    if (!b) {
        harness_fail(__FILE__, __LINE__, "out of memory");
        return;
    }
    memcpy(b, text, len);
    lexer lx;
    pgnk_lexer_init_mem(&lx, b, len, 1u << 20);
    lexer_tag t;
    size_t f[4] = {0, 0, 0, 0}, want = ref_peek_tag(b, len, f), got = pgnk_lexer_peek_tag(&lx, &t);
    int same = got == want;
    if (same && got) {
        same = t.name.ptr == (const char *)b + f[0] && t.name.len == f[1] &&
               t.value.ptr == (const char *)b + f[2] && t.value.len == f[3] &&
               t.name_at.offset == f[0] && t.name_at.column == f[0] + 1 &&
               t.value_at.offset == f[2] - 1 && t.value_at.column == f[2] && t.value_at.line == 1;
        /* the block that holds the pair from its name to its ']' (got - 1), within the text */
        size_t span = got - f[0];
        unsigned block = len - f[0] >= 32 && span <= 32   ? 32
                         : len - f[0] >= 64 && span <= 64 ? 64
                                                          : 0;
        same = same && t.block == block;
    }
    if (!same) {
        harness_fail(__FILE__, __LINE__, "tag scan of %zu bytes \"%.*s\": %zu, not %zu", len,
                     (int)len, (const char *)b, got, want);
    } else {
        harness_counts.passed++;
    }
    pgnk_lexer_free(&lx);
    free(b);
}

/* check_peek on text followed by bytes up to a length of 64 to 79 (fill picks them), so that the
 * 32-byte scan of a long window reads it too. */
static void check_peek_long(const unsigned char *text, size_t len, unsigned fill) {
    static const unsigned char pad[] = "\n[Site \"x\"]\n aZ9_\t\"\\]\x7f\x80\x1f";
    unsigned char b[128];
    size_t n = 64 + fill % 16;
    memcpy(b, text, len);
    for (size_t j = len; j < n; j++) {
        b[j] = pad[(fill + j) % (sizeof pad - 1)];
    }
    check_peek(b, len > n ? len : n);
}

static void test_peek_tag(void) {
    unsigned char text[128];
    /* every byte value at every place of names of 1 to 40 bytes and of values of 0 to 40 */
    for (size_t n = 1; n <= 40; n++) {
        for (size_t k = 0; k < n + 3; k++) {
            for (unsigned c = 0; c < 256; c++) {
                size_t len = 0;
                for (size_t j = 0; j < n; j++) {
                    text[len++] = (unsigned char)"AbZz09_q"[j % 8];
                }
                memcpy(text + len, " \"v\"]", 5);
                len += 5;
                text[k] = (unsigned char)c;
                check_peek(text, len);
                check_peek_long(text, len, c + (unsigned)k);
                size_t v = 3 + n; /* the value's first byte, after [x "] */
                memcpy(text, "x \"", 3);
                memset(text + 3, 'v', n);
                memcpy(text + v, "\"]", 2);
                text[3 + (k < n ? k : n - 1)] = (unsigned char)c;
                check_peek(text, v + 2);
                check_peek_long(text, v + 2, c ^ (unsigned)n);
            }
        }
    }
    /* pairs whose quotes, blanks and ']' fall on each side of the 32nd and the 64th byte */
    for (size_t val = 10; val < 66; val++) {
        for (unsigned blanks = 0; blanks < 4; blanks++) {
            size_t len = 0;
            memcpy(text, " Event  \"", 9);
            len = 9;
            memset(text + len, 'v', val);
            len += val;
            text[len++] = '"';
            memset(text + len, blanks & 1 ? '\t' : ' ', blanks);
            len += blanks;
            text[len++] = ']';
            check_peek(text, len);
            check_peek_long(text, len, (unsigned)val);
            check_peek(text, len - 1); /* the ']' missing at the window's end */
        }
    }
    /* random texts of the bytes that decide, at every length */
    static const unsigned char pick[] = "aZ9_ \t\"\\]@[`{/:\x7f\x80\xc3\x1f\n";
    uint64_t seed = 0x9E3779B97F4A7C15u;
    for (int round = 0; round < 200000; round++) {
        size_t len = (size_t)(round % 100); /* from 32 on: the 32-byte scan's ends too */
        for (size_t j = 0; j < len; j++) {
            seed = seed * 6364136223846793005u + 1442695040888963407u;
            unsigned r = (unsigned)(seed >> 33);
            text[j] =
                (r & 3) ? (unsigned char)"Ab_9"[r >> 2 & 3] : pick[(r >> 4) % (sizeof pick - 1)];
        }
        if (len > 4 && (round & 1)) { /* often well formed but for a few bytes */
            memcpy(text + len / 3, " \"", 2);
            text[len - 2] = '"';
            text[len - 1] = ']';
        }
        check_peek(text, len);
    }
}

/* What a visitor gets of a tag pair: NUL-terminated copies of its name and value (the plain
 * pair's block copied whole, lexer_tag), equal to the text; pairs of names of 1 to 20 bytes and
 * values of 0 to 70 bytes, so that the pair fits a block of 32 bytes, of 64, or neither, before
 * texts that end right after it or hold more, each in a heap block of its exact size (ASan). */
typedef struct tag_want {
    const char *name, *value;
    size_t name_len, value_len;
    int tags, good;
} tag_want;

static pgn_flow want_tag(void *user, pgn_str name, pgn_str value) {
    tag_want *w = user;
    if (w->tags++ == 0) {
        w->good = name.len == w->name_len && value.len == w->value_len &&
                  memcmp(name.ptr, w->name, name.len) == 0 && name.ptr[name.len] == 0 &&
                  memcmp(value.ptr, w->value, value.len) == 0 && value.ptr[value.len] == 0;
    }
    return PGN_FLOW_CONTINUE;
}

static void test_tag_copies(void) {
    char name[21], value[71];
    for (size_t i = 0; i < sizeof value; i++) {
        value[i] = (char)(' ' + 1 + i % 90 + (i % 90 >= 1)); /* printable, no '"' */
        value[i] = value[i] == '\\' ? '/' : value[i];
    }
    for (size_t i = 0; i < sizeof name; i++) {
        name[i] = "Ab_9"[i % 4];
    }
    pgn_visitor v = {0};
    v.tag = want_tag;
    for (size_t n = 1; n <= 20; n++) {
        for (size_t k = 0; k <= 70; k++) {
            for (int tail = 0; tail < 2; tail++) {
                buf b = {0};
                buf_printf(&b, "[%.*s \"%.*s\"]%s", (int)n, name, (int)k, value,
                           tail ? "\n[Z \"z\"]\n\n1. e4 e5 *\n" : "");
                char *text = malloc(b.len);
                if (!text) {
                    harness_fail(__FILE__, __LINE__, "out of memory");
                    buf_free(&b);
                    return;
                }
                memcpy(text, b.p, b.len);
                tag_want w = {name, value, n, k, 0, 0};
                pgn_reader *r = NULL;
                CHECK(pgn_reader_new_mem(&r, NULL, text, b.len) == PGN_OK);
                CHECK(pgn_reader_visit(r, &v, &w) == PGN_OK);
                if (!w.good || w.tags != 1 + tail) {
                    harness_fail(__FILE__, __LINE__, "[%zu-byte name \"%zu bytes\"]: %d tags, %s",
                                 n, k, w.tags, w.good ? "good" : "not as written");
                } else {
                    harness_counts.passed++;
                }
                pgn_reader_free(r);
                free(text);
                buf_free(&b);
            }
        }
    }
}

/* A repeated tag name (W_DUPLICATE_TAG) is the same name byte for byte (PGN §8.1: a name is
 * case-sensitive): 50 names of n bytes (1 to 40) that differ from one another in one byte, at
 * every place in turn, none a repeat, half of them read by the tokens (an escape in the value),
 * then the first again, the one repeat. */
static void count_duplicates(void *ctx, const pgn_diag *d) {
    if (d->code == PGN_W_DUPLICATE_TAG) {
        ++*(int *)ctx;
    }
}

/* Reads the one game of b: its W_DUPLICATE_TAG diagnostics, *tags its tag count. */
static int read_counting_duplicates(const buf *b, size_t *tags) {
    int dups = 0;
    pgn_reader_opts o = {0};
    o.on_diag = count_duplicates;
    o.diag_ctx = &dups;
    pgn_reader *r = NULL;
    pgn_game *g = NULL;
    CHECK(pgn_game_new(&g, NULL) == PGN_OK);
    CHECK(pgn_reader_new_mem(&r, &o, b->p, b->len) == PGN_OK);
    CHECK(pgn_reader_next(r, g) == PGN_OK);
    *tags = pgn_game_tag_count(g);
    pgn_reader_free(r);
    pgn_game_free(g);
    return dups;
}

static void test_tag_names(void) {
    static const char alpha[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_";
    for (size_t n = 1; n <= 40; n++) {
        buf b = {0};
        char name[41];
        for (size_t j = 0; j <= 50; j++) {
            size_t jj = j == 50 ? 0 : j;
            memset(name, 'a', n);
            name[jj % n] = alpha[1 + jj / n];
            buf_printf(&b, "[%.*s \"%s\"]\n", (int)n, name, j % 2 ? "\\\"x" : "x");
        }
        buf_str(&b, "\n*\n");
        size_t tags = 0;
        int dups = read_counting_duplicates(&b, &tags);
        if (dups != 1 || tags != 50) {
            harness_fail(__FILE__, __LINE__, "names of %zu bytes: %d repeats, %zu tags", n, dups,
                         tags);
        } else {
            harness_counts.passed++;
        }
        buf_free(&b);
    }
}

/* The common names (read by one bit each, src/parse/tag_names.c), names near them and others,
 * more than 64 in all, in random orders with repeats: the repeats of the game's first 64 names
 * are W_DUPLICATE_TAG, the game keeps each name once. */
static void test_common_tag_names(void) {
    static const char *const common[] = {"Event",
                                         "Site",
                                         "Date",
                                         "Round",
                                         "White",
                                         "Black",
                                         "Result",
                                         "ECO",
                                         "WhiteElo",
                                         "BlackElo",
                                         "PlyCount",
                                         "EventDate",
                                         "Annotator",
                                         "TimeControl",
                                         "Opening",
                                         "Variation",
                                         "SetUp",
                                         "Termination",
                                         "WhiteTitle",
                                         "BlackTitle",
                                         "WhiteFideId",
                                         "BlackFideId",
                                         "EventType",
                                         "WhiteTeam",
                                         "BlackTeam",
                                         "UTCDate",
                                         "UTCTime",
                                         "Source",
                                         "WhiteRatingDiff",
                                         "BlackRatingDiff",
                                         "event",
                                         "EVENT",
                                         "Events",
                                         "Even",
                                         "Whit",
                                         "ECO_",
                                         "Setup",
                                         "ResultX",
                                         "X",
                                         "Y1",
                                         "PlyCounts",
                                         "WhiteFideIds",
                                         "WhiteRatingDiffs",
                                         "BlackRatingDiffXYZ",
                                         "E"};
    enum { NCOMMON = sizeof common / sizeof common[0], POOL = NCOMMON + 40 };
    uint64_t seed = 0x2545F4914F6CDD1Du;
    for (int round = 0; round < 300; round++) {
        buf b = {0};
        char names[POOL][24];
        int first[POOL], seen = 0, want_dups = 0, distinct = 0;
        for (int k = 0; k < POOL; k++) {
            snprintf(names[k], sizeof names[k], "%s", k < NCOMMON ? common[k] : "N");
            if (k >= NCOMMON) {
                snprintf(names[k], sizeof names[k], "N%d", k);
            }
            first[k] = -1;
        }
        int tags = 1 + round % 150;
        for (int t = 0; t < tags; t++) {
            seed = seed * 6364136223846793005u + 1442695040888963407u;
            int k = (int)((seed >> 33) % (round % 3 ? NCOMMON : POOL));
            buf_printf(&b, "[%s \"%d\"]\n", names[k], t);
            if (first[k] < 0) {
                first[k] = seen < 64 ? seen++ : 64; /* 64: past the names noted */
                distinct++;
            } else if (first[k] < 64) {
                want_dups++;
            }
        }
        buf_str(&b, "\n*\n");
        size_t kept = 0;
        int dups = read_counting_duplicates(&b, &kept);
        if (dups != want_dups || kept != (size_t)distinct) {
            harness_fail(__FILE__, __LINE__, "round %d: %d repeats (not %d), %zu tags (not %d)",
                         round, dups, want_dups, kept, distinct);
        } else {
            harness_counts.passed++;
        }
        buf_free(&b);
    }
}

/* Appends the SAN of mv in pos and a space. */
static void put_move(buf *b, const pgn_pos *pos, pgn_move mv) {
    char san[PGN_SAN_MAX + 1];
    size_t n = pgn_san_write(pos, mv, san);
    if (pos->side == PGN_WHITE) {
        buf_printf(b, "%u. ", (unsigned)pos->fullmove);
    } else {
        buf_printf(b, "%u... ", (unsigned)pos->fullmove);
    }
    buf_put(b, san, n);
    buf_put(b, " ", 1);
}

/* A random legal game of up to plies moves, each followed by up to three variations (their first
 * move another legal move from the same position, some with a second move and a nested
 * variation). Returns the number of moves written (main line and variations). */
static size_t make_game(buf *b, unsigned seed, int plies) {
    pgn_pos pos, alt;
    pgn_movelist ml, ml2;
    size_t moves = 0;
    srand(seed);
    pgn_pos_init(&pos);
    buf_printf(b, "[Event \"rav %u\"]\n\n", seed);
    for (int p = 0; p < plies; p++) {
        pgn_pos_legal_moves(&pos, &ml);
        if (ml.count == 0) {
            break;
        }
        pgn_move mv = ml.moves[(unsigned)rand() % ml.count];
        put_move(b, &pos, mv);
        moves++;
        int vars = rand() % 4;
        for (int v = 0; v < vars && ml.count > 1; v++) {
            pgn_move other = ml.moves[(unsigned)rand() % ml.count];
            if (other == mv) {
                continue;
            }
            buf_put(b, "(", 1);
            put_move(b, &pos, other);
            moves++;
            alt = pos;
            pgn_pos_play(&alt, other);
            pgn_pos_legal_moves(&alt, &ml2);
            if (ml2.count > 1 && rand() % 2) {
                pgn_move a = ml2.moves[0], c = ml2.moves[ml2.count - 1];
                put_move(b, &alt, a);
                buf_put(b, "(", 1); /* nested: replaces a */
                put_move(b, &alt, c);
                buf_put(b, ") ", 2);
                moves += 2;
            }
            buf_put(b, ") ", 2);
        }
        pgn_pos_play(&pos, mv);
    }
    buf_put(b, "*\n", 2);
    return moves;
}

static size_t count_moves(const pgn_node *n) {
    size_t c = 0;
    for (const pgn_node *k = pgn_node_child(n); k; k = pgn_node_sibling(k)) {
        c += 1 + count_moves(k);
    }
    return c;
}

/* PGN §7: a symbol holds letters, digits and _+#=:-/ (@: the dialect's crazyhouse drop). */
static int spec_symbol_byte(unsigned c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           (c != 0 && strchr("_+#=:-/@", (int)c) != NULL);
}

static void check_masks(const unsigned char *p, size_t n) {
    uint64_t sym = 0, digit = 0, want_sym = 0, want_digit = 0;
    pgnk_lexer_masks(p, n, &sym, &digit);
    for (size_t k = 0; k < n && k < 64; k++) {
        want_sym |= (uint64_t)spec_symbol_byte(p[k]) << k;
        want_digit |= (uint64_t)(p[k] >= '0' && p[k] <= '9') << k;
    }
    if (sym != want_sym || digit != want_digit) {
        harness_fail(__FILE__, __LINE__, "%zu bytes: masks %016llx %016llx, not %016llx %016llx", n,
                     (unsigned long long)sym, (unsigned long long)digit,
                     (unsigned long long)want_sym, (unsigned long long)want_digit);
    } else {
        harness_counts.passed++;
    }
}

/* The pass's classes of 64 bytes (pgnk_lexer_masks_all): each against its own definition. */
static void check_masks_all(const unsigned char *p) {
    lexer_masks m, want;
    memset(&want, 0, sizeof want);
    pgnk_lexer_masks_all(p, &m);
    for (unsigned k = 0; k < 64; k++) {
        unsigned c = p[k];
        want.sym |= (uint64_t)spec_symbol_byte(c) << k;
        want.digit |= (uint64_t)(c >= '0' && c <= '9') << k;
        want.letter |= (uint64_t)((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) << k;
        want.period |= (uint64_t)(c == '.') << k;
        want.blank |= (uint64_t)(c == ' ' || c == '\t') << k;
        want.lf |= (uint64_t)(c == '\n') << k;
        want.cr |= (uint64_t)(c == '\r') << k;
    }
    if (memcmp(&m, &want, sizeof m) != 0) {
        harness_fail(__FILE__, __LINE__, "masks of all classes: sym %016llx letter %016llx",
                     (unsigned long long)m.sym, (unsigned long long)m.letter);
    } else {
        harness_counts.passed++;
    }
    /* the tag pair's classes of the first 32 (pgnk_lexer_tag_masks) */
    uint32_t name, stop, want_name = 0, want_stop = 0;
    pgnk_lexer_tag_masks(p, &name, &stop);
    for (unsigned k = 0; k < 32; k++) {
        unsigned c = p[k];
        want_name |= (uint32_t)is_name_byte(c) << k;
        want_stop |= (uint32_t)(c < 0x20 || c >= 0x7f || c == '"' || c == '\\') << k;
    }
    if (name != want_name || stop != want_stop) {
        harness_fail(__FILE__, __LINE__, "tag masks: name %08x stop %08x", name, stop);
    } else {
        harness_counts.passed++;
    }
}

static void test_masks(void) {
    unsigned char b[80];
    for (unsigned v = 0; v < 256; v++) {
        for (size_t at = 0; at < 64; at++) {
            memset(b, 'x', sizeof b);
            b[at] = (unsigned char)v;
            check_masks(b, 64);
            check_masks_all(b);
        }
    }
    srand(32);
    for (size_t n = 0; n <= 80; n++) {
        for (int round = 0; round < 20; round++) {
            for (size_t k = 0; k < sizeof b; k++) {
                b[k] = (unsigned char)(round % 2 ? rand() % 256 : " .1a+#=-/:@_[{N9"[rand() % 16]);
            }
            check_masks(b, n);
            check_masks_all(b);
        }
    }
}

/* The first diagnostic of a game read from text, or NULL. */
static void first_diag(const char *text, size_t len, pgn_diag *d, size_t *count) {
    pgn_game *g = read_text(text, len);
    uint64_t dropped = 0;
    *count = pgn_game_diag_count(g, &dropped);
    if (*count > 0) {
        *d = *pgn_game_diag(g, 0);
    }
    pgn_game_free(g);
}

/* A game after pad spaces (on the line of its first move number), with tail (a bad move) after its
 * last move: its diagnostic is where the tail is. */
static void check_at_offset(size_t pad, const char *tail) {
    static const char moves[] = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 "
                                "7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7 11. ";
    char text[512];
    int n = snprintf(text, sizeof text, "[Event \"x\"]\n\n%*s%s%s *\n", (int)pad, "", moves, tail);
    size_t col = (size_t)pad + sizeof moves; /* 1-based: the tail's first byte */
    pgn_diag d;
    size_t count = 0;
    first_diag(text, (size_t)n, &d, &count);
    if (count == 0 || d.at.line != 3 || d.at.column != col) {
        harness_fail(__FILE__, __LINE__, "pad %zu, %s: %zu diagnostics, first at %u:%u, not 3:%zu",
                     pad, tail, count, count ? d.at.line : 0, count ? d.at.column : 0, col);
    } else {
        harness_counts.passed++;
    }
}

static void test_scan_offsets(void) {
    static const char *const tails[] = {
        "Ke4",               /* illegal: the fast path */
        "Ke4.",              /* a period after it: the general path */
        "Qa1234567890123+",  /* 16 bytes, bad SAN */
        "Qa1234567890123+#", /* 17: the general path */
        "zz",                /* text */
        "123456789.. e4",    /* a number of 9 digits, then a wrong move number */
    };
    for (size_t pad = 0; pad <= 70; pad++) {
        for (size_t k = 0; k < sizeof tails / sizeof tails[0]; k++) {
            check_at_offset(pad, tails[k]);
        }
    }
}

static void test_variations(void) {
    for (unsigned seed = 1; seed <= 40; seed++) {
        buf b = {0};
        size_t moves = make_game(&b, seed, 20 + (int)(seed * 7 % 160));
        pgn_game *g = read_text(b.p, b.len);
        uint64_t dropped = 0;
        size_t diags = pgn_game_diag_count(g, &dropped);
        if (diags != 0) {
            const pgn_diag *d = pgn_game_diag(g, 0);
            harness_fail(__FILE__, __LINE__, "seed %u: %zu diagnostics, first %s at %u:%u '%s'",
                         seed, diags, pgn_status_name(d->code), d->at.line, d->at.column, d->token);
        } else {
            harness_counts.passed++;
        }
        CHECK_EQ_INT(count_moves(pgn_game_root(g)), moves);
        pgn_game_free(g);
        buf_free(&b);
    }
}

/* Syntax only (PGN_READ_NO_BOARD, no move visitor: check --syntax-only's pass, movetext_pass.c).
 * The input comes in chunks of a given size, so that tokens meet the window's end everywhere. */
typedef struct chunks {
    const char *p;
    size_t len, at, step;
} chunks;

static ptrdiff_t read_chunk(void *ctx, void *dst, size_t cap) {
    chunks *c = ctx;
    size_t n = c->len - c->at < c->step ? c->len - c->at : c->step;
    n = n < cap ? n : cap;
    memcpy(dst, c->p + c->at, n);
    c->at += n;
    return (ptrdiff_t)n;
}

typedef struct syntax_seen {
    uint32_t plies, diags;
    pgn_diag first;
} syntax_seen;

static pgn_flow syntax_end(void *user, pgn_result res, const pgn_game_summary *sum) {
    (void)res;
    ((syntax_seen *)user)->plies = sum->plies;
    return PGN_FLOW_CONTINUE;
}

static void syntax_diag(void *ctx, const pgn_diag *d) {
    syntax_seen *s = ctx;
    if (s->diags++ == 0) {
        s->first = *d;
    }
}

/* Reads text's one game without a board, step bytes a read (0: all of it in memory). */
static syntax_seen read_syntax(const char *text, size_t len, size_t step) {
    syntax_seen seen;
    memset(&seen, 0, sizeof seen);
    pgn_reader_opts o;
    memset(&o, 0, sizeof o);
    o.flags = PGN_READ_NO_BOARD;
    o.on_diag = syntax_diag;
    o.diag_ctx = &seen;
    chunks c = {text, len, 0, step};
    pgn_reader *r = NULL;
    pgn_visitor v;
    memset(&v, 0, sizeof v);
    v.end_game = syntax_end;
    pgn_status st =
        step ? pgn_reader_new(&r, &o, read_chunk, &c) : pgn_reader_new_mem(&r, &o, text, len);
    if (st != PGN_OK || pgn_reader_visit(r, &v, &seen) != PGN_OK) {
        harness_fail(__FILE__, __LINE__, "cannot read %.60s", text);
    }
    pgn_reader_free(r);
    return seen;
}

/* A random legal main line of plies moves in one of four layouts (PGN §8.2.2 move numbers with
 * and without a space, Black's "N..." after a comment, a line break every few tokens), then tail,
 * a token of stray text: every move is counted (the summary's plies) and the one diagnostic is at
 * the tail's line and column, whatever the white space before the game and the read size. */
typedef struct syntax_tail {
    const char *text;
    unsigned plies, diag_at; /* the moves in it; where its stray text is (bytes into it) */
} syntax_tail;

static void check_syntax_game(unsigned seed, size_t pad, const syntax_tail *tail, size_t step) {
    pgn_pos pos;
    pgn_movelist ml;
    buf b = {0};
    unsigned plies = 0, layout = seed % 4, line = 3, col = 0;
    srand(seed);
    pgn_pos_init(&pos);
    buf_printf(&b, "[Event \"syntax %u\"]\n\n%*s", seed, (int)pad, "");
    size_t line_at = b.len - pad;
    for (int p = 0; p < 40 + (int)(seed % 60); p++) {
        pgn_pos_legal_moves(&pos, &ml);
        if (ml.count == 0) {
            break;
        }
        pgn_move mv = ml.moves[(unsigned)rand() % ml.count];
        char san[PGN_SAN_MAX + 1];
        size_t n = pgn_san_write(&pos, mv, san);
        if (pos.side == PGN_WHITE) {
            buf_printf(&b, layout == 1 ? "%u." : "%u. ", (unsigned)pos.fullmove);
        } else if (layout == 2 && p % 5 == 1) {
            buf_printf(&b, "{c} %u... ", (unsigned)pos.fullmove);
        }
        buf_put(&b, san, n);
        buf_put(&b, layout == 3 && p % 7 == 6 ? "\n" : " ", 1);
        if (layout == 3 && p % 7 == 6) {
            line++;
            line_at = b.len;
        }
        pgn_pos_play(&pos, mv);
        plies++;
    }
    col = (unsigned)(b.len - line_at + 1) + tail->diag_at;
    plies += tail->plies;
    buf_printf(&b, "%s *\n", tail->text);
    syntax_seen seen = read_syntax(b.p, b.len, step);
    if (seen.plies != plies || seen.diags != 1 || seen.first.at.line != line ||
        seen.first.at.column != col) {
        harness_fail(__FILE__, __LINE__,
                     "seed %u pad %zu step %zu %s: %u plies (not %u), %u diagnostics, first at "
                     "%u:%u, not %u:%u",
                     seed, pad, step, tail->text, seen.plies, plies, seen.diags,
                     seen.diags ? seen.first.at.line : 0, seen.diags ? seen.first.at.column : 0,
                     line, col);
    } else {
        harness_counts.passed++;
    }
    buf_free(&b);
}

static void test_syntax_only(void) {
    /* W_SKIPPED_TEXT for the stray text (zz, !!!, $); without a board any symbol that starts
     * with a letter is a move, of 17 bytes too, and an e.p. period is no error */
    static const syntax_tail tails[] = {
        {"zz", 0, 0},       {"e4!!!", 1, 2},     {"Ke4. zz", 1, 5}, {"Qa1234567890123+# zz", 1, 18},
        {"O-O-O zz", 1, 6}, {"1... e4 $", 1, 8}, {"ep", 0, 0},
    };
    static const size_t steps[] = {0, 1, 2, 3, 7, 16, 64};
    for (unsigned seed = 1; seed <= 8; seed++) {
        for (size_t pad = 0; pad <= 66; pad += 3) {
            for (size_t k = 0; k < sizeof tails / sizeof tails[0]; k++) {
                check_syntax_game(seed, pad, &tails[k], steps[(seed + pad + k) % 7]);
            }
        }
    }
}

/* Every diagnostic (code, place, game) and every game's plies, folded in order into one sum. */
typedef struct syntax_log {
    uint64_t sum;
    uint32_t diags, games, plies;
} syntax_log;

static void log_fold(syntax_log *l, uint64_t v) {
    l->sum = (l->sum ^ v) * UINT64_C(0x100000001b3);
}

static pgn_flow log_end(void *user, pgn_result res, const pgn_game_summary *sum) {
    syntax_log *l = user;
    log_fold(l, ((uint64_t)sum->plies << 8) | (unsigned)res);
    l->games++;
    l->plies += sum->plies;
    return PGN_FLOW_CONTINUE;
}

static void log_diag(void *ctx, const pgn_diag *d) {
    syntax_log *l = ctx;
    log_fold(l, (uint64_t)d->code << 48 ^ d->at.offset);
    log_fold(l, (uint64_t)d->at.line << 32 | d->at.column);
    log_fold(l, d->game);
    l->diags++;
}

/* Reads text with options o (whole, or step bytes at a time when step > 0), each game visited by v
 * with ctx. */
static void visit_all(const char *text, size_t len, size_t step, const pgn_reader_opts *o,
                      const pgn_visitor *v, void *ctx) {
    chunks c = {text, len, 0, step};
    pgn_reader *r = NULL;
    pgn_status st =
        step ? pgn_reader_new(&r, o, read_chunk, &c) : pgn_reader_new_mem(&r, o, text, len);
    while (st == PGN_OK) {
        st = pgn_reader_visit(r, v, ctx);
    }
    if (st != PGN_END) {
        harness_fail(__FILE__, __LINE__, "cannot read %.60s", text);
    }
    pgn_reader_free(r);
}

static syntax_log read_log(const char *text, size_t len, size_t step, uint32_t flags) {
    syntax_log l;
    memset(&l, 0, sizeof l);
    pgn_reader_opts o;
    memset(&o, 0, sizeof o);
    o.flags = flags;
    o.on_diag = log_diag;
    o.diag_ctx = &l;
    pgn_visitor v;
    memset(&v, 0, sizeof v);
    v.end_game = log_end;
    visit_all(text, len, step, &o, &v, &l);
    return l;
}

/* The syntax-only pass reads 64 bytes at a time from their class masks (movetext_pass.c): random
 * movetext of the tokens it reads and of those it must leave to the token reader (results, words,
 * e.p., comments, NAGs, stray periods, long symbols, non-ASCII bytes, empty lines, % lines, CRLF
 * and lone CRs, tags) at every offset of those blocks, read whole and 1 to 3 bytes a read (where
 * the window never holds a block, so the token reader reads it all): the same diagnostics at the
 * same places, the same plies and results. */
static void test_syntax_blocks(void) {
    static const char *const toks[] = {
        "12.",      "7...",
        "e4",       "Nf3",
        "exd5",     "O-O",
        "O-O-O+",   "Qh4#",
        "a8=Q",     "1-0",
        "0-1",      "*",
        "1/2-1/2",  "0-0",
        "zz",       "e.p.",
        "{c}",      "$3",
        "!?",       "(",
        ")",        ".",
        "Ke4.",     "1234567890.",
        "Rf1e1",    "Nbd7x",
        "\xc3\xa9", "%x",
        "Bb5+",     "Qa1234567890123+#",
        "ep",       "-",
        "Kh1",      "c4",
        "g6",       "23.",
        "h8=N+",    "Ra1b1c1d1e1f1g1h1",
        "Oo",       "O",
    };
    static const char *const seps[] = {" ",
                                       " ",
                                       " ",
                                       "\n",
                                       "\r\n",
                                       "\t",
                                       "",
                                       "  ",
                                       " \n ",
                                       "\n\n",
                                       "\r",
                                       "\n%x\n",
                                       "\n\n[A \"b\"]\n\n"};
    for (unsigned seed = 1; seed <= 300; seed++) {
        buf b = {0};
        srand(seed);
        buf_printf(&b, "[Event \"blocks %u\"]\n\n%*s", seed, (int)(seed % 64), "");
        unsigned odd = 2 + seed % 40; /* one token or separator in odd is of any kind */
        for (int k = 0; k < 400; k++) {
            int any = rand() % (int)odd == 0;
            const char *t = toks[any ? rand() % 40 : rand() % 8 + 32 * (rand() % 8 == 0)];
            const char *sp = seps[any ? rand() % 13 : rand() % 4];
            buf_printf(&b, "%s%s", t, sp);
        }
        buf_printf(&b, " *\n");
        syntax_log whole = read_log(b.p, b.len, 0, PGN_READ_NO_BOARD);
        syntax_log bytes = read_log(b.p, b.len, 1 + seed % 3, PGN_READ_NO_BOARD);
        if (whole.sum != bytes.sum || whole.diags != bytes.diags || whole.plies != bytes.plies) {
            harness_fail(__FILE__, __LINE__,
                         "seed %u: %u diagnostics, %u games, %u plies; %u, %u, %u a few bytes at "
                         "a time",
                         seed, whole.diags, whole.games, whole.plies, bytes.diags, bytes.games,
                         bytes.plies);
        } else {
            harness_counts.passed++;
        }
        buf_free(&b);
    }
}

/* One move of a quiet-block game (test_quiet_blocks): its number as written ("N." before White's
 * move; before Black's, "N..." or none), now and then a wrong one, a number glued to the move, or
 * the move in a form the one-pass path leaves to another (a pawn letter, a glyph glued to it,
 * castling with zeros, an illegal king move that ends the line). */
static void put_quiet_move(buf *b, const pgn_pos *pos, pgn_move mv, int odd) {
    static const char *const seps[] = {" ", " ", " ", "\n", "\r\n", "  ", "\t", " \n"};
    char san[PGN_SAN_MAX + 1];
    size_t n = pgn_san_write(pos, mv, san);
    san[n] = 0;
    unsigned f = (unsigned)pos->fullmove + (odd && rand() % 6 == 0);
    if (pos->side == PGN_WHITE) {
        buf_printf(b, "%u.%s", f, rand() % 8 ? " " : "");
    } else if (rand() % 3 == 0) {
        buf_printf(b, "%u...%s", f, rand() % 8 ? " " : "");
    }
    int k = odd ? rand() % 8 : 7;
    if (k == 0 && san[0] >= 'a' && san[0] <= 'h') {
        buf_printf(b, "P%s", san);
    } else if (k == 1) {
        buf_printf(b, "%s!", san);
    } else if (k == 2 && san[0] == 'O') {
        buf_printf(b, "%s", n > 3 ? "0-0-0" : "0-0");
    } else if (k == 3 && rand() % 4 == 0) {
        buf_printf(b, "Ke4");
    } else {
        buf_put(b, san, n);
    }
    buf_printf(b, "%s", seps[rand() % 8]);
}

/* A visitor under PGN_READ_MOVE_GATE whose gate stays closed: every move comes, each folded into
 * the log with its place and text; now and then a move answers SKIP, or STOP (no end_game comes
 * then: the game is counted here). */
typedef struct gate_log {
    pgn_move_gate gate; /* first: the reader's */
    syntax_log log;
    unsigned calls, seed;
} gate_log;

static pgn_flow gl_move(void *user, const pgn_pos *after, pgn_move mv, pgn_str san, pgn_loc at) {
    gate_log *g = user;
    log_fold(&g->log, (uint64_t)mv << 48 ^ at.offset ^ (uint64_t)after->fullmove << 32);
    log_fold(&g->log, (uint64_t)at.line << 32 | at.column);
    log_fold(&g->log, san.len);
    g->calls++;
    unsigned h = (g->calls * 2654435761u + g->seed) % 97;
    g->log.games += h == 1;
    return h == 0 ? PGN_FLOW_SKIP : h == 1 ? PGN_FLOW_STOP : PGN_FLOW_CONTINUE;
}

static pgn_flow gl_end(void *user, pgn_result res, const pgn_game_summary *sum) {
    gate_log *g = user;
    return log_end(&g->log, res, sum);
}

static syntax_log read_gated(const char *text, size_t len, size_t step, unsigned seed) {
    gate_log g;
    memset(&g, 0, sizeof g);
    g.seed = seed;
    pgn_reader_opts o;
    memset(&o, 0, sizeof o);
    o.flags = PGN_READ_MOVE_AFTER | PGN_READ_MOVE_GATE | PGN_READ_NO_KEYS;
    o.on_diag = log_diag;
    o.diag_ctx = &g.log;
    pgn_visitor v;
    memset(&v, 0, sizeof v);
    v.move = gl_move;
    v.end_game = gl_end;
    visit_all(text, len, step, &o, &v, &g);
    return g.log;
}

/* The moves a board reads 64 bytes at a time where nobody sees them (check; movetext.c,
 * quiet_run: the numbers of a block checked at once, then its moves played in one run): random
 * legal games, some from a FEN after a few moves (other fullmove numbers, Black to move), with
 * wrong move numbers, numbers glued to moves, line breaks, moves another path reads or that end
 * the line, at every offset of the blocks, read whole and 1 to 3 bytes a read (the token reader
 * alone): the same diagnostics at the same places, the same plies and results; and so under a
 * move gate that stays closed (select: every move given to the visitor, with its place; now and
 * then a SKIP). */
static void test_quiet_blocks(void) {
    for (unsigned seed = 1; seed <= 240; seed++) {
        buf b = {0};
        srand(seed);
        for (int g = 0; g < 4; g++) {
            pgn_pos pos;
            pgn_movelist ml;
            pgn_pos_init(&pos);
            for (int skip = g % 2 ? rand() % 40 : 0; skip > 0; skip--) {
                pgn_pos_legal_moves(&pos, &ml);
                if (ml.count == 0) {
                    break;
                }
                pgn_pos_play(&pos, ml.moves[(unsigned)rand() % ml.count]);
            }
            buf_printf(&b, "[Event \"quiet %u %d\"]\n", seed, g);
            if (g % 2) {
                char fen[PGN_FEN_MAX];
                pgn_fen_write(&pos, 0, fen, sizeof fen);
                buf_printf(&b, "[SetUp \"1\"]\n[FEN \"%s\"]\n", fen);
            }
            buf_printf(&b, "\n%*s", (int)(rand() % 64), "");
            int odd = seed % 3 == 0; /* a game with quirks now and then */
            for (int p = 0; p < 60 + rand() % 120; p++) {
                pgn_pos_legal_moves(&pos, &ml);
                if (ml.count == 0) {
                    break;
                }
                pgn_move mv = ml.moves[(unsigned)rand() % ml.count];
                put_quiet_move(&b, &pos, mv, odd && rand() % 10 == 0);
                pgn_pos_play(&pos, mv);
            }
            buf_printf(&b, "*\n\n");
        }
        syntax_log whole = read_log(b.p, b.len, 0, 0);
        syntax_log bytes = read_log(b.p, b.len, 1 + seed % 3, 0);
        /* under a closed gate (select's reading): every move given with its place */
        syntax_log gated = read_gated(b.p, b.len, 0, seed);
        syntax_log gated_bytes = read_gated(b.p, b.len, 1 + seed % 3, seed);
        if (whole.sum != bytes.sum || whole.diags != bytes.diags || whole.plies != bytes.plies ||
            whole.games != 4 || (seed % 3 && whole.diags != 0) || gated.sum != gated_bytes.sum ||
            gated.games != 4) {
            harness_fail(__FILE__, __LINE__,
                         "seed %u: %u diagnostics, %u games, %u plies; %u, %u, %u a few bytes at "
                         "a time",
                         seed, whole.diags, whole.games, whole.plies, bytes.diags, bytes.games,
                         bytes.plies);
        } else {
            harness_counts.passed++;
        }
        buf_free(&b);
    }
}

/* A game's edges, which the reader passes without its token reader where the window holds them
 * (issue 32): the empty line between the tags and the first move number, the termination marker
 * after the fast path's last move, the empty line before the next game's '['. Games with each of
 * them and with their near misses (no empty line, a blank in it, CRLF, a wrong or Black's first
 * number, a marker glued to text or cut short, text between games), read whole and a byte a read
 * (the window never holds the three bytes: the token reader alone), with and without boards: the
 * same diagnostics at the same places, the same plies and results. */
static void test_game_edges(void) {
    static const char *const gaps[] = {"\n\n", "\n\n", "\n", "\n \n", "\r\n\r\n", "\n\n\n"};
    static const char *const firsts[] = {"1.", "1. ", "2.", "1...", "1", "12."};
    static const char *const marks[] = {"1-0", "0-1", "1/2-1/2", "*", "1-0x", "1/2", "0-1-", "**"};
    static const char *const ends[] = {"\n\n",     "\n\n",        " ",          "\n",    "\n\n\n",
                                       "\r\n\r\n", "\n\n{c}\n\n", "\n\nzz\n\n", "\t\n\n"};
    for (unsigned seed = 1; seed <= 60; seed++) {
        buf b = {0};
        srand(seed);
        for (int g = 0; g < 12; g++) {
            buf_printf(&b, "[Event \"edge %u %d\"]\n[Site \"s\"]%s%se4 e5 Nf3 ", seed, g,
                       gaps[rand() % 6], firsts[rand() % 6]);
            buf_printf(&b, "%s Bc4%s%s", rand() % 2 ? "Nc6" : "2... Nc6", rand() % 2 ? " " : "\n",
                       marks[rand() % 8]);
            buf_printf(&b, "%s", ends[rand() % 9]);
        }
        for (uint32_t flags = 0; flags <= PGN_READ_NO_BOARD; flags += PGN_READ_NO_BOARD) {
            syntax_log whole = read_log(b.p, b.len, 0, flags);
            syntax_log bytes = read_log(b.p, b.len, 1, flags);
            if (whole.sum != bytes.sum || whole.games != bytes.games || whole.plies < 12) {
                harness_fail(__FILE__, __LINE__,
                             "seed %u, flags %u: %u diagnostics, %u games, %u plies; %u, %u, %u a "
                             "few bytes at a time",
                             seed, (unsigned)flags, whole.diags, whole.games, whole.plies,
                             bytes.diags, bytes.games, bytes.plies);
            } else {
                harness_counts.passed++;
            }
        }
        buf_free(&b);
    }
}

/* ---- the tree builder's moves (issue 32: fmt's builder gets the moves the fast path read and
 * played in one pass) against a visitor that sees each move with its position before ---- */

#define REC_MAX 4096

typedef struct move_rec {
    pgn_move mv;
    pgn_loc at;
    char san[16];
    size_t len;
    int canonical; /* the text is what pgn_san_write writes in the position before */
} move_rec;

typedef struct move_log {
    move_rec m[REC_MAX];
    size_t n;
} move_log;

static pgn_flow log_move(void *user, const pgn_pos *before, pgn_move mv, pgn_str san, pgn_loc at) {
    move_log *l = user;
    char w[PGN_SAN_MAX];
    if (l->n < REC_MAX && before != NULL) {
        move_rec *m = &l->m[l->n++];
        size_t k = pgn_san_write(before, mv, w);
        m->mv = mv;
        m->at = at;
        m->len = san.len < sizeof m->san ? san.len : sizeof m->san - 1;
        memcpy(m->san, san.ptr, m->len);
        m->canonical = k == san.len && memcmp(w, san.ptr, k) == 0;
    }
    return PGN_FLOW_CONTINUE;
}

/* text read by pgn_reader_next and by the logging visitor: the same moves in the same order
 * (pgn_iter walks the tree in the order of the text), each at its place, each node's SAN the
 * text of a canonical move, or none. Returns how many nodes kept their SAN. */
static size_t check_builder_moves(const char *what, const char *text, size_t len) {
    static const pgn_visitor logger = {.move = log_move};
    static move_log log;
    pgn_reader *r = NULL;
    pgn_iter *it = NULL;
    pgn_iter_event ev;
    size_t i = 0, kept = 0;
    log.n = 0;
    if (pgn_reader_new_mem(&r, NULL, text, len) != PGN_OK ||
        pgn_reader_visit(r, &logger, &log) != PGN_OK || pgn_iter_new(&it, NULL) != PGN_OK) {
        harness_fail(__FILE__, __LINE__, "%s: cannot read", what);
        pgn_reader_free(r);
        return 0;
    }
    pgn_reader_free(r);
    pgn_game *g = read_text(text, len);
    pgn_iter_reset(it, g, 0);
    while (pgn_iter_next(it, &ev) == PGN_OK) {
        const pgn_node *n = pgn_iter_node(it);
        if (ev != PGN_ITER_MOVE_ENTER) {
            continue;
        }
        if (i >= log.n) {
            harness_fail(__FILE__, __LINE__, "%s: more nodes than moves (%zu)", what, log.n);
            break;
        }
        const move_rec *m = &log.m[i++];
        pgn_loc at = pgn_node_loc(n);
        pgn_str san = pgn_node_san(n);
        if (pgn_node_move(n) != m->mv || at.offset != m->at.offset || at.line != m->at.line ||
            at.column != m->at.column) {
            harness_fail(__FILE__, __LINE__, "%s: move %zu (%.*s) at %u:%u, read at %u:%u", what, i,
                         (int)m->len, m->san, at.line, at.column, m->at.line, m->at.column);
        } else if (san.len != 0 &&
                   !(m->canonical && san.len == m->len && memcmp(san.ptr, m->san, san.len) == 0)) {
            harness_fail(__FILE__, __LINE__, "%s: move %zu (%.*s) kept as '%.*s'", what, i,
                         (int)m->len, m->san, (int)san.len, san.ptr);
        } else {
            harness_counts.passed++;
        }
        kept += san.len != 0;
    }
    CHECK_EQ_U64(i, log.n);
    pgn_iter_free(it);
    pgn_game_free(g);
    return kept;
}

static void test_builder_moves(void) {
    /* quirks (over-disambiguation, a castling with zeros, a check sign on a quiet move): read,
     * not kept as SAN; the moves around them kept */
    static const char quirks[] =
        "[Event \"q\"]\n\n1. e4 e5 2. Ng1f3 Nb8c6 3. Bc4 Bc5 4. 0-0 Nf6 5. d3+ d6\n"
        "6. Bg5 Bg4 7. h3 Bh5 8. g4 Bg6 9. Nh4 Qd7 10. Nxg6 hxg6 11. Qf3 *\n";
    size_t kept = check_builder_moves("quirks", quirks, sizeof quirks - 1);
    CHECK_EQ_U64(kept, 17); /* 21 moves, 4 not canonical (Ng1f3, Nb8c6, 0-0, d3+) */
    for (unsigned seed = 1; seed <= 40; seed++) {
        buf b = {0};
        char what[32];
        size_t moves = make_game(&b, seed, 20 + (int)(seed * 11 % 160));
        snprintf(what, sizeof what, "seed %u", seed);
        /* every move written canonical: every one kept */
        CHECK_EQ_U64(check_builder_moves(what, b.p, b.len), moves);
        buf_free(&b);
    }
}

int main(void) {
    test_tag_values();
    test_peek_tag();
    test_common_tag_names();
    test_tag_copies();
    test_tag_names();
    test_masks();
    test_scan_offsets();
    test_variations();
    test_syntax_only();
    test_syntax_blocks();
    test_game_edges();
    test_quiet_blocks();
    test_builder_moves();
    return harness_finish();
}
