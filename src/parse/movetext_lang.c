/* SPDX-License-Identifier: MIT */
/* Movetext in other languages' piece letters (PGN §17) and figurines, found per game (issue 15;
 * docs/notation.md). English is read first, by the fast path, and pays only for remembering which
 * first letters its moves had. When English cannot read a move, every language (one per set of
 * letters) that agrees with the moves read so far (each letter used means the same piece in it)
 * and reads this move legally becomes a candidate; the rest of the game is read in the candidates,
 * a move dropping those that cannot read it. Candidates that read a move as different moves are
 * never chosen between: E_LANGUAGE_AMBIGUOUS names them and ends the line. At the end of the
 * movetext W_LANGUAGE names the language(s) that read the whole game. */
#include "parse.h"

#include "../base/bits.h"

#include <stdio.h>
#include <string.h>

#define BIT(l) ((uint32_t)1 << (l))
/* the descriptive notations (src/chess/descriptive.c) */
#define DESCRIPTIVE                                                                                \
    (BIT(PGN_LANG_DESCRIPTIVE) | BIT(PGN_LANG_DESCRIPTIVE_ES) | BIT(PGN_LANG_DESCRIPTIVE_PT))

static int forced(const pgn_reader *r) {
    return r->opts.input_lang != PGN_LANG_ENGLISH;
}

/* The game's languages are now set: when they are one language of one-byte letters, its map
 * from letters to English ones, so that its moves are translated in one pass (read_fast). */
static void set_cands(pgn_reader *r, uint32_t set) {
    if (set == r->lang_cands && (r->lang_fast || set == 0)) {
        return;
    }
    r->lang_cands = set;
    int l = set ? (int)bits_ctz(set) : 0;
    r->lang_fast = set != 0 && (set & (set - 1)) == 0 && l != PGN_LANG_RUSSIAN &&
                   l != PGN_LANG_FIGURINE && !pgn_lang_is_descriptive((pgn_lang)l);
    if (r->lang_fast &&
        r->lang_map_of != l + 1) { /* bytes kept as they are, but uppercase letters (other
           languages'), lowercase ones past h but x (English's lax nf3) and NUL */
        for (int c = 0; c < 128; c++) {
            int keep = c != 0 && !(c >= 'A' && c <= 'Z') && !(c >= 'i' && c <= 'z' && c != 'x');
            r->lang_map[c] = keep ? (char)c : 0;
        }
        for (int t = PGN_PAWN; t <= PGN_KING; t++) {
            r->lang_map[(unsigned char)pgn_lang_letter((pgn_lang)l, (pgn_piece_type)t)[0]] =
                "PNBRQK"[t - PGN_PAWN];
        }
        r->lang_map_of = (uint8_t)(l + 1);
    }
}

void pgnk_lang_game_start(pgn_reader *r) {
    r->lead_seen = 0;
    r->moves_or = 0;
    r->lang_tainted = 0;
    r->lang_tok_len = 0;
    r->lang_hinted = 0;
    r->lang_by_prior = 0;
    set_cands(r, forced(r) ? BIT(r->opts.input_lang) : 0);
}

int pgnk_lang_fast(const pgn_reader *r, const pgn_pos *pos, const char *s, size_t n, uint32_t flags,
                   pgn_san_result *res) {
    char buf[PGN_SAN_LANG_MAX];
    if (n > sizeof buf) {
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x80 || (buf[i] = r->lang_map[c]) == 0) {
            return 0; /* castling's O, a letter of another language, a glyph */
        }
    }
    return pgn_san_parse(pos, buf, n, flags, res) == PGN_OK;
}

/* The piece English gives letter c (0: none). */
static int english_piece(char c) {
    const char *p = c ? strchr("PNBRQK", c) : NULL;
    return p ? (int)(p - "PNBRQK") + PGN_PAWN : 0;
}

/* The piece lang gives the one-byte letter c (0: none). */
static int lang_piece(pgn_lang lang, char c) {
    for (int t = PGN_PAWN; t <= PGN_KING; t++) {
        const char *l = pgn_lang_letter(lang, (pgn_piece_type)t);
        if (l[0] == c && l[1] == '\0') {
            return t;
        }
    }
    return 0;
}

