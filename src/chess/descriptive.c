/* SPDX-License-Identifier: MIT */
/* Descriptive notation (issue 15; docs/notation.md): English (P-K4, N-KB3, PxP, KBPxP, R/1-Q1,
 * P-K8=Q) and the Romance form of Spanish/Italian and Portuguese books (P4R, C3AR, PxP, A5CD).
 * Each side names the board from its own side: Black's K4 is White's e5. A move is read into a
 * description (the moving piece and where it may stand, the target square or the captured piece)
 * and matched against every legal move of the position: one match is the move, several are
 * PGN_E_AMBIGUOUS_MOVE, none PGN_E_ILLEGAL_MOVE. The writer tries the forms from the shortest
 * up and keeps the first that the reader resolves to the move alone, so what it writes always
 * reads back. Tables are const; nothing allocates. */
#include "pgnkit/chess.h"

#include <assert.h>
#include <string.h>

/* Piece letters, index type - 1 (pawn knight bishop rook queen king). The king's and queen's
 * letters also name the wings (K/Q; R/D for rey/re and dama/donna). */
typedef struct dialect {
    char letter[7];
    int romance; /* square written rank first and file piece before the wing: 4R, 3AR */
} dialect;

static const dialect dialects[3] = {{"PNBRQK", 0}, {"PCATDR", 1}, {"PCBTDR", 1}};

static const dialect *dialect_of(pgn_lang lang) {
    switch (lang) {
    case PGN_LANG_DESCRIPTIVE: return &dialects[0];
    case PGN_LANG_DESCRIPTIVE_ES: return &dialects[1];
    case PGN_LANG_DESCRIPTIVE_PT: return &dialects[2];
    default: return NULL;
    }
}

int pgn_lang_is_descriptive(pgn_lang lang) {
    return lang >= PGN_LANG_DESCRIPTIVE && lang <= PGN_LANG_DESCRIPTIVE_PT;
}

/* Where a piece may stand: a type (0: none) and masks of files and ranks (bit 0 = a / 1). A
 * bishop's wing (KB, QB; Romance AR, AD) names the bishop by where it began, which its squares'
 * colour tells for ever (White's KB began on f1, a light square): wing is then PGN_KING or
 * PGN_QUEEN. A knight's or rook's wing can only be where it stands now (files). */
typedef struct desig {
    int type;
    uint8_t files, ranks;
    int wing;
} desig;

/* A move as written: the mover, and the target square or the captured piece. */
typedef struct desc_move {
    desig from, to;
    int capture;
    int promo; /* promotion piece type, 0 none */
} desc_move;

typedef struct cursor {
    const char *s;
    size_t n, i;
    const dialect *d;
    int black;
} cursor;

/* The piece type of the letter at the cursor (English Kt too), advancing past it; 0 if none. */
static int item(cursor *c) {
    if (c->i >= c->n) {
        return 0;
    }
    char ch = c->s[c->i];
    if (!c->d->romance && ch == 'K' && c->i + 1 < c->n && c->s[c->i + 1] == 't') {
        c->i += 2;
        return PGN_KNIGHT;
    }
    const char *p = ch ? strchr(c->d->letter, ch) : NULL;
    if (!p) {
        return 0;
    }
    c->i++;
    return (int)(p - c->d->letter) + PGN_PAWN;
}

/* The files named by a file piece (rook, knight, bishop or none) and a wing (king, queen or
 * none): KB = f, B = c or f, K = e, Q = d. 0 when that names no file. */
static uint8_t file_mask(int fp, int wing) {
    uint8_t half = wing == PGN_KING ? 0xF0 : wing == PGN_QUEEN ? 0x0F : 0xFF;
    switch (fp) {
    case PGN_ROOK: return (uint8_t)(0x81 & half);
    case PGN_KNIGHT: return (uint8_t)(0x42 & half);
    case PGN_BISHOP: return (uint8_t)(0x24 & half);
    default: return wing == PGN_KING ? 0x10 : wing == PGN_QUEEN ? 0x08 : 0;
    }
}

static int is_wing(int t) {
    return t == PGN_KING || t == PGN_QUEEN;
}

static int is_file_piece(int t) {
    return t == PGN_ROOK || t == PGN_KNIGHT || t == PGN_BISHOP;
}

/* A file's name: English wing then file piece (KB, K, B), Romance file piece then wing (AR, R,
 * A). Sets *files; restores the cursor and returns 0 when there is none. */
