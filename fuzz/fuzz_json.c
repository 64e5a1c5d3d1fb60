/* SPDX-License-Identifier: MIT */
/* Fuzz target: the JSON reader (pgn_json_reader, docs/json-format.md; STYLE C11). Byte 0 gives the
 * chunk size of the read callback (bits 0-5 + 1, or the whole input with bit 6) and tight limits
 * (bit 7: max_token 64, max_depth 8); the rest is JSON. Invariants: every call returns a
 * documented status; a game that fails reports exactly one diagnostic and a good one none; after
 * PGN_END the reader stays at PGN_END; the totals agree. Every game read is then written twice:
 * - as PGN (A), which must re-read as exactly one game, not broken, without any diagnostic (but
 *   the four the PGN export keeps by design, see fz_on_diag), with the same moves, NAGs,
 *   variations, start position and result, and whose export is A again;
 * - as JSON (J), which must re-read as one game without any diagnostic, with the same tree, and
 *   whose JSON is J again (to_json(from_json(J)) == J: tags, comments and all).
 * Comment text is not compared through PGN: the PGN writer collapses white space and drops "}"
 * (a PGN comment cannot hold it), which is documented loss (docs/json-format.md). */
#include "fuzz_common.h"

#ifndef FUZZ_ENTRY
#define FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

int FUZZ_ENTRY(const uint8_t *data, size_t size);

typedef struct js_count {
    unsigned long n;
    pgn_diag last;
} js_count;

static void js_on_diag(void *ctx, const pgn_diag *d) {
    js_count *c = ctx;
    c->n++;
    c->last = *d;
}

static int js_same_start(const pgn_game *a, const pgn_game *b) {
    const pgn_pos *x = pgn_game_start(a), *y = pgn_game_start(b);
    return memcmp(x->board, y->board, 64) == 0 && x->side == y->side && x->castle == y->castle &&
           x->chess960 == y->chess960 && x->variant == y->variant &&
           memcmp(x->pocket, y->pocket, sizeof x->pocket) == 0 && x->checks[0] == y->checks[0] &&
           x->checks[1] == y->checks[1] && x->promoted == y->promoted;
}

/* Game g (read from JSON) written as PGN and read back. */
static void js_pgn_roundtrip(const pgn_game *g) {
    pgn_membuf a = {0}, b = {0};
    pgn_writer *w = NULL;
    pgn_reader *r = NULL;
    pgn_game *g2 = NULL;
    fz_diags d;
    pgn_reader_opts ro;
    fz_diag_opts(&ro, &d);
    if (pgn_writer_new(&w, NULL, pgn_membuf_write, &a) != PGN_OK ||
        pgn_game_new(&g2, NULL) != PGN_OK) {
        goto done;
    }
    FUZZ_CHECK(pgn_writer_write(w, g) == PGN_OK, "write PGN");
    if (pgn_reader_new_mem(&r, &ro, a.ptr, a.len) != PGN_OK) {
        goto done;
    }
    FUZZ_CHECK(pgn_reader_next(r, g2) == PGN_OK, "the PGN does not re-read as a game");
    FUZZ_CHECK(!pgn_reader_summary(r)->broken, "the PGN re-reads broken");
    fz_check_no_diags(&d, "the PGN re-reads with diagnostics");
    FUZZ_CHECK(fz_same_tree(g, g2), "the PGN re-read tree differs");
    FUZZ_CHECK(pgn_game_result(g) == pgn_game_result(g2), "the PGN re-read result differs");
    FUZZ_CHECK(js_same_start(g, g2), "the PGN re-read start position differs");
    FUZZ_CHECK(pgn_reader_next(r, g2) == PGN_END, "the PGN re-reads as more than one game");
    pgn_writer_free(w);
    w = NULL;
    if (pgn_writer_new(&w, NULL, pgn_membuf_write, &b) != PGN_OK) {
        goto done;
    }
    pgn_reader_free(r);
    r = NULL;
    if (pgn_reader_new_mem(&r, NULL, a.ptr, a.len) != PGN_OK || pgn_reader_next(r, g2) != PGN_OK) {
        goto done;
    }
    FUZZ_CHECK(pgn_writer_write(w, g2) == PGN_OK, "write PGN again");
    FUZZ_CHECK(b.len == a.len && memcmp(a.ptr, b.ptr, a.len) == 0, "fmt(pgn(x)) != pgn(x)");
done:
    pgn_writer_free(w);
    pgn_reader_free(r);
    pgn_game_free(g2);
    free(a.ptr);
    free(b.ptr);
}

static int js_write(const pgn_game *g, pgn_membuf *out) {
    pgn_json_writer *w = NULL;
    pgn_json_writer_opts wo;
    memset(&wo, 0, sizeof wo);
    wo.flags = PGN_JSON_NDJSON;
    if (pgn_json_writer_new(&w, &wo, pgn_membuf_write, out) != PGN_OK) {
        return 0;
    }
    FUZZ_CHECK(pgn_json_writer_write(w, g) == PGN_OK, "write JSON");
    FUZZ_CHECK(pgn_json_writer_finish(w) == PGN_OK, "finish JSON");
    pgn_json_writer_free(w);
    return 1;
}