/* Whether lang reads every move English read so far as English did: each uppercase first letter
 * means the same piece in both (castling's O and the null move's Z aside), and no promotion was
 * read. Figurines are read with English letters, so they always agree. */
static int agrees(const pgn_reader *r, pgn_lang lang) {
    if (lang == PGN_LANG_FIGURINE) {
        return 1;
    }
    if (pgn_lang_is_descriptive(lang)) {
        return r->lead_seen == 0 && !r->lang_tainted; /* English read no move of the game */
    }
    if (r->lang_tainted) {
        return 0;
    }
    for (uint64_t seen = r->lead_seen & 0x7FFFFFEu; seen; seen &= seen - 1) { /* 'A'..'Z' */
        char c = (char)('@' + bits_ctz(seen));
        if (c != 'O' && c != 'Z' && english_piece(c) != lang_piece(lang, c)) {
            return 0;
        }
    }
    /* the first byte of a move in 'i'..'z' (bits 41..58): English's lowercase pieces (nf3),
     * which no other language reads */
    if (r->lead_seen & (((uint64_t)1 << (('z' & 63) + 1)) - ((uint64_t)1 << ('i' & 63)))) {
        return 0;
    }
    /* Promotions read in English: the English path keeps only the moves or-ed (it stays as
     * fast as it was). Bits 14-15 set: one to a bishop, rook or queen (e8=Q), which no other
     * language is taken to agree with. Bit 12 without 13: one to a knight, the same. Bits 12 and
     * 13 (castling, or en passant and a promotion): maybe one to a knight, e8=N, which Romanian
     * would read as a bishop's. */
    unsigned kind = r->moves_or >> 12;
    if ((kind & 0xC) || (kind & 3) == 1) {
        return 0;
    }
    return !((kind & 1) && lang_piece(lang, 'N') != 0);
}

/* The languages with the letters of a (pgn_lang_same; test_lang checks these sets against it):
 * a table, as the W_LANGUAGE of every game in another language names them (issue 28). */
#define NORDIC                                                                                     \
    (BIT(PGN_LANG_DANISH) | BIT(PGN_LANG_GERMAN) | BIT(PGN_LANG_NORWEGIAN) | BIT(PGN_LANG_SWEDISH))
#define IBERIAN (BIT(PGN_LANG_ITALIAN) | BIT(PGN_LANG_SPANISH))

static uint32_t twins_of(int a) {
    return (NORDIC & BIT(a)) ? NORDIC : (IBERIAN & BIT(a)) ? IBERIAN : BIT(a);
}

/* Appends s to buf (o bytes used of cap), as snprintf would: cut at cap - 1, always ended. */
static size_t put(char *buf, size_t o, size_t cap, const char *s) {
    size_t m = strlen(s);
    m = o + m < cap ? m : cap - 1 - o;
    memcpy(buf + o, s, m);
    buf[o + m] = '\0';
    return o + m;
}

/* The languages of set, those with the same letters joined by '/' ("Danish/German/Norwegian/
 * Swedish, Polish"), by name or by code. */
static size_t lang_list(uint32_t set, int codes, char *buf, size_t cap) {
    size_t o = 0;
    buf[0] = '\0';
    uint32_t done = 0;
    for (int a = 0; a < PGN_LANG_COUNT; a++) {
        if (!(set & BIT(a)) || (done & BIT(a))) {
            continue;
        }
        const char *sep = o ? ", " : "";
        for (uint32_t left = twins_of(a); left; left &= left - 1) {
            pgn_lang b = (pgn_lang)bits_ctz(left);
            o = put(buf, put(buf, o, cap, sep), cap, codes ? pgn_lang_code(b) : pgn_lang_name(b));
            sep = "/";
        }
        done |= twins_of(a);
    }
    return o;
}

/* Reports code at at: the move text, then the languages of set ("Sf3: Danish/German/Norwegian/
 * Swedish"), by code when the names do not fit in a diagnostic's excerpt. */