static int file_name(cursor *c, uint8_t *files) {
    size_t start = c->i;
    int fp = 0, wing = 0, t = item(c);
    size_t mid = c->i;
    if (!c->d->romance && is_wing(t)) {
        wing = t;
        fp = item(c);
        if (!is_file_piece(fp)) {
            fp = 0;
            c->i = mid;
        }
    } else if (c->d->romance && is_file_piece(t)) {
        fp = t;
        wing = item(c);
        if (!is_wing(wing)) {
            wing = 0;
            c->i = mid;
        }
    } else if (is_file_piece(t) || (c->d->romance && is_wing(t))) {
        fp = is_file_piece(t) ? t : 0;
        wing = is_wing(t) ? t : 0;
    }
    uint8_t mask = file_mask(fp, wing);
    if (mask == 0) {
        c->i = start;
        return 0;
    }
    *files = mask;
    return 1;
}

/* A rank digit, from the mover's side (Black's 1 is the eighth rank). */
static int rank_digit(cursor *c, uint8_t *ranks) {
    if (c->i >= c->n || c->s[c->i] < '1' || c->s[c->i] > '8') {
        return 0;
    }
    int r = c->s[c->i++] - '1';
    *ranks = (uint8_t)(1u << (c->black ? 7 - r : r));
    return 1;
}

/* A square: K4, KB3, B3 (c3 or f3); Romance 4R, 3AR, 3A. */
static int square(cursor *c, desig *sq) {
    size_t start = c->i;
    desig was = *sq;
    sq->type = 0;
    int ok = c->d->romance ? rank_digit(c, &sq->ranks) && file_name(c, &sq->files)
                           : file_name(c, &sq->files) && rank_digit(c, &sq->ranks);
    if (!ok) {
        c->i = start;
        *sq = was;
    }
    return ok;
}

/* English piece: the letter, after a wing (KN, QR) or a pawn's file (KP, BP, QBP). */
static int english_piece(cursor *c, desig *p) {
    int a[3], k = 0;
    size_t at[4]; /* at[j]: the cursor after j letters */
    at[0] = c->i;
    while (k < 3 && (a[k] = item(c)) != 0) {
        at[++k] = c->i;
    }
    for (; k > 0; k--) { /* the longest run of letters that names a piece */
        int t = a[k - 1];
        c->i = at[k];
        *p = (desig){t, 0xFF, 0xFF, 0};
        if (k == 1) {
            return 1;
        }
        if (k == 2 && is_wing(a[0]) && t == PGN_PAWN) {
            p->files = file_mask(0, a[0]); /* KP, QP */
            return 1;
        }
        if (k == 2 && is_wing(a[0]) && is_file_piece(t)) {
            p->files = t == PGN_BISHOP ? 0xFF : a[0] == PGN_KING ? 0xF0 : 0x0F; /* KN, KR */
            p->wing = t == PGN_BISHOP ? a[0] : 0;                               /* KB */
            return 1;
        }
        if (k == 2 && is_file_piece(a[0]) && t == PGN_PAWN) {
            p->files = file_mask(a[0], 0); /* BP */
            return 1;
        }
        if (k == 3 && is_wing(a[0]) && is_file_piece(a[1]) && t == PGN_PAWN) {
            p->files = file_mask(a[1], a[0]); /* KBP */
            return 1;
        }
    }
    return 0;
}

/* Romance piece: the letter, then maybe a file name (TR: the rook on the king's side; PAR: the
 * king's bishop's pawn). */
static int romance_piece(cursor *c, desig *p) {
    int t = item(c);
    uint8_t files;
    if (t == 0) {
        return 0;
    }
    *p = (desig){t, 0xFF, 0xFF, 0};
    size_t before = c->i;
    if (file_name(c, &files)) {
        if (t == PGN_BISHOP && (files == 0x10 || files == 0x08)) {
            p->wing = files == 0x10 ? PGN_KING : PGN_QUEEN; /* AR: the king's bishop */
            files = 0xFF;
        } else if (t != PGN_PAWN && (files == 0x10 || files == 0x08)) {
            files = files == 0x10 ? 0xF0 : 0x0F; /* TR: the rook of the king's side */
        } else if (t != PGN_PAWN) {
            c->i = before; /* no form */
            return 1;
        }
        p->files = files;
    }
    return 1;
}