/* Game g written as JSON, read back and written again. */
static void js_json_roundtrip(const pgn_game *g) {
    pgn_membuf j = {0}, j2 = {0};
    pgn_json_reader *r = NULL;
    pgn_game *g2 = NULL;
    js_count c;
    pgn_json_reader_opts ro;
    memset(&c, 0, sizeof c);
    memset(&ro, 0, sizeof ro);
    ro.on_diag = js_on_diag;
    ro.diag_ctx = &c;
    if (!js_write(g, &j) || pgn_game_new(&g2, NULL) != PGN_OK ||
        pgn_json_reader_new_mem(&r, &ro, j.ptr, j.len) != PGN_OK) {
        goto done;
    }
    pgn_status st = pgn_json_reader_next(r, g2);
    if (st != PGN_OK) {
        fprintf(stderr, "JSON re-read: %s at %u:%u: %s\n", pgn_status_name(st), c.last.at.line,
                c.last.at.column, pgn_json_reader_detail(r));
    }
    FUZZ_CHECK(st == PGN_OK && c.n == 0, "the JSON does not re-read cleanly");
    FUZZ_CHECK(fz_same_tree(g, g2), "the JSON re-read tree differs");
    FUZZ_CHECK(pgn_game_result(g) == pgn_game_result(g2), "the JSON re-read result differs");
    FUZZ_CHECK(js_same_start(g, g2), "the JSON re-read start position differs");
    if (js_write(g2, &j2)) {
        if (j2.len != j.len || memcmp(j.ptr, j2.ptr, j.len) != 0) {
            fprintf(stderr, "J: %.*s\nagain: %.*s\n", (int)j.len, j.ptr, (int)j2.len, j2.ptr);
        }
        FUZZ_CHECK(j2.len == j.len && memcmp(j.ptr, j2.ptr, j.len) == 0,
                   "to_json(from_json(J)) != J");
    }
    FUZZ_CHECK(pgn_json_reader_next(r, g2) == PGN_END, "the JSON re-reads as more than one game");
done:
    pgn_json_reader_free(r);
    pgn_game_free(g2);
    free(j.ptr);
    free(j2.ptr);
}

int FUZZ_ENTRY(const uint8_t *data, size_t size) {
    if (size < 1) {
        return 0;
    }
    pgn_json_reader_opts ro;
    js_count c;
    memset(&ro, 0, sizeof ro);
    memset(&c, 0, sizeof c);
    ro.on_diag = js_on_diag;
    ro.diag_ctx = &c;
    if (data[0] & 0x80) {
        ro.max_token = 64;
        ro.max_depth = 8;
    }
    fz_src src = {data + 1, size - 1, 0, (data[0] & 0x40) ? 0 : (size_t)(data[0] & 0x3F) + 1};
    pgn_json_reader *r = NULL;
    pgn_game *g = NULL;
    if (pgn_json_reader_new(&r, &ro, fz_src_read, &src) != PGN_OK ||
        pgn_game_new(&g, NULL) != PGN_OK) {
        pgn_json_reader_free(r);
        pgn_game_free(g);
        return 0;
    }
    uint64_t calls = 0, games = 0;
    pgn_status st;
    /* each game, good or bad, takes at least two bytes ("{}"): more calls would be a loop */
    while (calls++ <= src.len / 2 + 1) {
        unsigned long before = c.n;
        st = pgn_json_reader_next(r, g);
        FUZZ_CHECK(st == PGN_OK || st == PGN_END || st == PGN_E_BAD_JSON || st == PGN_E_BAD_FEN ||
                       st == PGN_E_UNSUPPORTED_VARIANT || st == PGN_E_BAD_SAN ||
                       st == PGN_E_ILLEGAL_MOVE || st == PGN_E_AMBIGUOUS_MOVE ||
                       st == PGN_E_LIMIT || st == PGN_E_BROKEN_GAME,
                   "an undocumented status");
        if (st == PGN_END) {
            FUZZ_CHECK(c.n == before, "PGN_END with a diagnostic");
            break;
        }
        games++;
        if (st != PGN_OK) {
            FUZZ_CHECK(c.n == before + 1, "a failed game without exactly one diagnostic");
            FUZZ_CHECK(c.last.code == st && c.last.severity == PGN_SEV_ERROR,
                       "the diagnostic is not the status");
            FUZZ_CHECK(c.last.at.line >= 1 && c.last.at.column >= 1 && c.last.at.offset <= src.len,
                       "the diagnostic's place");
            continue;
        }
        FUZZ_CHECK(c.n == before, "a game read with a diagnostic");
        js_pgn_roundtrip(g);
        js_json_roundtrip(g);
    }
    FUZZ_CHECK(st == PGN_END, "the reader does not reach PGN_END");
    FUZZ_CHECK(pgn_json_reader_next(r, g) == PGN_END, "PGN_END does not stay");
    uint64_t tg, te;
    pgn_json_reader_totals(r, &tg, &te);
    FUZZ_CHECK(te == c.n, "totals: errors");
    /* the totals count game objects; a fatal error (syntax, limit) is no game and ends reading */
    FUZZ_CHECK(tg <= games && games <= tg + 1, "totals: games");
    pgn_game_free(g);
    pgn_json_reader_free(r);
    return 0;
}