static void lang_diag(pgn_reader *r, pgn_status code, pgn_loc at, uint32_t set, const char *s,
                      size_t n) {
    char buf[192];
    size_t o = n > 32 ? 32 : n;
    const char *nul = memchr(s, '\0', o);
    o = nul ? (size_t)(nul - s) : o;
    memcpy(buf, s, o);
    buf[o++] = ':';
    buf[o++] = ' ';
    const char *why = code == PGN_W_LANGUAGE && r->lang_by_prior ? " (as the games before)" : "";
    size_t len = o + lang_list(set, 0, buf + o, sizeof buf - o);
    if (len + strlen(why) >= sizeof((pgn_diag *)0)->token) {
        len = o + lang_list(set, 1, buf + o, sizeof buf - o);
    }
    len = put(buf, len, sizeof buf, why);
    pgnk_reader_diag(r, code, at, buf, len);
}

/* E_LANGUAGE_AMBIGUOUS's suggestions (issue 28): the move each language of set reads s as, in
 * English SAN, each once, into r->diag_sugg (which the next diagnostic takes). */
static void lang_readings(pgn_reader *r, const pgn_pos *pos, uint32_t set, const char *s, size_t n,
                          uint32_t flags) {
    pgn_move seen[PGN_LANG_COUNT];
    size_t used = 0, k = 0;
    for (uint32_t left = set; left; left &= left - 1) {
        pgn_san_result one;
        if (pgn_san_parse_lang(pos, (pgn_lang)bits_ctz(left), s, n, flags, &one) != PGN_OK) {
            continue;
        }
        size_t j = 0;
        while (j < k && seen[j] != one.move) {
            j++;
        }
        char san[PGN_SAN_MAX];
        size_t l = pgn_san_write(pos, one.move, san);
        if (j < k || used + l + 2 > sizeof r->diag_sugg) {
            continue;
        }
        seen[k++] = one.move;
        if (used > 0) {
            r->diag_sugg[used++] = ' ';
        }
        memcpy(r->diag_sugg + used, san, l);
        used += l;
        r->diag_sugg[used] = 0;
    }
}

/* Languages whose letters are not all one byte, or that take other letters than their own
 * (English's lax forms, figurines' English letters), or other moves (descriptive): not sorted out
 * by their letters. */
#define UNSORTED                                                                                   \
    (BIT(PGN_LANG_ENGLISH) | BIT(PGN_LANG_RUSSIAN) | BIT(PGN_LANG_FIGURINE) | DESCRIPTIVE)

/* The languages of set that may read s: the others (of one-byte letters) cannot, as it holds an
 * uppercase letter that is none of theirs or a lowercase one past h but x, which
 * pgn_san_parse_lang refuses them for; tried for each of them, that refusal was most of the cost
 * of the first move English cannot read (issue 28). Castling's O and o, and bytes >= 0x80 (a
 * figurine is read in every language), sort out nothing. */
static uint32_t may_read(pgn_reader *r, uint32_t set, const char *s, size_t n) {
    if (!r->lang_letters_set) {
        memset(r->lang_letters, 0, sizeof r->lang_letters);
        memset(r->lang_piece_at, 0, sizeof r->lang_piece_at);
        for (int l = 0; l < PGN_LANG_COUNT; l++) {
            for (int t = PGN_PAWN; t <= PGN_KING && !(UNSORTED & BIT(l)); t++) {
                int c = pgn_lang_letter((pgn_lang)l, (pgn_piece_type)t)[0] - 'A';
                r->lang_letters[c] |= BIT(l);
                r->lang_piece_at[l][c] = (uint8_t)t;
            }
        }
        r->lang_letters_set = 1;
    }
    uint32_t may = set;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x80 || c == 'O' || c == 'o') {
            return set;
        }
        if (c >= 'A' && c <= 'Z') {
            may &= r->lang_letters[c - 'A'] | UNSORTED;
        } else if (c >= 'i' && c <= 'z' && c != 'x') {
            may &= UNSORTED;
        }
    }
    return may;
}

/* What a language of one-byte letters (not UNSORTED) makes of the uppercase letters of s: the
 * pieces, 3 bits each, and a top bit; two such languages with the same reading rewrite s alike,
 * so pgn_san_parse_lang gives them the same answer. 0 (no reading): more than 9 letters. */
