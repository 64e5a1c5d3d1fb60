/* SPDX-License-Identifier: MIT */
/* Fuzz target: the streaming reader (STYLE C11). Byte 0 gives the reader flags (bits 0-4) and the
 * encoding (bits 5-7); byte 1 the chunk size of the read callback (bits 0-5 + 1, or the whole
 * input with bit 6) and tight limits (bit 7: max_token 64, max_depth 4), so chunk boundaries and
 * limits are fuzzed. Every game is built and exported; invariants: reading ends with PGN_END, the
 * summaries' byte ranges are in the input, with KEEP_RAW the raw pieces are the input's bytes back
 * to back, the export of the sound games re-reads without any diagnostic, game for game, and the
 * JSON of every game equals the JSON written with SAN and FEN from the board alone
 * (PGN_JSON_RECOMPUTE: neither the SAN kept in the nodes nor the FEN text kept from move to move);
 * a read that skips every movetext (the lexer's fast skip) cuts the same games at the same bytes;
 * the text read from memory and through the read callback (byte 1's chunks, or random sizes) gives
 * the same callbacks, diagnostics and summaries (fuzz_log.h), for a kind of visitor picked by the
 * input's size and last byte (2026-12-07: under the move gate a move the window cut was given to
 * the visitor where a whole read passed it).
 */
#include "fuzz_common.h"
#include "fuzz_log.h"

#ifndef FUZZ_ENTRY
#define FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

int FUZZ_ENTRY(const uint8_t *data, size_t size);

/* Re-reads the export: as many games as were written, none broken, no diagnostic. */
static void rd_reread(const pgn_membuf *out, uint64_t written, pgn_encoding enc) {
    fz_diags d;
    pgn_reader_opts ro;
    pgn_reader *r;
    pgn_game *g;
    fz_diag_opts(&ro, &d);
    ro.encoding = enc; /* forced UTF-8 passes bad bytes through: they stay bad, without a warning */
    if (pgn_reader_new_mem(&r, &ro, out->ptr ? out->ptr : "", out->len) != PGN_OK) {
        return;
    }
    if (pgn_game_new(&g, NULL) != PGN_OK) {
        pgn_reader_free(r);
        return;
    }
    uint64_t n = 0;
    pgn_status st;
    while ((st = pgn_reader_next(r, g)) == PGN_OK) {
        n++;
        FUZZ_CHECK(!pgn_reader_summary(r)->broken, "a written game re-reads broken");
    }
    FUZZ_CHECK(st == PGN_END, "re-reading the export did not end with PGN_END");
    FUZZ_CHECK(n == written, "the export re-reads as a different number of games");
    fz_check_no_diags(&d, "the export re-reads with diagnostics");
    pgn_game_free(g);
    pgn_reader_free(r);
}

/* The skipped read (end_tags says SKIP: the movetext passed over by the lexer's fast skip, no
 * token reported) cuts the games where the full read did, broken ones too. ranges: start and end
 * of each game. */
static pgn_flow rd_skip(void *user, const pgn_pos *start) {
    (void)user;
    (void)start;
    return PGN_FLOW_SKIP;
}

static void rd_skipped(const pgn_reader_opts *opts, fz_src src, const uint64_t *ranges,
                       uint64_t games) {
    static const pgn_visitor v = {NULL, NULL, rd_skip, NULL, NULL, NULL, NULL, NULL, NULL};
    pgn_reader_opts ro = *opts;
    ro.on_diag = NULL;
    pgn_reader *r;
    src.pos = 0;
    if (pgn_reader_new(&r, &ro, fz_src_read, &src) != PGN_OK) {
        return;
    }
    uint64_t n = 0;
    pgn_status st;
    while ((st = pgn_reader_visit(r, &v, NULL)) == PGN_OK) {
        const pgn_game_summary *s = pgn_reader_summary(r);
        if (n == games) {
            break; /* one more than the full read: said below */
        }
        FUZZ_CHECK(ranges[2 * n] == s->start.offset, "the skipped read starts a game elsewhere");
        FUZZ_CHECK(ranges[2 * n + 1] == s->end_offset, "the skipped read ends a game elsewhere");
        n++;
    }
    FUZZ_CHECK(st == PGN_END && n == games, "the skipped read finds other games");
    pgn_reader_free(r);
}

