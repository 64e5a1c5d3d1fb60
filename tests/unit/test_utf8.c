/* SPDX-License-Identifier: MIT */
/* The UTF-8 module (src/base/utf8.c) against RFC 3629's examples (§7) and its rules on overlong
 * forms, surrogates and the U+10FFFF limit (§3, §10); the cut never splits a character. And the
 * diagnostics' excerpts (pgn_diag.token), which must be UTF-8 whatever the input: the text decoded
 * from its encoding, stray bytes replaced by U+FFFD, cut on a character boundary. (The fuzz
 * targets check the same of every diagnostic of the fuzz-regress and corpus/edge files.) And the
 * encodings' names. */
#include "harness.h"

#include <pgnkit.h>
#include <stdlib.h>

#include "../../src/base/utf8.h"

static void test_rfc3629_examples(void) {
    /* RFC 3629 §7: "A<NOT IDENTICAL TO><ALPHA>.", Korean "hangugeo", Japanese "nihongo" and
     * U+233B4 preceded by a BOM */
    static const struct {
        const char *s;
        uint32_t cps[4];
        size_t n;
    } ex[] = {
        {"\x41\xE2\x89\xA2\xCE\x91\x2E", {0x41, 0x2262, 0x391, 0x2E}, 4},
        {"\xED\x95\x9C\xEA\xB5\xAD\xEC\x96\xB4", {0xD55C, 0xAD6D, 0xC5B4}, 3},
        {"\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E", {0x65E5, 0x672C, 0x8A9E}, 3},
        {"\xEF\xBB\xBF\xF0\xA3\x8E\xB4", {0xFEFF, 0x233B4}, 2},
    };
    for (size_t i = 0; i < sizeof ex / sizeof ex[0]; i++) {
        const char *s = ex[i].s;
        size_t len = strlen(s), at = 0, k = 0;
        CHECK(pgnk_utf8_valid(s, len));
        while (at < len && k < 4) {
            size_t used;
            uint32_t cp = pgnk_utf8_decode(s + at, len - at, &used);
            CHECK_EQ_U64(cp, ex[i].cps[k]);
            char enc[4];
            CHECK_EQ_U64(pgnk_utf8_encode(cp, enc), used);
            CHECK(memcmp(enc, s + at, used) == 0);
            at += used;
            k++;
        }
        CHECK_EQ_U64(k, ex[i].n);
        CHECK_EQ_U64(at, len);
    }
}

static void test_ill_formed(void) {
    /* RFC 3629 §3 and §10: overlong forms, surrogates, above U+10FFFF, bytes that never occur,
     * a lone continuation byte, a sequence cut short */
    static const char *bad[] = {"\xC0\x80",
                                "\xC1\xBF",
                                "\xE0\x80\xAF",
                                "\xED\xA0\x80",
                                "\xED\xBF\xBF",
                                "\xF0\x80\x80\xAF",
                                "\xF4\x90\x80\x80",
                                "\xF5\x80\x80\x80",
                                "\xFE",
                                "\xFF",
                                "\x80",
                                "\xBF",
                                "\xE2\x89",
                                "Br\x81ssel",
                                "Andr\x82"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK(!pgnk_utf8_valid(bad[i], strlen(bad[i])));
    }
    size_t used;
    CHECK_EQ_U64(pgnk_utf8_decode("\xED\xA0\x80", 3, &used), 0xFFFD);
    CHECK_EQ_U64(used, 1);
    CHECK_EQ_U64(pgnk_utf8_decode("\xE2\x89", 2, &used), 0xFFFD); /* cut short by len */
    CHECK_EQ_U64(used, 1);
    /* the limits that are well-formed */
    CHECK(pgnk_utf8_valid("\xF4\x8F\xBF\xBF", 4)); /* U+10FFFF */
    CHECK(pgnk_utf8_valid("\xEE\x80\x80", 3));     /* U+E000, just past the surrogates */
    CHECK(pgnk_utf8_valid("\xC2\x80", 2));         /* U+0080, the first 2-byte form */
    CHECK_EQ_U64(pgnk_utf8_decode("\xF4\x8F\xBF\xBF", 4, &used), 0x10FFFF);
    unsigned lo, hi;
    CHECK_EQ_U64(pgnk_utf8_lead(0xE0, &lo, &hi), 3);
    CHECK_EQ_U64(lo, 0xA0);
    CHECK_EQ_U64(pgnk_utf8_lead(0xC1, &lo, &hi), 0);
}

