/* SPDX-License-Identifier: MIT */
/* The games' bytes in blocks (schema 4, issue 30): the original bytes of up to BLOCK_GAMES games
 * (or BLOCK_BYTES) one after the other, compressed as one zstd frame through the library's
 * encoder (codec 1), or kept plain (codec 0) in a build without libzstd; a games row says its
 * block, offset and length. Reading decodes a block through a memory source and keeps the last
 * one decoded in the handle, so that the games of a block read in order decode it once. */
#include "db_int.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK_GAMES 64
#define BLOCK_BYTES (64 * 1024)

enum { CODEC_PLAIN = 0, CODEC_ZSTD = 1 };

/* The blocks being compressed on the packer's thread: slot k % NSLOT holds the block k
 * handed over (counted from 1); blocks [written, packed) are compressed and wait to be inserted,
 * blocks [packed, handed) wait to be compressed. */
#define NSLOT 8

typedef struct slot {
    int64_t id;
    pgn_membuf text, packed;
    int zstd; /* 1: packed holds the frame; 0: the block stays plain */
} slot;

struct pgnk_packer {
    pthread_t th;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    slot s[NSLOT];
    uint64_t handed, packed, written;
    int quit;
    pgn_encoder *enc;
    pgn_membuf out;
    int no_zstd;
};

/* text compressed into *packed by *enc (made at the first call); 1 when it was, 0 when it stays
 * plain (a build without libzstd, or no memory: then every later block too). */
static int pack(pgn_encoder **enc, int *no_zstd, const pgn_membuf *text, pgn_membuf *packed) {
    if (*enc == NULL && !*no_zstd &&
        pgn_encoder_new(enc, PGN_FORMAT_ZSTD, pgn_membuf_write, packed, NULL, 0) != PGN_OK) {
        *no_zstd = 1;
    }
    if (*enc == NULL || text->len == 0) {
        return 0;
    }
    packed->len = 0;
    /* the encoder ends a zstd frame at each finish and starts the next at the next write */
    if (pgn_encoder_write(*enc, text->ptr, text->len) < 0 || pgn_encoder_finish(*enc) != PGN_OK) {
        pgn_encoder_free(*enc);
        *enc = NULL;
        *no_zstd = 1;
        return 0;
    }
    return 1;
}

static void *packer_main(void *arg) {
    pgnk_packer *k = arg;
    pthread_mutex_lock(&k->mu);
    for (;;) {
        while (k->packed == k->handed && !k->quit) {
            pthread_cond_wait(&k->cv, &k->mu);
        }
        if (k->packed == k->handed) {
            break;
        }
        slot *sl = &k->s[k->packed % NSLOT];
        pthread_mutex_unlock(&k->mu);
        /* the encoder writes into k->out (its target since it was made), swapped into the slot */
        sl->zstd = pack(&k->enc, &k->no_zstd, &sl->text, &k->out);
        pgn_membuf t = sl->packed;
        sl->packed = k->out;
        k->out = t;
        pthread_mutex_lock(&k->mu);
        k->packed++;
        pthread_cond_broadcast(&k->cv);
    }
    pthread_mutex_unlock(&k->mu);
    return NULL;
}
/* A block's row: its id, codec, size (its text's bytes) and stored bytes. */
static pgn_status insert_block(pgnk_blockw *w, pgn_db *db, int64_t id, int z, size_t size,
                               const pgn_membuf *b) {
    if (w->ins == NULL && sqlite3_prepare_v2(db->sql, "INSERT INTO blocks VALUES(?, ?, ?, ?)", -1,
                                             &w->ins, NULL) != SQLITE_OK) {
        return PGN_E_IO;
    }
    sqlite3_bind_int64(w->ins, 1, id);
    sqlite3_bind_int(w->ins, 2, z ? CODEC_ZSTD : CODEC_PLAIN);
    sqlite3_bind_int64(w->ins, 3, (sqlite3_int64)size);
    sqlite3_bind_blob(w->ins, 4, b->ptr ? b->ptr : "", (int)b->len, SQLITE_STATIC);
    int rc = sqlite3_step(w->ins);
    sqlite3_reset(w->ins);
    return rc == SQLITE_DONE ? PGN_OK : PGN_E_IO;
}

pgn_status pgnk_blockw_threaded(pgnk_blockw *w) {
    pgnk_packer *k = calloc(1, sizeof *k);
    if (k == NULL) {
        return PGN_E_NOMEM;
    }
    int mu = pthread_mutex_init(&k->mu, NULL) == 0;
    int cv = mu && pthread_cond_init(&k->cv, NULL) == 0;
    if (!cv || pthread_create(&k->th, NULL, packer_main, k) != 0) {
        if (cv) { /* (only what was made is destroyed) */
            pthread_cond_destroy(&k->cv);
        }
        if (mu) {
            pthread_mutex_destroy(&k->mu);
        }
        free(k);
        return PGN_E_NOMEM;
    }
    w->pk = k;
    return PGN_OK;
}