/* The text of src read from memory and in src's chunks (random sizes where src hands it whole) as
 * the kind of reading pick names: the same log. */
static void rd_chunked(const pgn_reader_opts *opts, const fz_src *src, unsigned pick) {
    pgn_reader_opts ro = *opts;
    enum fz_kind kind = (enum fz_kind)(pick % FZ_KINDS);
    pgn_membuf whole = {0}, part = {0};
    const char *text = src->len ? (const char *)src->p : "";
    fz_log_read(&whole, text, src->len, &ro, kind, FZ_WHOLE, pick, 0);
    fz_log_read(&part, text, src->len, &ro, kind, src->chunk ? src->chunk : SIZE_MAX, pick, pick);
    size_t i = 0;
    while (i < whole.len && i < part.len && whole.ptr[i] == part.ptr[i]) {
        i++;
    }
    if (i < whole.len || i < part.len) {
        size_t a = i;
        while (a > 0 && whole.ptr[a - 1] != '\n') {
            a--;
        }
        fprintf(stderr, "%s, chunks of %zu: whole '%.120s' chunked '%.120s'\n", fz_kind_names[kind],
                src->chunk, whole.ptr ? whole.ptr + a : "", part.ptr ? part.ptr + a : "");
    }
    FUZZ_CHECK(i == whole.len && i == part.len, "read whole and in chunks: other callbacks");
    pgn_membuf_free(&whole);
    pgn_membuf_free(&part);
}