static uint32_t letters_read(const pgn_reader *r, int l, const char *s, size_t n) {
    uint32_t key = 1;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 'A' && c <= 'Z') {
            if (key >= (uint32_t)1 << 27) {
                return 0;
            }
            key = key << 3 | r->lang_piece_at[l][c - 'A'];
        }
    }
    return key;
}

/* Reads s in each language of set: the ones that read it legally in *fit, their move in *res
 * (when they agree; *split is set when they do not). Returns the first failure when none does.
 * Languages that read s's letters alike are read once (the German game's Polish candidate
 * while its moves have only S and K: issue 28). */
static pgn_status read_in(pgn_reader *r, const pgn_pos *pos, uint32_t set, const char *s, size_t n,
                          uint32_t flags, uint32_t *fit, int *split, pgn_san_result *res) {
    pgn_status first = PGN_OK;
    uint32_t may = may_read(r, set, s, n);
    *fit = 0;
    *split = 0;
    uint32_t last_key = 0; /* the last language of one-byte letters read, its reading */
    pgn_status last_st = PGN_OK;
    pgn_san_result last;
    for (uint32_t left = set; left; left &= left - 1) {
        int l = (int)bits_ctz(left);
        pgn_san_result one;
        uint32_t key = (may & ~UNSORTED & BIT(l)) ? letters_read(r, l, s, n) : 0;
        pgn_status st = PGN_E_BAD_SAN; /* what it says when not may */
        if (key && key == last_key) {
            st = last_st;
            one = last;
        } else if (may & BIT(l)) {
            st = pgn_san_parse_lang(pos, (pgn_lang)l, s, n, flags, &one);
        }
        if (key) {
            last_key = key;
            last_st = st;
            last = one;
        }
        if (st != PGN_OK) {
            first = first == PGN_OK ? st : first;
            continue;
        }
        if (*fit && one.move != res->move) {
            *split = 1;
        }
        if (!*fit) {
            *res = one;
        }
        *fit |= BIT(l);
    }
    return *fit ? PGN_OK : first;
}

/* The languages English could fall back to at this point: one per set of letters, agreeing with
 * the moves read so far. */
/* One language per set of letters: the later twins (Norwegian, Swedish after Danish; German too;
 * Spanish after Italian), as pgn_lang_same says (test_lang checks this list against it). */
#define TWINS                                                                                      \
    (BIT(PGN_LANG_GERMAN) | BIT(PGN_LANG_NORWEGIAN) | BIT(PGN_LANG_SWEDISH) | BIT(PGN_LANG_SPANISH))

static uint32_t fallbacks(const pgn_reader *r) {
    uint32_t set = 0;
    for (int l = 1; l < PGN_LANG_COUNT; l++) {
        if (!(TWINS & BIT(l)) && agrees(r, (pgn_lang)l)) {
            set |= BIT(l);
        }
    }
    return set;
}

/* A descriptive notation of set reads s as several legal moves (PxP with two captures): reports
 * E_DESCRIPTIVE_AMBIGUOUS with them in SAN ("PxP: exd5, cxd5") and returns 1. */
static int desc_ambiguous(pgn_reader *r, const pgn_pos *pos, uint32_t set, const char *s, size_t n,
                          pgn_loc at) {
    for (uint32_t left = set & DESCRIPTIVE; left; left &= left - 1) {
        pgn_movelist fit;
        pgn_move mv;
        if (pgn_desc_parse(pos, (pgn_lang)bits_ctz(left), s, n, &fit, &mv) !=
            PGN_E_AMBIGUOUS_MOVE) {
            continue;
        }
        char buf[sizeof((pgn_diag *)0)->token];
        int m = snprintf(buf, sizeof buf, "%.*s:", (int)(n > 24 ? 24 : n), s);
        size_t o = m < 0 ? 0 : (size_t)m;
        for (uint32_t i = 0; i < fit.count && o + PGN_SAN_MAX + 2 < sizeof buf; i++) {
            buf[o++] = i ? ',' : ' ';
            buf[o] = ' ';
            o += i > 0;
            o += pgn_san_write(pos, fit.moves[i], buf + o);
        }
        pgnk_reader_diag(r, PGN_E_DESCRIPTIVE_AMBIGUOUS, at, buf, o);
        return 1;
    }
    return 0;
}