/* A qualifier after a piece: /1, (1), /K1, (QR1), /QR: the rank, square or file it stands on. */
static int qualifier(cursor *c, desig *p) {
    if (c->i >= c->n || (c->s[c->i] != '/' && c->s[c->i] != '(')) {
        return 1;
    }
    char open = c->s[c->i++];
    desig q = {0, 0xFF, 0xFF, 0};
    if (!square(c, &q) && !rank_digit(c, &q.ranks) && !file_name(c, &q.files)) {
        return 0;
    }
    if (open == '(' && (c->i >= c->n || c->s[c->i++] != ')')) {
        return 0;
    }
    p->files &= q.files;
    p->ranks &= q.ranks;
    return 1;
}

static int piece(cursor *c, desig *p) {
    int ok = c->d->romance ? romance_piece(c, p) : english_piece(c, p);
    return ok && qualifier(c, p);
}

/* A promotion: =Q, (Q), /Q or Q after the square. */
static int promotion(cursor *c, int *promo) {
    *promo = 0;
    if (c->i >= c->n) {
        return 1;
    }
    char open = c->s[c->i];
    c->i += open == '=' || open == '(' || open == '/';
    int t = item(c);
    if (t < PGN_KNIGHT || t > PGN_QUEEN || (open == '(' && (c->i >= c->n || c->s[c->i++] != ')'))) {
        return 0;
    }
    *promo = t;
    return 1;
}

/* The length of s without what may follow a move: check and mate marks (+, #, ch, mate),
 * e.p., and ! ?. */
static size_t strip_suffix(const char *s, size_t n, int *check) {
    /* the first 8 say check (or mate) */
    static const char *const tails[] = {"mate",    "ch",     "Ch",   "+",     "#",   "(ch)",
                                        "(disch)", "(mate)", "e.p.", "ep",    "dis", "dbl",
                                        "!",       "?",      ".",    "(best)"};
    for (int again = 1; again && n > 0;) {
        again = 0;
        if (!strchr("ehp+#).sl!?", s[n - 1]) || s[n - 1] == '\0') {
            break; /* no tail ends so: the common move (P-K4, NxP) */
        }
        for (size_t k = 0; k < sizeof tails / sizeof tails[0]; k++) {
            size_t m = strlen(tails[k]);
            if (m < n && memcmp(s + n - m, tails[k], m) == 0) {
                n -= m;
                *check |= k < 8;
                again = 1;
                break;
            }
        }
    }
    return n;
}

/* Reads the text of a move (no castling) into *m. Returns 0 if it is no descriptive move. */
static int read_move(const dialect *d, int black, const char *s, size_t n, desc_move *m) {
    int check = 0;
    cursor c = {s, strip_suffix(s, n, &check), 0, d, black};
    memset(m, 0, sizeof *m);
    if (!piece(&c, &m->from)) {
        return 0;
    }
    char sep = c.i < c.n ? c.s[c.i] : '\0';
    m->capture = sep == 'x' || sep == 'X' || sep == ':';
    c.i += m->capture || sep == '-';
    if (!m->capture && sep != '-' && !d->romance) {
        return 0;
    }
    if (m->capture) {
        if (!square(&c, &m->to) && !piece(&c, &m->to)) {
            return 0;
        }
    } else if (!square(&c, &m->to)) {
        return 0;
    }
    return promotion(&c, &m->promo) && c.i == c.n;
}

/* The colour of square sq: 1 light, 0 dark. */
static int light(pgn_square sq) {
    return ((sq & 7) + (sq >> 3)) & 1;
}

/* Whether the piece on sq, of the side black, fits d: on its files and ranks, and a bishop named
 * by its wing on the colour of the square where that bishop began (f1, c1; f8, c8). */
static int on_side(desig d, pgn_square sq, int black) {
    if (!((d.files >> (sq & 7)) & 1) || !((d.ranks >> (sq >> 3)) & 1)) {
        return 0;
    }
    pgn_square origin = (pgn_square)((d.wing == PGN_KING ? 5 : 2) + (black ? 56 : 0));
    return d.wing == 0 || light(sq) == light(origin);
}

static int on(desig d, pgn_square sq) {
    return on_side(d, sq, 0);
}