/* The packer's blocks up to the upto-th handed over inserted in order, waiting for each to be
 * packed; the first failure is returned, the blocks after it dropped. */
static pgn_status write_packed(pgnk_blockw *w, pgn_db *db, uint64_t upto) {
    pgnk_packer *k = w->pk;
    pgn_status s = PGN_OK;
    while (k->written < upto) {
        pthread_mutex_lock(&k->mu);
        while (k->packed <= k->written) {
            pthread_cond_wait(&k->cv, &k->mu);
        }
        pthread_mutex_unlock(&k->mu);
        const slot *sl = &k->s[k->written % NSLOT];
        if (s == PGN_OK) {
            s = insert_block(w, db, sl->id, sl->zstd, sl->text.len,
                             sl->zstd ? &sl->packed : &sl->text);
        }
        k->written++;
    }
    return s;
}

/* The open block closed: packed and inserted here, or handed to the packer (the blocks it has
 * packed by then inserted). */
static pgn_status close_block(pgnk_blockw *w, pgn_db *db) {
    pgnk_packer *k = w->pk;
    pgn_status s = PGN_OK;
    if (k == NULL) {
        int z = w->text.len > 0 && pack(&w->enc, &w->no_zstd, &w->text, &w->packed);
        s = insert_block(w, db, w->id, z, w->text.len, z ? &w->packed : &w->text);
    } else {
        if (k->handed - k->written == NSLOT) {
            s = write_packed(w, db, k->written + 1); /* room for it */
        }
        slot *sl = &k->s[k->handed % NSLOT];
        sl->id = w->id;
        pgn_membuf t = sl->text;
        sl->text = w->text;
        w->text = t;
        pthread_mutex_lock(&k->mu);
        k->handed++;
        uint64_t done = k->packed;
        pthread_cond_broadcast(&k->cv);
        pthread_mutex_unlock(&k->mu);
        if (s == PGN_OK) {
            s = write_packed(w, db, done);
        }
    }
    w->id = 0;
    w->games = 0;
    w->text.len = 0;
    return s;
}

pgn_status pgnk_blockw_add(pgnk_blockw *w, pgn_db *db, pgn_str raw, int64_t *block,
                           int64_t *offset) {
    if (w->id == 0 && w->next == 0) {
        /* the batch's first block: the blocks of the batch are numbered from here, as the packer
         * may insert them after their games */
        sqlite3_stmt *st = NULL;
        if (sqlite3_prepare_v2(db->sql, "SELECT coalesce(max(id), 0) + 1 FROM blocks", -1, &st,
                               NULL) != SQLITE_OK ||
            sqlite3_step(st) != SQLITE_ROW) {
            sqlite3_finalize(st);
            return PGN_E_IO;
        }
        w->next = sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
    }
    if (w->id == 0) {
        w->id = w->next++;
    }
    *block = w->id;
    *offset = (int64_t)w->text.len;
    if (raw.len > 0 && pgn_membuf_write(&w->text, raw.ptr, raw.len) < 0) {
        return PGN_E_NOMEM;
    }
    w->games++;
    return w->games >= BLOCK_GAMES || w->text.len >= BLOCK_BYTES ? close_block(w, db) : PGN_OK;
}

pgn_status pgnk_blockw_flush(pgnk_blockw *w, pgn_db *db) {
    pgn_status s = w->id != 0 ? close_block(w, db) : PGN_OK;
    if (w->pk != NULL) {
        pgn_status t = write_packed(w, db, w->pk->handed);
        s = s != PGN_OK ? s : t;
    }
    w->next = 0; /* the next batch asks the table: another import may have written since */
    return s;
}

void pgnk_blockw_reset(pgnk_blockw *w) {
    pgnk_packer *k = w->pk;
    if (k != NULL) { /* the blocks handed over are dropped once packed */
        pthread_mutex_lock(&k->mu);
        while (k->packed < k->handed) {
            pthread_cond_wait(&k->cv, &k->mu);
        }
        pthread_mutex_unlock(&k->mu);
        k->written = k->handed;
    }
    w->id = 0;
    w->next = 0;
    w->games = 0;
    w->text.len = 0;
}

void pgnk_blockw_free(pgnk_blockw *w) {
    pgnk_packer *k = w->pk;
    if (k != NULL) {
        pthread_mutex_lock(&k->mu);
        k->quit = 1;
        pthread_cond_broadcast(&k->cv);
        pthread_mutex_unlock(&k->mu);
        pthread_join(k->th, NULL);
        for (unsigned i = 0; i < NSLOT; i++) {
            pgn_membuf_free(&k->s[i].text);
            pgn_membuf_free(&k->s[i].packed);
        }
        pgn_membuf_free(&k->out);
        pgn_encoder_free(k->enc);
        pthread_cond_destroy(&k->cv);
        pthread_mutex_destroy(&k->mu);
        free(k);
    }
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
