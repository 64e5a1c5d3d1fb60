/* SPDX-License-Identifier: MIT */
/* Internal shapes of the selection language (docs/query.md): the expression tree built by the
 * parser (qparse.c), the atoms' operands (qatoms.c), the small regular-expression engine
 * (qregex.c) and the matcher (qmatch.c). */
#ifndef PGNKIT_QUERY_INTERNAL_H
#define PGNKIT_QUERY_INTERNAL_H

#include "../game/arena.h"
#include "pgnkit/query.h"

#define QUERY_MAX_DEPTH 64
#define QUERY_MAX_FLIPS 4 /* flips nested in one another (each doubles the work) */
#define QUERY_MAX_LEN ((size_t)1 << 16)
#define QNONE UINT32_MAX

/* Node kinds: operators first, then game atoms (known from the tags or at the end of the game),
 * then point atoms (tested on each position with the move that led to it). */
typedef enum qop {
    Q_AND,
    Q_OR,
    Q_NOT,
    Q_SEQ,     /* A then B next C: children in order, each with its gap in `num` (0 then, 1 next) */
    Q_PERSIST, /* persist N A */
    Q_VARS,    /* in variations A */
    Q_FLIP,    /* flip A: A, or A with the colours reversed */
    Q_AT,      /* at A: and, or, not inside A apply to one point */
    Q_EXISTS,  /* added by the compiler above each maximal point subtree */
    /* game atoms */
    Q_TAG,
    Q_PLAYER,
    Q_ELO,
    Q_ECO,
    Q_SPEED,
    Q_YEAR,
    Q_PLIES,
    Q_MOVES,
    Q_ENDS,
    Q_RESULT_FINAL,
    /* point atoms */
    Q_POINT_FIRST,
    Q_FEN = Q_POINT_FIRST,
    Q_PATTERN,
    Q_HASH,
    Q_PIECE_ON,
    Q_COUNT,
    Q_MATERIAL,
    Q_IMBALANCE,
    Q_WTM,
    Q_BTM,
    Q_CHECK,
    Q_MATE,
    Q_STALEMATE,
    Q_REPETITION,
    Q_FIFTY,
    Q_MOVE,
    Q_CASTLES,
    Q_CAPTURE,
    Q_PROMOTION,
    Q_UNDERPROMOTION,
    Q_ENPASSANT,
    Q_OPENING,
    Q_COMMENT,
    Q_NAG,
    Q_CLOCK,
    Q_EVAL,
    Q_SWING
} qop;

/* Comparison operators of atoms. */
typedef enum qcmp { C_EQ, C_NE, C_LT, C_LE, C_GT, C_GE, C_RE, C_NRE, C_GLOB } qcmp;

/* Elo selectors. */
enum { ELO_BOTH, ELO_WHITE, ELO_BLACK, ELO_AVG, ELO_DIFF, ELO_EITHER };

/* A regular expression of the supported subset: branches of items, each a byte class with a
 * quantifier, run as a Thompson NFA over a bit set of states (no backtracking, no recursion). */
#define QRE_MAX_ITEMS 63
typedef struct qre_item {
    uint8_t set[32];
    uint8_t quant; /* 0 once, '*', '+', '?' */
} qre_item;
typedef struct qre_branch {
    qre_item *items;
    uint32_t n;
    uint8_t bol, eol; /* anchored by ^ / $ */
} qre_branch;
typedef struct qre {
    qre_branch *branches;
    uint32_t n;
} qre;

/* A FEN pattern (pgn-extract's FENPattern): 64 sets of allowed square contents, and the
 * wildcard '*' runs, compiled per rank into a tiny program matched iteratively. */
typedef struct qpattern {
    uint16_t cell[8][24]; /* per rank (8 = a8's rank first): up to 24 cells; bit c = content c */
    uint8_t star[8][24];  /* 1: the cell is '*' (zero or more squares) */
    uint8_t ncell[8];
    /* ranks without '*' compile to bitboard tests: squares that must hold exactly content c
     * (req[c]; c = 0 empty), be occupied, hold a White or a Black piece, or (slow) be one of a
     * set of contents; ranks with '*' (full_rank 0) run the cell program */
    uint64_t req[15], occ, white, black, slow;
    uint16_t slow_set[64];
    uint8_t full_rank[8]; /* 1: tested by the bitboards; 2: "*" alone, always true */
} qpattern;

/* A SAN-like move pattern for `move`. */
typedef struct qmovepat {
    uint8_t piece;                /* pgn_piece_type; 0 = any */
    uint8_t from_file, from_rank; /* 0xff = any */
    uint8_t to;                   /* square; 0xff = any */
    uint8_t capture;              /* 1 = must capture */
    uint8_t promo;                /* pgn_piece_type or 0 */
    uint8_t castle;               /* 1 short, 2 long */
} qmovepat;