/* Whether legal move mv of pos is what m describes. */
static int fits(const pgn_pos *pos, pgn_move mv, const desc_move *m) {
    pgn_square from = PGN_MOVE_FROM(mv), to = PGN_MOVE_TO(mv);
    int kind = PGN_MOVE_KIND(mv);
    int black = pos->side == PGN_BLACK;
    if (kind == PGN_MOVE_CASTLE || (int)PGN_PIECE_TYPE(pos->board[from]) != m->from.type ||
        !on_side(m->from, from, black)) {
        return 0;
    }
    int capture = kind == PGN_MOVE_EN_PASSANT || pos->board[to] != 0;
    int promo = kind == PGN_MOVE_PROMOTION ? (int)PGN_MOVE_PROMO(mv) : 0;
    if (capture != m->capture || promo != m->promo) {
        return 0;
    }
    if (m->to.type == 0) {
        return on(m->to, to);
    }
    /* the captured piece; en passant takes the pawn beside, one rank from the target */
    pgn_square victim = kind == PGN_MOVE_EN_PASSANT ? (pgn_square)(to ^ 8) : to;
    return (int)PGN_PIECE_TYPE(pos->board[victim]) == m->to.type && on_side(m->to, victim, !black);
}

/* The moves of list that m describes, into *out (may be NULL); returns their number, counting
 * no further than stop. */
static unsigned matches(const pgn_pos *pos, const pgn_movelist *list, const desc_move *m,
                        unsigned stop, pgn_movelist *out) {
    unsigned k = 0;
    for (uint32_t i = 0; i < list->count && k < stop; i++) {
        if (fits(pos, list->moves[i], m)) {
            uint32_t j = k++;
            for (; out && j > 0 && out->moves[j - 1] > list->moves[i]; j--) {
                out->moves[j] = out->moves[j - 1]; /* in the order of the move numbers */
            }
            if (out) {
                out->moves[j] = list->moves[i];
            }
        }
    }
    if (out) {
        out->count = k;
    }
    return k;
}

/* Of several moves that fit a move printed with a check mark (Q × P ch), the ones that check, when
 * there are any (a wrong mark changes nothing). Returns their number. */
static unsigned checking_only(const pgn_pos *pos, pgn_movelist *found) {
    pgn_movelist checks = {.count = 0};
    for (uint32_t i = 0; i < found->count; i++) {
        pgn_pos after = *pos;
        pgn_pos_play_unkeyed(&after, found->moves[i]);
        if (pgn_pos_in_check(&after)) {
            checks.moves[checks.count++] = found->moves[i];
        }
    }
    if (checks.count > 0) {
        *found = checks;
    }
    return found->count;
}

/* ---- printed forms: spaced (Kt - K B 3, B × Kt ch) and long (P. to K's 4th) ---- */

#define COMPACT_MAX 48 /* longest printed move read: "Q. R. P. takes Q. Kt. P. (dis. ch.)" fits */

static int word_end(const char *s, size_t n, size_t i) {
    return i == n || s[i] == ' ' || s[i] == '.' || s[i] == '(' || s[i] == ')';
}

/* Whether the word at s[i] is w, standing alone: a space, a period or the text's ends around it. */
static int word_at(const char *s, size_t n, size_t i, const char *w) {
    size_t m = strlen(w);
    return (i == 0 || s[i - 1] == ' ' || s[i - 1] == '.') && i + m <= n &&
           memcmp(s + i, w, m) == 0 && word_end(s, n, i + m);
}

/* A rank's ordinal suffix at s[i], after its digit: 1st 2nd 3rd 4th, and the old 2d 3d. Its
 * length, 0 if none. */
static size_t ordinal(const char *s, size_t n, size_t i) {
    static const char *const ends[] = {"st", "nd", "rd", "th", "d"};
    if (i == 0 || s[i - 1] < '1' || s[i - 1] > '8') {
        return 0;
    }
    for (size_t k = 0; k < sizeof ends / sizeof ends[0]; k++) {
        size_t m = strlen(ends[k]);
        if (i + m <= n && memcmp(s + i, ends[k], m) == 0 && word_end(s, n, i + m)) {
            return m;
        }
    }
    return 0;
}

/* The words of the long form (Staunton's "K. Kt. to B's 3d."): what each stands for in the
 * compact one ('\0': nothing; 'o': the file of the moving piece, "K. to his 2d" is K-K2). */
static const struct {
    const char *word;
    char as;
} words[] = {{"to", '-'},  {"takes", 'x'}, {"sq", '1'},      {"his", 'o'},
             {"her", 'o'}, {"in", '\0'},   {"passing", '\0'}};