pgn_status pgnk_lang_read(pgn_reader *r, const pgn_pos *pos, const char *s, size_t n, pgn_loc at,
                          uint32_t flags, pgn_status english, pgn_san_result *res) {
    uint32_t set = r->lang_cands, fit;
    int split;
    if (r->lang_fast && pgnk_lang_fast(r, pos, s, n, flags, res)) {
        return PGN_OK;
    }
    if (set == 0) {
        if (r->opts.flags & PGN_READ_NO_LANG_DETECT) {
            return english;
        }
        set = fallbacks(r);
    }
    pgn_status st = read_in(r, pos, set, s, n, flags, &fit, &split, res);
    if (st != PGN_OK && desc_ambiguous(r, pos, set, s, n, at)) {
        return PGN_E_DESCRIPTIVE_AMBIGUOUS; /* reported here, with the moves */
    }
    if (st != PGN_OK) {
        return r->lang_cands ? st : english;
    }
    if (r->lang_cands == 0 && (fit & BIT(PGN_LANG_FIGURINE))) {
        fit = BIT(PGN_LANG_FIGURINE); /* a figurine is the same piece in every language */
        split = 0;
    }
    if (split) { /* the rest of the line tells: the languages that read it all */
        uint32_t best, live = pgnk_lang_ahead(r, pos, &s, n, at, flags, fit, &best);
        uint32_t keep = live ? live : best;
        read_in(r, pos, keep, s, n, flags, &fit, &split, res);
        if (split && (keep & r->lang_prior)) { /* the file's games before tell */
            uint32_t f;
            int sp;
            pgn_san_result one;
            if (read_in(r, pos, keep & r->lang_prior, s, n, flags, &f, &sp, &one) == PGN_OK &&
                !sp) {
                fit = f;
                split = 0;
                *res = one;
                r->lang_by_prior = 1;
            }
        }
    }
    if (split) {
        lang_readings(r, pos, fit, s, n, flags);
        lang_diag(r, PGN_E_LANGUAGE_AMBIGUOUS, at, fit, s, n);
        return PGN_E_LANGUAGE_AMBIGUOUS; /* reported here: the caller ends the line */
    }
    if (r->lang_cands == 0) {
        r->lang_at = at;
        r->lang_tok_len = (uint8_t)(n < sizeof r->lang_tok ? n : sizeof r->lang_tok);
        memcpy(r->lang_tok, s, r->lang_tok_len);
    }
    set_cands(r, fit);
    return PGN_OK;
}

int pgnk_lang_split(pgn_reader *r, const pgn_pos *pos, const char **s, size_t n, pgn_loc at,
                    uint32_t flags, pgn_move mv, pgn_san_result *res) {
    uint32_t set = fallbacks(r), other = 0, fit;
    int split;
    for (int l = 1; l < PGN_LANG_COUNT; l++) {
        pgn_san_result one;
        if ((set & BIT(l)) && pgn_san_parse_lang(pos, (pgn_lang)l, *s, n, flags, &one) == PGN_OK &&
            one.move != mv) {
            other |= BIT(l);
        }
    }
    if (other == 0) {
        return 0;
    }
    /* English and the others read the rest of the line: those that read it all stay */
    uint32_t best, live = pgnk_lang_ahead(r, pos, s, n, at, flags, other | BIT(0), &best);
    uint32_t keep = live ? live : best;
    if ((keep & (keep - 1)) && (keep & r->lang_prior)) { /* the file's games before tell */
        r->lang_by_prior = (keep & r->lang_prior) != BIT(PGN_LANG_ENGLISH);
        keep &= r->lang_prior;
    }
    if (keep == BIT(PGN_LANG_ENGLISH)) {
        return 0;
    }
    if (!(keep & BIT(PGN_LANG_ENGLISH)) &&
        read_in(r, pos, keep, *s, n, flags, &fit, &split, res) == PGN_OK && !split) {
        r->lang_at = at; /* the game is in the other language(s) from this move on */
        r->lang_tok_len = (uint8_t)(n < sizeof r->lang_tok ? n : sizeof r->lang_tok);
        memcpy(r->lang_tok, *s, r->lang_tok_len);
        set_cands(r, fit);
        return 2;
    }
    lang_readings(r, pos, keep, *s, n, flags);
    lang_diag(r, PGN_E_LANGUAGE_AMBIGUOUS, at, keep, *s, n);
    return 1;
}