static void test_cut(void) {
    const char *s = "Z\xC3\xBCrich \xE2\x82\xAC\xF0\x9F\x98\x80"; /* "Zürich €😀" */
    size_t len = strlen(s);
    CHECK_EQ_U64(pgnk_utf8_cut(s, len, 1), 1); /* before the ü, not inside it */
    CHECK_EQ_U64(pgnk_utf8_cut(s, len, 2), 1);
    CHECK_EQ_U64(pgnk_utf8_cut(s, len, 3), 3);
    CHECK_EQ_U64(pgnk_utf8_cut(s, len, 9), 8);        /* inside the euro sign */
    CHECK_EQ_U64(pgnk_utf8_cut(s, len, len - 1), 11); /* inside the emoji */
    CHECK_EQ_U64(pgnk_utf8_cut(s, len, len), len);
    for (size_t max = 0; max <= len; max++) {
        CHECK(pgnk_utf8_valid(s, pgnk_utf8_cut(s, len, max)));
    }
}

typedef struct tokens {
    char first[64]; /* the first W_ENCODING or bad-token excerpt */
    unsigned n, bad;
} tokens;

static void on_diag(void *ctx, const pgn_diag *d) {
    tokens *t = ctx;
    if (t->n++ == 0) {
        memcpy(t->first, d->token, sizeof d->token);
    }
    t->bad += !pgnk_utf8_valid(d->token, strlen(d->token));
}

/* Reads text through the public reader (1-byte chunks unless whole) and collects the tokens. */
static tokens read_tokens(const char *text, size_t len, pgn_encoding enc) {
    tokens t;
    pgn_reader_opts ro;
    pgn_reader *r = NULL;
    pgn_game *g = NULL;
    memset(&t, 0, sizeof t);
    memset(&ro, 0, sizeof ro);
    ro.encoding = enc;
    ro.on_diag = on_diag;
    ro.diag_ctx = &t;
    CHECK(pgn_reader_new_mem(&r, &ro, text, len) == PGN_OK);
    CHECK(pgn_game_new(&g, NULL) == PGN_OK);
    pgn_status st;
    while ((st = pgn_reader_next(r, g)) == PGN_OK) {
    }
    CHECK_EQ_INT(st, PGN_END);
    pgn_game_free(g);
    pgn_reader_free(r);
    return t;
}

static void test_diag_tokens(void) {
    /* CP437 Br\x81ssel: decoded (ü), never raw; forced UTF-8: U+FFFD */
    const char *cp437 = "[Site \"Br\x81ssel\"]\n\n1. e4 *\n";
    tokens t = read_tokens(cp437, strlen(cp437), PGN_ENC_AUTO);
    CHECK_EQ_STR(t.first, "Br\xC3\xBCssel");
    t = read_tokens(cp437, strlen(cp437), PGN_ENC_LATIN1);
    CHECK_EQ_U64(t.n, 0); /* an asked-for encoding converts without a warning */
    const char *bad = "[Site \"x\"]\n\n1. e4 Br\x81ssel\xFF\xFE e5 *\n";
    t = read_tokens(bad, strlen(bad), PGN_ENC_UTF8);
    CHECK(t.n > 0);
    CHECK_EQ_U64(t.bad, 0);
    /* a long token of 2-byte characters is cut between two of them */
    char longtok[200] = "[Event \"";
    for (int i = 0; i < 40; i++) {
        strcat(longtok, "\xC3\xA9");
    }
    strcat(longtok, "\n\n1. e4 *\n"); /* unterminated string: an error with an excerpt */
    t = read_tokens(longtok, strlen(longtok), PGN_ENC_AUTO);
    CHECK(t.n > 0);
    CHECK_EQ_U64(t.bad, 0);
    /* random bytes (a fixed LCG, so the test is the same every run), each encoding */
    static const pgn_encoding encs[] = {PGN_ENC_AUTO, PGN_ENC_UTF8, PGN_ENC_LATIN1, PGN_ENC_CP1252,
                                        PGN_ENC_CP437};
    uint32_t x = 12345;
    char *rnd = malloc(4096);
    CHECK(rnd != NULL);
    for (int round = 0; rnd && round < 40; round++) {
        size_t len = 64 + (size_t)round * 97;
        for (size_t i = 0; i < len; i++) {
            x = x * 1103515245u + 12345u;
            unsigned b = (x >> 16) & 0xFF;
            /* PGN punctuation often enough to make tokens of every kind */
            rnd[i] = (b & 7) == 0 ? "[\"{}() .\n"[(b >> 3) & 7] : (char)b;
        }
        t = read_tokens(rnd, len, encs[round % 5]);
        CHECK(t.n > 0);
        CHECK_EQ_U64(t.bad, 0);
    }
    free(rnd);
}

/* ---- the encoding state a reader of a byte range is given (pgn_reader_encoding_state) ---- */

static pgn_flow keep_white(void *user, pgn_str name, pgn_str value) {
    if (name.len == 5 && memcmp(name.ptr, "White", 5) == 0 && value.len < 32) {
        memcpy(user, value.ptr, value.len);
        ((char *)user)[value.len] = 0;
    }
    return PGN_FLOW_CONTINUE;
}