int FUZZ_ENTRY(const uint8_t *data, size_t size) {
    if (size < 2) {
        return 0;
    }
    static const pgn_encoding encodings[5] = {PGN_ENC_AUTO, PGN_ENC_UTF8, PGN_ENC_LATIN1,
                                              PGN_ENC_CP1252, PGN_ENC_CP437};
    pgn_reader_opts ro;
    fz_diags d;
    memset(&ro, 0, sizeof ro);
    memset(&d, 0, sizeof d);
    ro.flags = data[0] & 0x1Fu;
    ro.encoding = encodings[(data[0] >> 5) % 5];
    ro.on_diag = fz_on_diag;
    ro.diag_ctx = &d;
    if (data[1] & 0x80) {
        ro.max_token = 64;
        ro.max_depth = 4;
    }
    fz_src src = {data + 2, size - 2, 0, (data[1] & 0x40) ? 0 : (size_t)(data[1] & 0x3F) + 1};
    int keep_raw = (ro.flags & PGN_READ_KEEP_RAW) != 0;
    ro.flags |= keep_raw ? PGN_READ_KEEP_LEAD : 0u; /* the text before the first game too */
    pgn_membuf out = {0}, json = {0}, json_board = {0};
    pgn_reader *r = NULL;
    pgn_writer *w = NULL;
    pgn_game *g = NULL;
    pgn_json_writer *jw = NULL, *jb = NULL;
    pgn_json_writer_opts jo = {PGN_JSON_NDJSON, 0, NULL},
                         jbo = {PGN_JSON_NDJSON | PGN_JSON_RECOMPUTE, 0, NULL};
    if (pgn_reader_new(&r, &ro, fz_src_read, &src) != PGN_OK || pgn_game_new(&g, NULL) != PGN_OK ||
        pgn_writer_new(&w, NULL, pgn_membuf_write, &out) != PGN_OK ||
        pgn_json_writer_new(&jw, &jo, pgn_membuf_write, &json) != PGN_OK ||
        pgn_json_writer_new(&jb, &jbo, pgn_membuf_write, &json_board) != PGN_OK) {
        pgn_json_writer_free(jw);
        pgn_writer_free(w);
        pgn_reader_free(r);
        pgn_game_free(g);
        return 0;
    }
    uint64_t next = UINT64_MAX, written = 0, games = 0, *ranges = NULL;
    size_t cap = 0;
    pgn_status st;
    while ((st = pgn_reader_next(r, g)) == PGN_OK) {
        const pgn_game_summary *s = pgn_reader_summary(r);
        if (games == cap) {
            cap = cap ? 2 * cap : 16;
            uint64_t *q = realloc(ranges, 2 * cap * sizeof *q);
            FUZZ_CHECK(q != NULL, "out of memory");
            ranges = q;
        }
        ranges[2 * games] = s->start.offset;
        ranges[2 * games + 1] = s->end_offset;
        games++;
        FUZZ_CHECK(s->game == games, "summary game ordinal");
        FUZZ_CHECK(s->start.offset <= s->end_offset && s->end_offset <= src.len,
                   "summary byte range");
        FUZZ_CHECK(s->broken || s->errors == 0, "a game with errors is not broken");
        if (keep_raw) {
            pgn_str raw = pgn_reader_raw(r);
            FUZZ_CHECK(raw.len == s->end_offset - s->start.offset, "raw length");
            FUZZ_CHECK(raw.len == 0 || memcmp(raw.ptr, src.p + s->start.offset, raw.len) == 0,
                       "raw bytes are not the input's");
            FUZZ_CHECK(next == UINT64_MAX || next == s->start.offset,
                       "raw pieces are not back to back");
            pgn_str lead, between = pgn_reader_raw_between(r, &lead);
            FUZZ_CHECK(between.len <= raw.len &&
                           (between.len == 0 || between.ptr + between.len == raw.ptr + raw.len),
                       "the text between games is not the end of the raw bytes");
            FUZZ_CHECK(games == 1 ? lead.len == s->start.offset &&
                                        (lead.len == 0 || memcmp(lead.ptr, src.p, lead.len) == 0)
                                  : lead.len == 0,
                       "the text before the first game is not the input's");
            next = s->end_offset;
        }
        if (!s->broken && !(ro.flags & PGN_READ_NO_BOARD)) {
            FUZZ_CHECK(pgn_writer_write(w, g) == PGN_OK, "pgn_writer_write failed");
            written++;
        }
        if (!(ro.flags & PGN_READ_NO_BOARD)) {
            FUZZ_CHECK(pgn_json_writer_write(jw, g) == PGN_OK &&
                           pgn_json_writer_write(jb, g) == PGN_OK,
                       "pgn_json_writer_write failed");
            FUZZ_CHECK(json.len == json_board.len &&
                           (json.len == 0 || memcmp(json.ptr, json_board.ptr, json.len) == 0),
                       "the JSON differs from the JSON with SAN and FEN from the board alone");
        }
    }
    FUZZ_CHECK(st == PGN_END, "reading did not end with PGN_END");
    FUZZ_CHECK(!keep_raw || games == 0 || next == src.len, "raw pieces do not reach the end");
    uint64_t tg, te;
    pgn_reader_totals(r, &tg, &te, NULL);
    FUZZ_CHECK(tg == games && te == d.errors, "totals");
    pgn_json_writer_free(jb);
    pgn_json_writer_free(jw);
    pgn_writer_free(w);
    pgn_game_free(g);
    pgn_reader_free(r);
    rd_reread(&out, written, ro.encoding == PGN_ENC_UTF8 ? PGN_ENC_UTF8 : PGN_ENC_AUTO);
    rd_skipped(&ro, src, ranges, games);
    ro.on_diag = NULL;
    rd_chunked(&ro, &src, (unsigned)size + data[size - 1]);
    free(ranges);
    free(json.ptr);
    free(json_board.ptr);
    free(out.ptr);
    return 0;
}