typedef struct qnode {
    uint8_t op;           /* qop */
    uint8_t cmp;          /* qcmp */
    uint8_t sel;          /* ELO_*, a colour, a flag... per atom */
    uint8_t point;        /* 1: the subtree is made of point atoms only */
    uint8_t vars;         /* point atoms tested in variations too */
    uint8_t cost;         /* rough cost, cheap atoms first */
    uint8_t gap;          /* Q_SEQ steps after the first: 0 then, 1 next */
    uint8_t icase;        /* ~ with "..."i */
    uint8_t matonly;      /* Q_EXISTS, Q_PERSIST: its group reads material only (Q_MATERIAL...) */
    uint8_t nvk;          /* slots and sequence steps: how "can no longer match" is tested (NV_*) */
    uint32_t child;       /* first child, or QNONE */
    uint32_t next;        /* next sibling, or QNONE */
    uint32_t src, srclen; /* the atom's text in the expression (for printing) */
    uint32_t slot; /* Q_EXISTS / Q_SEQ / Q_PERSIST / Q_SWING: index of its state in the matcher */
    double num;    /* numeric operand */
    double num2;   /* second operand (ranges) */
    uint64_t bits; /* hash; piece-on-square masks... */
    uint64_t need[2]; /* nvk NV_PAWNS: squares that must hold pawns of each colour at once */
    uint64_t dep;     /* point subtrees: the squares whose contents decide the value (all ones:
                         the side, the move, the annotations or the whole board may) */
    const char *str;  /* NUL-terminated operand (tag value, ECO bound...) */
    size_t slen;
    const char *name; /* tag name */
    size_t nlen;
    const char *str2; /* second ECO bound */
    qre *re;
    qpattern *pat;
    pgn_pos *pos;     /* fen / opening: the position; opening: ply in num */
    int8_t mat[2][7]; /* material / imbalance: counts by colour and type (-1 = any) */
    qmovepat mp;
    uint8_t nag;
} qnode;

struct pgn_query {
    arena ar;
    char *text; /* a copy of the expression */
    size_t len;
    qnode *nodes;
    uint32_t n, cap;
    uint32_t root;
    uint32_t nslots;
    uint32_t *slots; /* node of each slot */
    uint32_t flags;  /* QF_* */
    uint32_t reader_flags;
    uint8_t noprune; /* tests only (test_query_prune.c): every group tested at every point, no
                        "can no longer match" exit */
};

/* What a query needs from the reader and the matcher. */
#define QF_BOARD 0x1u      /* positions */
#define QF_MOVETEXT 0x2u   /* moves must be read (counts, annotations) */
#define QF_VARS 0x4u       /* points of variations */
#define QF_KEYS 0x8u       /* repetition: identity keys of the main line */
#define QF_ANNOT 0x10u     /* comments and NAGs */
#define QF_END_POS 0x20u   /* the final position (ends, result != final) */
#define QF_ZOBRIST 0x40u   /* positions' Zobrist keys (hash, repetition) */
#define QF_NEVER_PLY 0x80u /* fen, opening: "never" can turn without a pawn move or capture */
#define QF_TAGS 0x100u     /* tags are kept (tag atoms, result = final) */
#define QF_BEFORE 0x200u   /* the position before a point's move (move, capture) */
#define QF_POINTS 0x400u   /* points are tested (slots or keys): the matcher needs each move */

/* qregex.c */
/* Compiles pattern (len bytes) into *out from the arena; icase folds ASCII case. Returns NULL on
 * success, else a static message. */
const char *pgnk_qre_compile(arena *a, const char *pattern, size_t len, int icase, qre **out);
int pgnk_qre_match(const qre *re, const char *s, size_t len);
/* 1 if the text s (sn bytes) matches the whole glob pattern g (gn bytes; qglob.c). */
int pgnk_qglob_match(const char *g, size_t gn, const char *s, size_t sn, int icase);

/* qatoms.c: operands of atoms (compile time), and their tests */
const char *pgnk_qpattern_compile(qpattern *p, const char *text, size_t len);
int pgnk_qpattern_match(const qpattern *p, const pgn_pos *pos);
/* Parses a date or date prefix "2020", "2020.01", "2020.??.05" into y, m, d (-1 unknown);
 * returns the number of fields read (0: not a date). */
int pgnk_qdate_parse(const char *s, size_t len, int f[3]);
/* Parses a number (optional sign, digits, optional fraction); returns 1 if all of s is one. */
int pgnk_qnum_parse(const char *s, size_t len, double *out);
/* Parses a clock h:mm:ss[.f] or m:ss or seconds into milliseconds; returns 1 on success. */
int pgnk_qclock_parse(const char *s, size_t len, double *ms);
/* Plays the moves of s ("1. e4 c5 2. Nf3") from the start; *plies = their count. NULL or a
 * message. */