/* Reads every game of text with the state set to seed (PGN_ENC_AUTO: left as is); white: the last
 * White tag's value (UTF-8). */
static pgn_reader *read_seeded(const char *text, pgn_encoding seed, char *white) {
    static const pgn_visitor v = {NULL, keep_white, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    pgn_reader *r = NULL;
    CHECK_EQ_INT(pgn_reader_new_mem(&r, NULL, text, strlen(text)), PGN_OK);
    if (!r) {
        return NULL;
    }
    CHECK_EQ_INT(pgn_reader_encoding_state(r).last, PGN_ENC_AUTO);
    if (seed != PGN_ENC_AUTO) {
        pgn_reader_set_encoding_state(r, seed);
    }
    pgn_status st;
    while ((st = pgn_reader_visit(r, &v, white)) == PGN_OK) {
    }
    CHECK_EQ_INT(st, PGN_END);
    return r;
}

static void check_state(pgn_reader *r, pgn_encoding last, int told, int assumed) {
    pgn_encoding_state st = {PGN_ENC_UTF8, -1, -1};
    if (r) {
        st = pgn_reader_encoding_state(r);
    }
    CHECK_EQ_INT(st.last, last);
    CHECK_EQ_INT(st.told, told);
    CHECK_EQ_INT(st.assumed, assumed);
}

static void test_encoding_state(void) {
    /* \x81 tells CP437 (ü; Windows-1252 has no character there); M\xE1laga cannot tell: CP437's ß
     * or Windows-1252's á, read as the last text that told */
    static const char told[] = "[White \"Br\x81ssel\"]\n*\n\n",
                      tie[] = "[White \"M\xE1laga\"]\n*\n";
    char both[64];
    snprintf(both, sizeof both, "%s%s", told, tie);
    static const char ss[] = "M\xC3\x9Flaga", aa[] = "M\xC3\xA1laga";
    const struct {
        const char *text;
        pgn_encoding seed, last;
        const char *white;
        int told, assumed;
    } cases[] = {
        {both, PGN_ENC_AUTO, PGN_ENC_CP437, ss, 1, 0},
        /* the second game alone, as a reader of its range: read as Windows-1252 and noted, or in
         * the state it is given */
        {tie, PGN_ENC_AUTO, PGN_ENC_CP1252, aa, 0, 1},
        {tie, PGN_ENC_CP437, PGN_ENC_CP437, ss, 0, 1},
        /* a text that tells before the undecided one: not assumed, whatever the state given */
        {both, PGN_ENC_CP1252, PGN_ENC_CP437, ss, 1, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char white[32] = "";
        pgn_reader *r = read_seeded(cases[i].text, cases[i].seed, white);
        CHECK_EQ_STR(white, cases[i].white);
        check_state(r, cases[i].last, cases[i].told, cases[i].assumed);
        if (r && i == 2) {
            pgn_reader_set_encoding_state(r, PGN_ENC_UTF8); /* not a state: AUTO */
            check_state(r, PGN_ENC_AUTO, 0, 1);
        }
        pgn_reader_free(r);
    }
}

/* The names --input-encoding and Python's encoding= take (one table, pgn_encoding_from_name). */
static void test_encoding_names(void) {
    /* each encoding's names, separated by blanks */
    static const char *const names[] = {"auto", "utf-8 utf8", "latin-1 latin1 iso-8859-1",
                                        "cp1252 windows-1252", "cp437"};
    static const pgn_encoding encs[] = {PGN_ENC_AUTO, PGN_ENC_UTF8, PGN_ENC_LATIN1, PGN_ENC_CP1252,
                                        PGN_ENC_CP437};
    for (size_t i = 0; i < sizeof encs / sizeof encs[0]; i++) {
        for (const char *n = names[i]; *n;) {
            size_t len = strcspn(n, " ");
            char one[16];
            snprintf(one, sizeof one, "%.*s", (int)len, n);
            pgn_encoding e = (pgn_encoding)-1;
            CHECK(pgn_encoding_from_name(one, &e) == 1);
            CHECK(e == encs[i]);
            n += len + (n[len] == ' ');
        }
    }
    pgn_encoding e = PGN_ENC_CP437;
    CHECK(pgn_encoding_from_name("utf-16", &e) == 0);
    CHECK(pgn_encoding_from_name("", &e) == 0);
    CHECK(pgn_encoding_from_name("UTF-8", &e) == 0); /* names are exact, as the CLI's always were */
    CHECK(e == PGN_ENC_CP437);
}

int main(void) {
    test_encoding_names();
    test_encoding_state();
    test_diag_tokens();
    test_rfc3629_examples();
    test_ill_formed();
    test_cut();
    return harness_finish();
}
