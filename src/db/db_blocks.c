/* SPDX-License-Identifier: MIT */
/* The games' bytes in blocks (schema 4, issue 30): the original bytes of up to BLOCK_GAMES games
 * (or BLOCK_BYTES) one after the other, compressed as one zstd frame through the library's
 * encoder (codec 1), or kept plain (codec 0) in a build without libzstd; a games row says its
 * block, offset and length. Reading decodes a block through a memory source and keeps the last
 * one decoded in the handle, so that the games of a block read in order decode it once. */
#include "db_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK_GAMES 64
#define BLOCK_BYTES (64 * 1024)

enum { CODEC_PLAIN = 0, CODEC_ZSTD = 1 };

pgn_status pgnk_blockw_add(pgnk_blockw *w, pgn_db *db, pgn_str raw, int64_t *block,
                           int64_t *offset) {
    if (w->id == 0) {
        sqlite3_stmt *st = NULL;
        if (sqlite3_prepare_v2(db->sql, "SELECT coalesce(max(id), 0) + 1 FROM blocks", -1, &st,
                               NULL) != SQLITE_OK ||
            sqlite3_step(st) != SQLITE_ROW) {
            sqlite3_finalize(st);
            return PGN_E_IO;
        }
        w->id = sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
    }
    *block = w->id;
    *offset = (int64_t)w->text.len;
    if (raw.len > 0 && pgn_membuf_write(&w->text, raw.ptr, raw.len) < 0) {
        return PGN_E_NOMEM;
    }
    w->games++;
    return w->games >= BLOCK_GAMES || w->text.len >= BLOCK_BYTES ? pgnk_blockw_flush(w, db)
                                                                 : PGN_OK;
}

/* The block's text compressed into w->packed; 1 when it was, 0 when it stays plain. */
static int pack(pgnk_blockw *w) {
    if (w->enc == NULL && !w->no_zstd &&
        pgn_encoder_new(&w->enc, PGN_FORMAT_ZSTD, pgn_membuf_write, &w->packed, NULL, 0) !=
            PGN_OK) {
        w->no_zstd = 1; /* a build without libzstd (or no memory): plain blocks */
    }
    if (w->enc == NULL) {
        return 0;
    }
    w->packed.len = 0;
    /* the encoder ends a zstd frame at each finish and starts the next at the next write */
    if (pgn_encoder_write(w->enc, w->text.ptr, w->text.len) < 0 ||
        pgn_encoder_finish(w->enc) != PGN_OK) {
        pgn_encoder_free(w->enc);
        w->enc = NULL;
        w->no_zstd = 1;
        return 0;
    }
    return 1;
}

pgn_status pgnk_blockw_flush(pgnk_blockw *w, pgn_db *db) {
    if (w->id == 0) {
        return PGN_OK;
    }
    if (w->ins == NULL && sqlite3_prepare_v2(db->sql, "INSERT INTO blocks VALUES(?, ?, ?, ?)", -1,
                                             &w->ins, NULL) != SQLITE_OK) {
        return PGN_E_IO;
    }
    int z = w->text.len > 0 && pack(w);
    const pgn_membuf *b = z ? &w->packed : &w->text;
    sqlite3_bind_int64(w->ins, 1, w->id);
    sqlite3_bind_int(w->ins, 2, z ? CODEC_ZSTD : CODEC_PLAIN);
    sqlite3_bind_int64(w->ins, 3, (sqlite3_int64)w->text.len);
    sqlite3_bind_blob(w->ins, 4, b->ptr ? b->ptr : "", (int)b->len, SQLITE_STATIC);
    int rc = sqlite3_step(w->ins);
    sqlite3_reset(w->ins);
    w->id = 0;
    w->games = 0;
    w->text.len = 0;
    return rc == SQLITE_DONE ? PGN_OK : PGN_E_IO;
}

void pgnk_blockw_reset(pgnk_blockw *w) {
    w->id = 0;
    w->games = 0;
    w->text.len = 0;
}

void pgnk_blockw_free(pgnk_blockw *w) {
    sqlite3_finalize(w->ins);
    pgn_encoder_free(w->enc);
    pgn_membuf_free(&w->text);
    pgn_membuf_free(&w->packed);
    memset(w, 0, sizeof *w);
}