void pgnk_lang_hint(pgn_reader *r, const pgn_pos *pos, const char *s, size_t n, pgn_loc at,
                    pgn_status st) {
    pgn_san_result res;
    if (r->lang_hinted || (st != PGN_E_BAD_SAN && st != PGN_E_ILLEGAL_MOVE) ||
        (r->lang_cands && !forced(r)) || pgn_san_parse(pos, s, n, 0, &res) != PGN_E_BAD_SAN) {
        return; /* English reads it (as an illegal move), or a language reads the game */
    }
    uint32_t legal = 0, shaped = 0; /* the notations that read s legally, and at all */
    for (int l = 1; l < PGN_LANG_COUNT; l++) {
        int same = (TWINS & BIT(l)) != 0;
        for (uint32_t c = r->lang_cands; c && !same; c &= c - 1) {
            same = pgn_lang_same((pgn_lang)l, (pgn_lang)bits_ctz(c)); /* the language named */
        }
        pgn_status in = same ? PGN_E_BAD_SAN : pgn_san_parse_lang(pos, (pgn_lang)l, s, n, 0, &res);
        legal |= in == PGN_OK ? BIT(l) : 0;
        shaped |= in != PGN_E_BAD_SAN ? BIT(l) : 0;
    }
    /* under --input-lang, only a notation that plays the move is worth naming */
    uint32_t set = legal ? legal : r->lang_cands ? 0 : shaped;
    if (set == 0) {
        return;
    }
    r->lang_hinted = 1;
    char buf[sizeof((pgn_diag *)0)->token];
    int m = snprintf(buf, sizeof buf, "%.*s: ", (int)(n > 16 ? 16 : n), s);
    size_t o = m < 0 ? 0 : (size_t)m;
    pgnk_reader_diag(r, PGN_W_NOTATION_HINT, at, buf,
                     o + lang_list(set, 1, buf + o, sizeof buf - o));
}

void pgnk_lang_game_end(pgn_reader *r) {
    /* the prior of the games after: the languages of this one, English when it read an English
     * piece letter (N B R Q) in a game no other language read; else the one before stays */
    if (!forced(r) && (r->lang_cands || (r->lead_seen & 0x64004u) != 0)) { /* B N Q R */
        r->lang_prior = r->lang_cands ? r->lang_cands : BIT(PGN_LANG_ENGLISH);
    }
    if (r->lang_cands && !forced(r)) {
        pgn_status code = (r->lang_cands & ~DESCRIPTIVE) ? PGN_W_LANGUAGE : PGN_W_DESCRIPTIVE;
        lang_diag(r, code, r->lang_at, r->lang_cands, r->lang_tok, r->lang_tok_len);
    }
}

int pgnk_lang_word(const pgn_reader *r, const char *s, size_t n) {
    static const char *const words[] = {"ch",  "Ch",    "mate",  "dis",
                                        "dbl", "check", "disch", "dblch"};
    if (!r->lang_cands || (r->lang_cands & ~DESCRIPTIVE)) {
        return 0;
    }
    for (size_t k = 0; k < sizeof words / sizeof words[0]; k++) {
        if (strlen(words[k]) == n && memcmp(words[k], s, n) == 0) {
            return 2;
        }
    }
    return n > 0 && s[0] >= 'A' && s[0] <= 'Z';
}

size_t pgnk_lang_glyph_len(const char *s, size_t n) {
    const unsigned char *u = (const unsigned char *)s;
    if (n >= 3 && u[0] == 0xE2 && u[1] == 0x99 && u[2] >= 0x94 && u[2] <= 0x9F) {
        return 3; /* a figurine */
    }
    for (int t = PGN_KING; t >= PGN_PAWN; t--) { /* Кр before К */
        const char *l = pgn_lang_letter(PGN_LANG_RUSSIAN, (pgn_piece_type)t);
        size_t m = strlen(l);
        if (m <= n && memcmp(s, l, m) == 0) {
            return m;
        }
    }
    return 0;
}