/* The byte of s at i rewritten for the compact form ('\0': dropped), and how many bytes of s it
 * stands for (*used): spaces and periods dropped, × (UTF-8 or Latin-1) is x, "'s" (also with ’)
 * and ordinal suffixes dropped, the long form's words as in words[]. */
static char compact_byte(const char *s, size_t n, size_t i, char first, size_t *used) {
    const unsigned char *u = (const unsigned char *)s;
    *used = 1;
    if (u[i] == ' ' || u[i] == '\t' || u[i] == '.') {
        return 0;
    }
    if (u[i] == 0xD7 || (u[i] == 0xC3 && i + 1 < n && u[i + 1] == 0x97)) {
        *used = u[i] == 0xC3 ? 2 : 1;
        return 'x';
    }
    static const char *const drop[] = {"'s", "\xE2\x80\x99s"};
    for (size_t k = 0; k < 2; k++) {
        size_t m = strlen(drop[k]);
        if (i + m <= n && memcmp(s + i, drop[k], m) == 0 && word_end(s, n, i + m)) {
            *used = m;
            return 0;
        }
    }
    if ((*used = ordinal(s, n, i)) != 0) {
        return 0;
    }
    *used = 1;
    for (size_t k = 0; u[i] >= 'a' && k < sizeof words / sizeof words[0]; k++) {
        if (word_at(s, n, i, words[k].word)) {
            *used = strlen(words[k].word);
            return words[k].as == 'o' ? (first == 'K' || first == 'Q' ? first : '?') : words[k].as;
        }
    }
    return s[i];
}

/* The compact form of a printed move into out (COMPACT_MAX bytes): "Kt - K B 3" is Kt-KB3,
 * "K. Kt. to B's 3d." KKt-B3, "Q. takes P." QxP. Returns its length; 0 when it does not fit. */
static size_t compact(const char *s, size_t n, char *out) {
    size_t o = 0;
    for (size_t i = 0, used = 1; i < n; i += used) {
        char c = compact_byte(s, n, i, o ? out[0] : 0, &used);
        if (c != 0 && o == COMPACT_MAX) {
            return 0;
        }
        if (c != 0) {
            out[o++] = c;
        }
    }
    return o;
}

/* Whether s needs compact: only a printed form has a space, a period, an apostrophe or a byte
 * above ASCII (×, ’); the compact form (the one the reader sees in PGN movetext) is read as is. */
static int printed(const char *s, size_t n) {
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == ' ' || c == '\t' || c == '.' || c == '\'' || c >= 0x80) {
            return 1;
        }
    }
    return 0;
}

/* "Castles" (any case of its C): the castling moves of the position that fit, as the books mean
 * it (the side that castles is the one to move; which wing, the position says). */
static pgn_status castles(const pgn_pos *pos, pgn_movelist *fitting, pgn_move *out) {
    pgn_movelist legal, found = {.count = 0};
    pgn_pos_legal_moves(pos, &legal);
    for (uint32_t i = 0; i < legal.count; i++) {
        if (PGN_MOVE_KIND(legal.moves[i]) == PGN_MOVE_CASTLE) {
            found.moves[found.count++] = legal.moves[i];
        }
    }
    if (fitting) {
        *fitting = found;
    }
    *out = found.count == 1 ? found.moves[0] : PGN_MOVE_NONE;
    return found.count == 1 ? PGN_OK : found.count == 0 ? PGN_E_ILLEGAL_MOVE : PGN_E_AMBIGUOUS_MOVE;
}

static int castle_text(const char *s, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (s[i] != 'O' && s[i] != '0' && s[i] != '-') {
            return 0;
        }
    }
    return n >= 3;
}