const char *pgnk_qopening_parse(pgn_pos *pos, double *plies, const char *s, size_t len);
/* Parses a SAN-like move pattern; returns NULL or a message. */
const char *pgnk_qmove_parse(qmovepat *mp, const char *s, size_t len);
int pgnk_qmove_match(const qmovepat *mp, const pgn_pos *before, pgn_move mv);
/* Parses "KQRkqr" (material) into counts; returns NULL or a message. */
const char *pgnk_qmaterial_parse(int8_t mat[2][7], const char *s, size_t len);
/* Parses "R vs BN" (imbalance) into differences; returns NULL or a message. */
const char *pgnk_qimbalance_parse(int8_t mat[2][7], const char *s, size_t len);
int pgnk_qcmp_num(qcmp c, double a, double b);
/* Tests a game atom against the tags (tags: name/value pairs of the game so far). */
typedef struct qtag {
    const char *name, *val;
    size_t nlen, vlen;
} qtag;
typedef struct qtags {
    qtag *v;
    uint32_t n, cap;
} qtags;
int pgnk_qtag_get(const qtags *t, const char *name, size_t nlen, pgn_str *out);
int pgnk_qtag_atom(const qnode *n, const qtags *t);
/* ends, result = final / != final: their value at the final position e (qatoms.c). */
int pgnk_qend_atom(const qnode *n, const pgn_pos *e, unsigned reps, const qtags *tags,
                   pgn_result result);

/* qpoint.c: a point is a position with the move that led to it and that move's annotations */
typedef struct qann {
    uint8_t comment, has_clock, has_eval;
    double clock_ms;
    double eval; /* pawns, White's view; mates as +-(1000 - n) */
    uint64_t nags[4];
} qann;
typedef struct qpt {
    const pgn_pos *pos;
    const pgn_pos *before; /* NULL at the start position, and unless QF_BEFORE or QF_VARS */
    pgn_move mv;           /* PGN_MOVE_NONE at the start position */
    uint32_t ply;
    unsigned reps; /* occurrences of this position so far (main line, QF_KEYS) */
    const qann *ann;
    double swing; /* |eval - the previous eval|, when has_swing */
    uint8_t has_swing, mirrored;
} qpt;
/* The value of the point subtree id at pt (its depth is capped by the parser). */
int pgnk_qpoint_eval(const pgn_query *q, uint32_t id, const qpt *pt);
/* 1 if the point subtree id, false at the point (pos, ply), holds at no later point of the main
 * line. */
int pgnk_qpoint_never(const pgn_query *q, uint32_t id, const pgn_pos *pos, uint32_t ply);

/* "Can no longer match" tests (qnode.nvk): none can say so; only pawns that can no longer reach
 * the squares of need; any (pgnk_qpoint_never). */
enum { NV_NONE, NV_PAWNS, NV_ANY };
/* The nvk of the point subtree id; NV_PAWNS adds its squares to need. */
uint8_t pgnk_qpoint_never_kind(const pgn_query *q, uint32_t id, uint64_t need[2]);
/* 1 if a square of need[c] can no longer hold a pawn of colour c, or not all of them at once. */
int pgnk_qpawns_never(const pgn_pos *pos, const uint64_t need[2]);
/* 1 if the "never" tests hold in the variant of pos (not in crazyhouse, horde, antichess). */
int pgnk_qnever_rules(const pgn_pos *pos);
/* Adds to watch[c] the squares whose pawns of colour c pgnk_qpawns_never reads for need. */
void pgnk_qpawns_watch(const uint64_t need[2], uint64_t watch[2]);

/* Adds to g's alive sets (nalive, alive, min_pawns) what pgnk_qpawns_never reads for need, so that
 * they all hold where it says no; 0 (g unchanged) if more than PGN_GATE_ALIVE_MAX sets a colour. */
int pgnk_qpawns_alive(const uint64_t need[2], pgn_move_gate *g);

/* The squares whose contents decide the point subtree id (query.c; qnode.dep). */
uint64_t pgnk_qpoint_dep(const pgn_query *q, uint32_t id);

/* qpawns.c: the pawns of a game followed from its SAN text alone (no piece move resolved) */
typedef struct qpawns {
    uint64_t p[2]; /* the pawns of each colour */
    uint8_t side;  /* the side to move */
    uint8_t ep;    /* the square behind a pawn that has just made a double step, or PGN_SQ_NONE */
    uint8_t ok;    /* 0: a move was not followed (a variant, or a pawn move no pawn can make) */
} qpawns;
void pgnk_qpawns_start(qpawns *t, const pgn_pos *start);
/* Plays the SAN move san (len bytes) on the pawns; 0 (and t->ok = 0) if it cannot follow it. */
int pgnk_qpawns_play(qpawns *t, const char *san, size_t len);

/* qparse.c */
pgn_status pgnk_query_parse(pgn_query *q, pgn_query_error *err);

#endif