/* Block id decoded into db->cache (plain: copied); PGN_OK, PGN_E_IO (msg set). */
static pgn_status load_block(pgn_db *db, int64_t id, char *msg, size_t cap) {
    sqlite3_stmt *st = db->block_st;
    if (st == NULL &&
        sqlite3_prepare_v2(db->sql, "SELECT codec, size, data FROM blocks WHERE id = ?", -1,
                           &db->block_st, NULL) != SQLITE_OK) {
        return pgnk_db_fail(db, "games", msg, cap);
    }
    st = db->block_st;
    db->cache_id = 0;
    db->cache.len = 0;
    sqlite3_bind_int64(st, 1, id);
    pgn_status s = PGN_OK;
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        int codec = sqlite3_column_int(st, 0);
        int64_t size = sqlite3_column_int64(st, 1);
        const void *p = sqlite3_column_blob(st, 2);
        size_t n = (size_t)sqlite3_column_bytes(st, 2);
        s = pgnk_db_unpack(&db->cache, codec, size, p, n, msg, cap);
    } else {
        s = rc == SQLITE_DONE ? PGN_E_IO : pgnk_db_fail(db, "games", msg, cap);
        if (rc == SQLITE_DONE && msg != NULL && cap > 0) {
            snprintf(msg, cap, "games: block %lld is missing (a damaged database)", (long long)id);
        }
    }
    sqlite3_reset(st);
    db->cache_id = s == PGN_OK ? id : 0;
    return s;
}

pgn_status pgnk_db_unpack(pgn_membuf *out, int codec, int64_t size, const void *p, size_t n,
                          char *msg, size_t cap) {
    const char *bad = NULL;
    out->len = 0;
    if (codec == CODEC_PLAIN) {
        if (n > 0 && pgn_membuf_write(out, p, n) < 0) {
            bad = "out of memory";
        }
    } else if (codec != CODEC_ZSTD || size < 0 || size > (int64_t)1 << 30) {
        bad = "a block of an unknown kind (a damaged database)";
    } else {
        pgn_source *src = NULL;
        if (pgn_source_open_mem(&src, p != NULL ? p : "", n, NULL, NULL, 0) != PGN_OK) {
            bad = "cannot decode a block (a damaged database, or no libzstd)";
        }
        char buf[16384];
        ptrdiff_t r = 0;
        while (bad == NULL && (r = pgn_source_read(src, buf, sizeof buf)) > 0) {
            if (out->len + (size_t)r > (size_t)size) {
                bad = "a block larger than it says (a damaged database)";
            } else if (pgn_membuf_write(out, buf, (size_t)r) < 0) {
                bad = "out of memory";
            }
        }
        if (bad == NULL && (r < 0 || out->len != (size_t)size)) {
            bad = "a block that does not decode (a damaged database)";
        }
        pgn_source_free(src);
    }
    if (bad != NULL) {
        if (msg != NULL && cap > 0) {
            snprintf(msg, cap, "games: %s", bad);
        }
        return strcmp(bad, "out of memory") == 0 ? PGN_E_NOMEM : PGN_E_IO;
    }
    return PGN_OK;
}

pgn_status pgnk_db_slice(pgn_db *db, int64_t block, int64_t offset, int64_t length, pgn_str *out,
                         char *msg, size_t cap) {
    if (block != db->cache_id || block == 0) {
        pgn_status s = load_block(db, block, msg, cap);
        if (s != PGN_OK) {
            return s;
        }
    }
    if (offset < 0 || length < 0 || (uint64_t)offset > db->cache.len ||
        (uint64_t)length > db->cache.len - (uint64_t)offset) {
        if (msg != NULL && cap > 0) {
            snprintf(msg, cap, "games: a game outside its block (a damaged database)");
        }
        return PGN_E_IO;
    }
    out->ptr = db->cache.ptr != NULL ? db->cache.ptr + offset : "";
    out->len = (size_t)length;
    return PGN_OK;
}

pgn_status pgnk_db_game_bytes(pgn_db *db, int64_t id, pgn_str *out, char *msg, size_t cap) {
    if (db->game_st == NULL &&
        sqlite3_prepare_v2(db->sql, "SELECT block, start, length FROM games WHERE id = ?", -1,
                           &db->game_st, NULL) != SQLITE_OK) {
        return pgnk_db_fail(db, "games", msg, cap);
    }
    sqlite3_stmt *st = db->game_st;
    sqlite3_bind_int64(st, 1, id);
    int rc = sqlite3_step(st);
    pgn_status s = PGN_END;
    if (rc == SQLITE_ROW) {
        s = pgnk_db_slice(db, sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1),
                          sqlite3_column_int64(st, 2), out, msg, cap);
    } else if (rc != SQLITE_DONE) {
        s = pgnk_db_fail(db, "games", msg, cap);
    }
    sqlite3_reset(st);
    return s;
}