pgn_status pgn_desc_parse(const pgn_pos *pos, pgn_lang lang, const char *text, size_t len,
                          pgn_movelist *fitting, pgn_move *out) {
    assert(pos && text && out);
    const dialect *d = dialect_of(lang);
    char flat[COMPACT_MAX];
    if (printed(text, len)) {
        len = compact(text, len, flat);
        text = flat;
    }
    int check = 0;
    size_t n = strip_suffix(text, len, &check);
    if (fitting) {
        fitting->count = 0;
    }
    *out = PGN_MOVE_NONE;
    if (d && n == 7 && (text[0] == 'C' || text[0] == 'c') && memcmp(text + 1, "astles", 6) == 0) {
        return castles(pos, fitting, out);
    }
    if (d && castle_text(text, n)) {
        pgn_san_result res;
        pgn_status st = pgn_san_parse(pos, text, n, 0, &res);
        *out = res.move;
        return st == PGN_OK ? PGN_OK : PGN_E_ILLEGAL_MOVE;
    }
    desc_move m;
    if (!d || !read_move(d, pos->side == PGN_BLACK, text, len, &m)) {
        return PGN_E_BAD_SAN;
    }
    pgn_movelist legal, found;
    pgn_pos_legal_moves(pos, &legal);
    unsigned k = matches(pos, &legal, &m, 256, &found);
    if (k > 1 && check) {
        k = checking_only(pos, &found);
    }
    if (fitting) {
        *fitting = found;
    }
    if (k == 1) {
        *out = found.moves[0];
    }
    return k == 1 ? PGN_OK : k == 0 ? PGN_E_ILLEGAL_MOVE : PGN_E_AMBIGUOUS_MOVE;
}

/* ---- writing ---- */

#define PART_MAX 8 /* longest part: KBP/QB3 is 7 */

typedef struct part {
    char s[PART_MAX];
    uint8_t n;
} part;

static void add(part *p, char c) {
    if (p->n < PART_MAX - 1) {
        p->s[p->n++] = c;
    }
}

/* The name of file f: full (KB, AR) or short (B, A; K and Q are both). */
static void put_file(part *p, const dialect *d, int f, int full) {
    static const int fp[8] = {PGN_ROOK, PGN_KNIGHT, PGN_BISHOP, 0,
                              0,        PGN_BISHOP, PGN_KNIGHT, PGN_ROOK};
    char wing = d->letter[f >= 4 ? PGN_KING - 1 : PGN_QUEEN - 1];
    if (!fp[f]) {
        add(p, wing);
        return;
    }
    if (full && !d->romance) {
        add(p, wing);
    }
    add(p, d->letter[fp[f] - 1]);
    if (full && d->romance) {
        add(p, wing);
    }
}

static void put_square(part *p, const dialect *d, int black, pgn_square sq, int full) {
    char rank = (char)(black ? '8' - (sq >> 3) : '1' + (sq >> 3));
    if (d->romance) {
        add(p, rank);
    }
    put_file(p, d, sq & 7, full);
    if (!d->romance) {
        add(p, rank);
    }
}

/* The ways to name the piece of type t on sq, shortest first: P, KP, KBP, P/2, P/KB2 (Romance
 * P, PR, PAR...); N, KN, N/1, N/KN1 (Romance C, CR...). black: the mover's side, from which
 * ranks count; owner: the piece's side (a bishop's wing is its colour's, see desig). Returns
 * their number. */
static int piece_parts(const dialect *d, int black, int owner, int t, pgn_square sq, part out[5]) {
    int k = 0;
    char letter = d->letter[t - 1];
    int kb_light = light((pgn_square)(5 + (owner ? 56 : 0)));
    for (int form = 0; form < 5; form++) {
        part p = {{0}, 0};
        int wing = (t == PGN_BISHOP ? light(sq) == kb_light : (sq & 7) >= 4) ? PGN_KING : PGN_QUEEN;
        if (form == 1 || form == 2) {
            if (t == PGN_PAWN) {
                if (form == 2 && ((sq & 7) == 3 || (sq & 7) == 4)) {
                    continue; /* KP is already full */
                }
                if (d->romance) {
                    add(&p, letter);
                }
                put_file(&p, d, sq & 7, form == 2);
                if (!d->romance) {
                    add(&p, letter);
                }
            } else if (form == 1 && is_file_piece(t)) {
                add(&p, d->romance ? letter : d->letter[wing - 1]);
                add(&p, d->romance ? d->letter[wing - 1] : letter);
            } else {
                continue;
            }
        } else {
            add(&p, letter);
            if (form >= 3) {
                add(&p, '/');
            }
            if (form == 3) {
                add(&p, (char)(black ? '8' - (sq >> 3) : '1' + (sq >> 3)));
            } else if (form == 4) {
                put_square(&p, d, black, sq, 1);
            }
        }
        out[k++] = p;
    }
    return k;
}

/* The ways to name where mv goes: the square (B3, KB3) or the piece it takes (P, KP, KBP, P/5,
 * P/K5, then the square). Returns their number. */
static int target_parts(const pgn_pos *pos, const dialect *d, pgn_move mv, part out[7]) {
    int black = pos->side == PGN_BLACK, k = 0;
    pgn_square to = PGN_MOVE_TO(mv);
    int kind = PGN_MOVE_KIND(mv);
    pgn_square victim = kind == PGN_MOVE_EN_PASSANT ? (pgn_square)(to ^ 8) : to;
    if (pos->board[victim] != 0) {
        k = piece_parts(d, black, !black, (int)PGN_PIECE_TYPE(pos->board[victim]), victim, out);
    }
    for (int full = 0; full < 2; full++) {
        part p = {{0}, 0};
        if (full == 0 && ((to & 7) == 3 || (to & 7) == 4)) {
            continue; /* K4 is already full */
        }
        put_square(&p, d, black, to, full);
        out[k++] = p;
    }
    return k;
}

/* Whether text names mv alone among the legal moves. */
static int names_alone(const pgn_pos *pos, const dialect *d, const pgn_movelist *legal, pgn_move mv,
                       const char *text, size_t n) {
    desc_move m;
    pgn_movelist one;
    return read_move(d, pos->side == PGN_BLACK, text, n, &m) &&
           matches(pos, legal, &m, 2, &one) == 1 && one.moves[0] == mv;
}

/* The shortest form of mv that reads back as mv alone, into buf (DESC_BODY bytes); its length. */
#define DESC_BODY 24
static size_t shortest(const pgn_pos *pos, const dialect *d, pgn_move mv, char *buf) {
    part pieces[5], targets[7];
    pgn_movelist legal;
    pgn_pos_legal_moves(pos, &legal);
    int np =
        piece_parts(d, pos->side == PGN_BLACK, pos->side == PGN_BLACK,
                    (int)PGN_PIECE_TYPE(pos->board[PGN_MOVE_FROM(mv)]), PGN_MOVE_FROM(mv), pieces);
    int nt = target_parts(pos, d, mv, targets);
    int capture = PGN_MOVE_KIND(mv) == PGN_MOVE_EN_PASSANT || pos->board[PGN_MOVE_TO(mv)] != 0;
    size_t best = 0;
    for (int i = 0; i < np; i++) {
        for (int j = 0; j < nt; j++) {
            char s[DESC_BODY];
            size_t n = 0;
            memcpy(s, pieces[i].s, pieces[i].n);
            n += pieces[i].n;
            if (capture || !d->romance) {
                s[n++] = capture ? 'x' : '-';
            }
            memcpy(s + n, targets[j].s, targets[j].n);
            n += targets[j].n;
            if (PGN_MOVE_KIND(mv) == PGN_MOVE_PROMOTION) {
                s[n++] = '=';
                s[n++] = d->letter[PGN_MOVE_PROMO(mv) - 1];
            }
            if ((best == 0 || n < best) && names_alone(pos, d, &legal, mv, s, n)) {
                memcpy(buf, s, n);
                best = n;
            }
        }
    }
    return best;
}

size_t pgn_desc_write(const pgn_pos *pos, pgn_lang lang, pgn_move mv, char *buf, size_t cap) {
    assert(pos && buf);
    const dialect *d = dialect_of(lang);
    char body[DESC_BODY];
    size_t n = 0;
    if (!d || !pgn_pos_is_legal(pos, mv)) {
        return 0;
    }
    if (PGN_MOVE_KIND(mv) == PGN_MOVE_CASTLE) {
        int king_side = (PGN_MOVE_TO(mv) & 7) > (PGN_MOVE_FROM(mv) & 7);
        n = king_side ? 3 : 5;
        memcpy(body, "O-O-O", n);
    } else {
        n = shortest(pos, d, mv, body);
    }
    pgn_pos after = *pos;
    pgn_pos_play_unkeyed(&after, mv);
    const char *mark = "";
    if (pgn_pos_in_check(&after)) {
        int mate = pgn_pos_count_legal(&after) == 0;
        mark = d->romance ? (mate ? "++" : "+") : (mate ? "mate" : "ch");
    }
    size_t m = strlen(mark);
    if (n == 0 || n + m + 1 > cap) {
        return 0;
    }
    memcpy(buf, body, n);
    memcpy(buf + n, mark, m);
    buf[n + m] = '\0';
    return n + m;
}
