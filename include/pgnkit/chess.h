/* SPDX-License-Identifier: MIT */
/* pgnkit chess rules core: positions, legal moves, FEN (PGN §16.1, X-FEN, Shredder-FEN),
 * SAN (PGN §8.2.3), UCI, Polyglot Zobrist keys and game-state tests, standard chess and Chess960,
 * and the lichess variants (crazyhouse, atomic, antichess, three-check, king of the hill, horde,
 * racing kings; docs/variants.md). Nothing here allocates: pgn_pos and pgn_movelist are plain
 * values. */
#ifndef PGNKIT_CHESS_H
#define PGNKIT_CHESS_H

#include "base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Squares are 0..63 with a1 = 0, b1 = 1, ..., h8 = 63. */
typedef uint8_t pgn_square;
#define PGN_SQ_NONE 64
#define PGN_SQ(file, rank) ((pgn_square)((rank)*8 + (file)))

typedef enum pgn_color { PGN_WHITE = 0, PGN_BLACK = 1 } pgn_color;

typedef enum pgn_piece_type {
    PGN_NO_PIECE = 0,
    PGN_PAWN = 1,
    PGN_KNIGHT = 2,
    PGN_BISHOP = 3,
    PGN_ROOK = 4,
    PGN_QUEEN = 5,
    PGN_KING = 6
} pgn_piece_type;

/* A piece on the board: type | color << 3, so 0 is empty, 1..6 white, 9..14 black. */
#define PGN_PIECE(color, type) ((uint8_t)((type) | ((color) << 3)))
#define PGN_PIECE_TYPE(piece) ((pgn_piece_type)((piece)&7))
#define PGN_PIECE_COLOR(piece) ((pgn_color)((piece) >> 3))

/**
 * A move in 16 bits: from (bits 0-5), to (6-11), kind (12-13), promotion piece (14-15:
 * knight, bishop, rook, queen). Castling is stored as king-takes-own-rook (to = the rook's
 * square), in standard chess and Chess960 alike; SAN and UCI output translate it.
 * PGN_MOVE_NONE (0) is never a legal move; PGN_MOVE_NULL is the null move ("--").
 */
typedef uint16_t pgn_move;
enum { PGN_MOVE_NORMAL = 0, PGN_MOVE_PROMOTION = 1, PGN_MOVE_EN_PASSANT = 2, PGN_MOVE_CASTLE = 3 };
#define PGN_MOVE_NONE ((pgn_move)0)
#define PGN_MOVE_NULL ((pgn_move)(1 | (1 << 6)))
#define PGN_MOVE_FROM(m) ((pgn_square)((m)&63))
#define PGN_MOVE_TO(m) ((pgn_square)(((m) >> 6) & 63))
#define PGN_MOVE_KIND(m) (((m) >> 12) & 3)
#define PGN_MOVE_PROMO(m) ((pgn_piece_type)((((m) >> 14) & 3) + PGN_KNIGHT))
#define PGN_MOVE_MAKE(from, to, kind, promo)                                                       \
    ((pgn_move)((from) | ((to) << 6) | ((kind) << 12) |                                            \
                (((kind) == PGN_MOVE_PROMOTION ? (promo)-PGN_KNIGHT : 0) << 14)))

/**
 * Variant moves, in the same 16 bits (they occur only in positions of those variants):
 * - A crazyhouse drop has from == to and the dropped piece type (PGN_PAWN..PGN_QUEEN) in bits
 *   12-15, so its "kind" bits mean nothing: test PGN_MOVE_IS_DROP before PGN_MOVE_KIND. The
 *   null move (from == to == b1, bits 12-15 zero) is not a drop.
 * - An antichess promotion to a king has kind PGN_MOVE_CASTLE with from and to on different ranks
 *   (castling never changes rank).
 * PGN_MOVE_PROMOTED gives the piece a move promotes to (king included), or PGN_NO_PIECE.
 */
#define PGN_MOVE_IS_DROP(m) (PGN_MOVE_FROM(m) == PGN_MOVE_TO(m) && ((m) >> 12) != 0)
#define PGN_MOVE_DROP_PIECE(m) ((pgn_piece_type)((m) >> 12))
#define PGN_MOVE_MAKE_DROP(type, to)                                                               \
    ((pgn_move)((unsigned)(to) | ((unsigned)(to) << 6) | ((unsigned)(type) << 12)))
#define PGN_MOVE_IS_KING_PROMO(m)                                                                  \
    (PGN_MOVE_KIND(m) == PGN_MOVE_CASTLE && (PGN_MOVE_FROM(m) >> 3) != (PGN_MOVE_TO(m) >> 3))
#define PGN_MOVE_MAKE_KING_PROMO(from, to)                                                         \
    ((pgn_move)((from) | ((to) << 6) | (PGN_MOVE_CASTLE << 12)))
#define PGN_MOVE_PROMOTED(m)                                                                       \
    (PGN_MOVE_IS_DROP(m)                      ? PGN_NO_PIECE                                       \
     : PGN_MOVE_IS_KING_PROMO(m)              ? PGN_KING                                           \
     : PGN_MOVE_KIND(m) == PGN_MOVE_PROMOTION ? PGN_MOVE_PROMO(m)                                  \
                                              : PGN_NO_PIECE)

/**
 * The rules a position is played by (lichess's variants). Chess960 is not one of them: it is the
 * separate `chess960` flag of a position (castling rules), which combines with any variant that
 * has castling. PGN_VARIANT_ANTICHESS is lichess's antichess, python-chess's and
 * Fairy-Stockfish's "giveaway" rules as well (castling only where the FEN grants rights).
 */
typedef enum pgn_variant {
    PGN_VARIANT_STANDARD = 0,
    PGN_VARIANT_CRAZYHOUSE,
    PGN_VARIANT_ATOMIC,
    PGN_VARIANT_ANTICHESS,
    PGN_VARIANT_THREECHECK,
    PGN_VARIANT_KOTH, /* king of the hill */
    PGN_VARIANT_HORDE,
    PGN_VARIANT_RACINGKINGS,
    PGN_VARIANT_COUNT
} pgn_variant;

/**
 * A position. A plain value: copy it with `=`. Fields are read-only for callers; change a
 * position only through pgn_pos_* functions. `ep` is the square behind a pawn that has just
 * made a double step (the 1994 FEN rule), whether or not a capture is possible; writers and
 * hashes decide whether it counts. `castle` holds the squares of the rooks that keep their
 * castling rights (both colours), which serves standard chess and Chess960 alike.
 * `variant` selects the rules; `promoted`, `checks` and `pocket` are zero outside the variants
 * that use them.
 */
typedef struct pgn_pos {
    uint64_t by_color[2];
    uint64_t by_type[7]; /* [0] = all occupied squares */
    uint64_t castle;
    uint64_t key;      /* Polyglot Zobrist key, kept up to date by pgn_pos_play (0 after
                          pgn_pos_play_unkeyed); variant state adds its own keys */
    uint64_t promoted; /* crazyhouse: pieces that were pawns (captured, they return as pawns) */
    uint8_t board[64];
    uint8_t side;     /* pgn_color to move */
    uint8_t ep;       /* PGN_SQ_NONE if none */
    uint8_t chess960; /* nonzero: UCI castling is king-takes-rook and FEN may use file letters */
    uint8_t variant;  /* pgn_variant */
    uint8_t kingless; /* nonzero: standard chess where a side has no king (a set-up position, a
                         study; docs/pgn-dialect.md): that side's moves know no king safety */
    uint16_t halfmove;
    uint8_t checks[2]; /* three-check: checks[c] = checks colour c still has to give (3 at start) */
    uint32_t fullmove;
    uint8_t pocket[2][6]; /* crazyhouse: pocket[c][type], pieces of colour c in hand, indexed by
                             type PGN_PAWN..PGN_QUEEN ([0] is always 0) */
} pgn_pos;

/** A list of moves. No legal position of standard chess has more than 218; crazyhouse drops make
 * more (301 with both kings and a full pocket), and 512 holds every variant position met. */
typedef struct pgn_movelist {
    uint32_t count;
    pgn_move moves[512];
} pgn_movelist;

#define PGN_START_FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

/* ---- Positions and moves ---- */

/** Sets *pos to the standard starting position. */
PGN_API void pgn_pos_init(pgn_pos *pos);
/** Sets *pos to the starting position of variant v (horde and racing kings have their own;
 * three-check starts with 3 checks each, crazyhouse with empty pockets). */
PGN_API void pgn_pos_init_variant(pgn_pos *pos, pgn_variant v);

/** The variant named by name (len bytes, any case, spaces and hyphens ignored): lichess's,
 * pychess's, python-chess's and Fairy-Stockfish's spellings ("Crazyhouse", "zh", "giveaway",
 * "3check", "King of the Hill", "koth", "racingkings", "From Position", "Chess960",
 * "fischerandom"...). Returns 1 and sets *out, and *chess960 (may be NULL) to 1 for Chess960's
 * names and 0 otherwise; 0 for an unknown name (then nothing is set). */
PGN_API int pgn_variant_from_name(const char *name, size_t len, pgn_variant *out, int *chess960);
/** lichess's name of v, as in its Variant tag ("Standard", "Crazyhouse", "Atomic", "Antichess",
 * "Three-check", "King of the Hill", "Horde", "Racing Kings"); never NULL. */
PGN_API const char *pgn_variant_name(pgn_variant v);
/** The UCI_Variant value of v as Fairy-Stockfish names it ("chess", "crazyhouse", "atomic",
 * "antichess", "3check", "kingofthehill", "horde", "racingkings"); never NULL. */
PGN_API const char *pgn_variant_uci_name(pgn_variant v);

/** Nonzero if pos is the standard starting position, the one of PGN_START_FEN: its board, White
 * to move, the four castling rights, no en passant square, halfmove clock 0 and move 1. The
 * Chess960 flag (rules, not position) is not looked at: the PGN writer omits FEN for such a game
 * (its Variant tag says Chess960; digest T70), the JSON writer and the UCI command also require
 * it clear. The one test of the writers and of the UCI "position startpos" command. */
PGN_API int pgn_pos_is_standard_start(const pgn_pos *pos);

/** Fills *out with every legal move of pos (generated from checkers and pin masks). */
PGN_API void pgn_pos_legal_moves(const pgn_pos *pos, pgn_movelist *out);

/**
 * Fills *out with the legal moves whose origin is in from_mask and destination in to_mask
 * (bit i = square i; castling moves have the rook's square as destination). Used to resolve
 * SAN by generating only the candidates.
 */
PGN_API void pgn_pos_legal_moves_masked(const pgn_pos *pos, uint64_t from_mask, uint64_t to_mask,
                                        pgn_movelist *out);

/** Number of legal moves, without storing them. */
PGN_API unsigned pgn_pos_count_legal(const pgn_pos *pos);

/** Nonzero if mv is legal in pos (PGN_MOVE_NULL is never legal here). */
PGN_API int pgn_pos_is_legal(const pgn_pos *pos, pgn_move mv);

/**
 * Plays mv, which must be legal in pos (or PGN_MOVE_NULL, which passes the turn). Updates
 * castling rights, the en passant square, the clocks and the Zobrist key. Playing an illegal
 * move is a programmer error; check with pgn_pos_is_legal first when unsure.
 */
PGN_API void pgn_pos_play(pgn_pos *pos, pgn_move mv);

/**
 * pgn_pos_play without the Zobrist key, for callers that never look at it (a reader that only
 * checks moves): pos->key is set to 0. pgn_pos_compute_key gives the key again.
 */
PGN_API void pgn_pos_play_unkeyed(pgn_pos *pos, pgn_move mv);

/** Counts leaf nodes at depth (perft). bulk != 0 counts the last ply's moves without playing. */
PGN_API uint64_t pgn_perft(const pgn_pos *pos, unsigned depth, int bulk);

/** Bitboard of the pieces of `by` attacking square sq in pos. */
PGN_API uint64_t pgn_pos_attackers(const pgn_pos *pos, pgn_square sq, pgn_color by);

/** Bitboard of the pieces giving check to the side to move. */
PGN_API uint64_t pgn_pos_checkers(const pgn_pos *pos);

/** Nonzero if move mv (legal in pos) is a capture (en passant included, castling excluded). */
PGN_API int pgn_move_is_capture(const pgn_pos *pos, pgn_move mv);

/* ---- Game state ---- */

/** Nonzero if the side to move is in check (never in antichess, nor for horde's kingless White;
 * in atomic not while the kings touch). */
PGN_API int pgn_pos_in_check(const pgn_pos *pos);
/** Nonzero if the side to move is checkmated: in check with no legal move. 0 in a position over
 * by its variant's own rule (pgn_pos_is_variant_end), which is asked first. */
PGN_API int pgn_pos_is_checkmate(const pgn_pos *pos);
/** Nonzero if the side to move is stalemated: not in check, with no legal move; 0 in a position
 * over by its variant's own rule. (In antichess a stalemated side wins: pgn_outcome_winner.) */
PGN_API int pgn_pos_is_stalemate(const pgn_pos *pos);
/** Nonzero if `color` cannot checkmate by any sequence of legal moves (FIDE dead-position
 * approximations used by python-chess: lone king, king + one minor, bishops on one colour). */
PGN_API int pgn_pos_insufficient_material_for(const pgn_pos *pos, pgn_color color);
/** Nonzero if neither side can checkmate. */
PGN_API int pgn_pos_is_insufficient_material(const pgn_pos *pos);
/** Nonzero if a legal en passant capture exists (the FIDE identity of positions uses this). */
PGN_API int pgn_pos_has_legal_ep(const pgn_pos *pos);

/**
 * Counts the occurrences of the last position in keys[0..n-1] (keys from pgn_pos_identity_key,
 * one per position, oldest first), looking back only as far as the halfmove clock allows.
 * Returns at least 1 when n > 0. 3 = threefold (claimable), 5 = fivefold (automatic draw).
 */
PGN_API unsigned pgn_repetitions(const uint64_t *keys, size_t n, unsigned halfmove);
/**
 * How far back pgn_repetitions may look from pos (its `halfmove` argument): the halfmove clock,
 * or, in crazyhouse, where a captured piece returns through the pocket and only a lost castling
 * right is irreversible (lichess, python-chess), every earlier position (UINT_MAX; the keys carry
 * the castling rights and pockets, so no earlier position is counted wrongly).
 */
PGN_API unsigned pgn_pos_repetition_window(const pgn_pos *pos);

/** The Polyglot key adjusted to FIDE identity: the en passant part only if a legal capture exists.
 */
PGN_API uint64_t pgn_pos_identity_key(const pgn_pos *pos);

typedef enum pgn_outcome {
    PGN_OUTCOME_NONE = 0,
    PGN_OUTCOME_CHECKMATE,
    PGN_OUTCOME_STALEMATE,
    PGN_OUTCOME_INSUFFICIENT_MATERIAL,
    PGN_OUTCOME_SEVENTYFIVE_MOVES,
    PGN_OUTCOME_FIVEFOLD_REPETITION,
    PGN_OUTCOME_FIFTY_MOVES,          /* claimable draw */
    PGN_OUTCOME_THREEFOLD_REPETITION, /* claimable draw */
    /* variant endings (pgn_outcome_winner says who won) */
    PGN_OUTCOME_KING_EXPLODED,    /* atomic: a king has exploded */
    PGN_OUTCOME_THIRD_CHECK,      /* three-check: a side has given its third check */
    PGN_OUTCOME_KING_OF_THE_HILL, /* king of the hill: a king stands on d4, e4, d5 or e5 */
    PGN_OUTCOME_NO_PIECES,        /* antichess: a side has lost every piece (it wins);
                                     horde: White has lost every piece (Black wins) */
    PGN_OUTCOME_RACE_WON,         /* racing kings: a king has reached the eighth rank alone */
    PGN_OUTCOME_RACE_DRAWN        /* racing kings: both kings have reached the eighth rank */
} pgn_outcome;

/**
 * The state of the game at pos: automatic endings first (checkmate, stalemate, insufficient
 * material, 75-move rule, fivefold repetition), then claimable draws (50-move rule, threefold).
 * `repetitions` is what pgn_repetitions returned for this position (pass 1 if unknown).
 */
PGN_API pgn_outcome pgn_pos_outcome(const pgn_pos *pos, unsigned repetitions);
/** "checkmate", "stalemate", ... never NULL. */
PGN_API const char *pgn_outcome_name(pgn_outcome outcome);
/** Who won the game ended with `outcome` at pos (as pgn_pos_outcome gave it): PGN_WHITE or
 * PGN_BLACK, or -1 for a draw or no ending. Antichess stalemate is a win for the side to move. */
PGN_API int pgn_outcome_winner(const pgn_pos *pos, pgn_outcome outcome);
/** Nonzero if pos is over by its variant's own rule (a king exploded, third check, king on the
 * hill, pieces all lost, race ended); 0 in standard chess. Such a position has no legal moves. */
PGN_API int pgn_pos_is_variant_end(const pgn_pos *pos);

/* ---- FEN ---- */

/** Flags for pgn_fen_parse. Zero is the lax default. */
#define PGN_FEN_STRICT 0x1u   /* no missing counters, no fullmove 0, no dropped rights or ep */
#define PGN_FEN_CHESS960 0x2u /* force Chess960 mode (also detected from the castling field) */
/* (pgn_fen_parse_variant reads either crazyhouse pocket form, `~` marks and either three-check
 * counter form whatever the flags.) */

/** Flags for pgn_fen_write. Zero writes X-FEN with the en passant square only if legal. */
#define PGN_FEN_SHREDDER 0x1u  /* castling as rook file letters (HAha) */
#define PGN_FEN_EP_ALWAYS 0x2u /* en passant square after every double step (PGN 1994) */
#define PGN_FEN_EP_PSEUDO 0x4u /* en passant square if an enemy pawn stands beside (X-FEN) */
#define PGN_FEN_EPD 0x8u       /* only the first four fields */
/* crazyhouse: pockets as a ninth rank (.../RNBQKBNR/Qn), not [Qn] */
#define PGN_FEN_POCKET_RANK 0x10u
/* three-check: checks given as +2+0 after the clocks (lichess), not checks remaining 1+3 before
 * them */
#define PGN_FEN_LICHESS_CHECKS 0x20u

#define PGN_FEN_MAX 256 /* longest FEN written, with NUL (variant FENs included) */

/** Details of a FEN parse: the failure (code != PGN_OK) and tolerated quirks. */
typedef struct pgn_fen_diag {
    pgn_status code;    /* PGN_OK or PGN_E_BAD_FEN */
    uint32_t column;    /* 1-based byte column of the problem within the FEN text */
    uint32_t field;     /* 1..6: placement, side, castling, en passant, halfmove, fullmove */
    const char *reason; /* static English text, never NULL */
    uint32_t warnings;  /* bit (1 << (W - PGN_W_CASTLE_ZERO)) for each PGN_W_FEN_* tolerated */
} pgn_fen_diag;

/**
 * Parses a FEN (X-FEN and Shredder-FEN castling accepted) of len bytes into *out with full
 * validation. Returns PGN_OK or PGN_E_BAD_FEN; diag (may be NULL) names the field and column.
 * *out is written only on success.
 */
PGN_API PGN_NODISCARD pgn_status pgn_fen_parse(pgn_pos *out, const char *fen, size_t len,
                                               uint32_t flags, pgn_fen_diag *diag);

/**
 * pgn_fen_parse for variant v: crazyhouse pockets ([Qn] after the placement or a ninth rank
 * /Qn) and promoted marks (Q~), three-check counters (remaining "3+3" before the clocks or
 * lichess's given "+0+0" after them; absent = 3+3), and each variant's own validity (kings:
 * none required in antichess, none for White in horde; racing kings: no check). With
 * PGN_VARIANT_STANDARD it is pgn_fen_parse.
 */
PGN_API PGN_NODISCARD pgn_status pgn_fen_parse_variant(pgn_pos *out, pgn_variant v, const char *fen,
                                                       size_t len, uint32_t flags,
                                                       pgn_fen_diag *diag);

/** Writes pos as FEN into buf (cap >= PGN_FEN_MAX suffices); returns the length (without NUL).
 * Variant state is written as pos->variant needs (see PGN_FEN_POCKET_RANK, ..._LICHESS_CHECKS). */
PGN_API size_t pgn_fen_write(const pgn_pos *pos, uint32_t flags, char *buf, size_t cap);

/* ---- SAN and UCI ---- */

/* longest canonical SAN (Qa6xb7#; drops Q@e4#, antichess exd8=K) plus NUL */
#define PGN_SAN_MAX 8

/** Writes the canonical SAN of mv (legal in pos) into buf; returns its length: drops as N@f3 and
 * P@e4, check and mate marks as the variant defines them (none in antichess and racing kings). */
PGN_API size_t pgn_san_write(const pgn_pos *pos, pgn_move mv, char buf[PGN_SAN_MAX]);

/** Flags for pgn_san_parse. Zero is the lax default (every quirk tolerated with a warning). */
#define PGN_SAN_STRICT 0x1u     /* any quirk is an error (PGN_E_BAD_SAN) */
#define PGN_SAN_NULL_MOVES 0x2u /* accept --, Z0, 0000 as the null move */
#define PGN_SAN_NO_VERIFY 0x4u  /* do not check the + / # suffix (faster) */
#define PGN_SAN_AUTO_QUEEN 0x8u /* e8 without a piece promotes to a queen */
#define PGN_SAN_NO_FAST 0x10u   /* for tests: always take the general path, not the fast one */

/** Result of pgn_san_parse: the move and the quirks met, as bits 1 << (W - PGN_W_CASTLE_ZERO). */
typedef struct pgn_san_result {
    pgn_move move;
    uint32_t warnings;
} pgn_san_result;

#define PGN_WARN_BIT(w) (1u << ((w)-PGN_W_CASTLE_ZERO))

/**
 * Reads a move written in SAN, lax SAN, long algebraic or UCI (digest §5.2, §6.2) and matches it
 * (in a crazyhouse position also drops: N@f3, P@e4 and chess.com's @e4 for a pawn)
 * against the legal moves of pos. Returns PGN_OK, PGN_E_BAD_SAN (unparsable, or a quirk under
 * PGN_SAN_STRICT), PGN_E_ILLEGAL_MOVE (no legal move matches) or PGN_E_AMBIGUOUS_MOVE.
 */
PGN_API PGN_NODISCARD pgn_status pgn_san_parse(const pgn_pos *pos, const char *san, size_t len,
                                               uint32_t flags, pgn_san_result *out);

#define PGN_UCI_MAX 6 /* e7e8q plus NUL */

/** Writes mv as UCI; castling is e1g1 unless pos->chess960 (then king-takes-rook e1h1); a drop
 * is N@f3 (P@e4 for a pawn), an antichess king promotion e7e8k. */
PGN_API size_t pgn_uci_write(const pgn_pos *pos, pgn_move mv, char buf[PGN_UCI_MAX]);

/**
 * Reads a UCI move (e2e4, e7e8q, e1g1 or king-takes-rook e1h1 castling, 0000 = null move; in
 * variants N@f3 drops and e7e8k antichess promotions) and checks it is legal. Returns PGN_OK,
 * PGN_E_BAD_SAN (not UCI) or PGN_E_ILLEGAL_MOVE.
 */
PGN_API PGN_NODISCARD pgn_status pgn_uci_parse(const pgn_pos *pos, const char *uci, size_t len,
                                               pgn_move *out);

/* ---- Piece letters of other languages (PGN §17) and figurines (§8.2.3); docs/notation.md ---- */

/** A set of piece letters. English is 0. Languages whose letters are the same (Danish, German,
 * Norwegian and Swedish; Italian and Spanish) read the same text; pgn_lang_same says so. Not
 * export format (PGN §17): for local presentation and for reading what people typed. */
typedef enum pgn_lang {
    PGN_LANG_ENGLISH = 0, /* P N B R Q K */
    PGN_LANG_CZECH,       /* P J S V D K */
    PGN_LANG_DANISH,      /* B S L T D K */
    PGN_LANG_DUTCH,       /* O P L T D K */
    PGN_LANG_ESTONIAN,    /* P R O V L K */
    PGN_LANG_FINNISH,     /* P R L T D K */
    PGN_LANG_FRENCH,      /* P C F T D R */
    PGN_LANG_GERMAN,      /* B S L T D K */
    PGN_LANG_HUNGARIAN,   /* G H F B V K */
    PGN_LANG_ICELANDIC,   /* P R B H D K */
    PGN_LANG_ITALIAN,     /* P C A T D R */
    PGN_LANG_NORWEGIAN,   /* B S L T D K */
    PGN_LANG_POLISH,      /* P S G W H K */
    PGN_LANG_PORTUGUESE,  /* P C B T D R */
    PGN_LANG_ROMANIAN,    /* P C N T D R */
    PGN_LANG_SPANISH,     /* P C A T D R */
    PGN_LANG_SWEDISH,     /* B S L T D K */
    PGN_LANG_RUSSIAN,     /* п К С Л Ф Кр (the common Cyrillic set) */
    PGN_LANG_FIGURINE,    /* the Unicode chess symbols, white ones written */
    /* Descriptive notation (not letters alone: the moves are written otherwise; read and written
     * by pgn_desc_parse and pgn_desc_write, and by pgn_san_parse_lang) */
    PGN_LANG_DESCRIPTIVE,    /* English: P-K4, N-KB3, PxP, KBPxP, R/1-Q1, P-K8=Q */
    PGN_LANG_DESCRIPTIVE_ES, /* Spanish and Italian: P4R, C3AR, PxP, A5CD (P C A T D R) */
    PGN_LANG_DESCRIPTIVE_PT, /* Portuguese: P4R, C3BR, B5CD (P C B T D R) */
    PGN_LANG_COUNT
} pgn_lang;

/** The language named by name: an ISO 639-1 code ("de"), an English name ("german", any case),
 * "cyrillic" (Russian) or "figurine". Returns 1 and sets *out, or 0 for an unknown name. */
PGN_API int pgn_lang_from_name(const char *name, pgn_lang *out);
/** The English name of lang ("German"), never NULL. */
PGN_API const char *pgn_lang_name(pgn_lang lang);
/** The ISO 639-1 code of lang ("de"; "figurine" for figurines), never NULL. */
PGN_API const char *pgn_lang_code(pgn_lang lang);
/** The piece letter of type (PGN_PAWN..PGN_KING) in lang, as a NUL-terminated UTF-8 string. */
PGN_API const char *pgn_lang_letter(pgn_lang lang, pgn_piece_type type);
/** Nonzero when a and b have the same letters (German and Swedish, Italian and Spanish). */
PGN_API int pgn_lang_same(pgn_lang a, pgn_lang b);

/** pgn_san_parse of a move written with lang's piece letters (figurines are read in every
 * language, castling is O-O in all). A letter lang does not have is PGN_E_BAD_SAN. */
PGN_API PGN_NODISCARD pgn_status pgn_san_parse_lang(const pgn_pos *pos, pgn_lang lang,
                                                    const char *san, size_t len, uint32_t flags,
                                                    pgn_san_result *out);

/** Nonzero for the descriptive notations (PGN_LANG_DESCRIPTIVE...), whose moves
 * pgn_san_translate cannot write (they need the position): pgn_desc_write does. */
PGN_API int pgn_lang_is_descriptive(pgn_lang lang);

/** Reads a move in descriptive notation lang (PGN_LANG_DESCRIPTIVE...; docs/notation.md), each
 * side naming the squares from its own side, and matches it against the legal moves of pos. The
 * marks ch, mate, +, #, e.p., ! and ? may follow it. Returns PGN_OK and *out, PGN_E_BAD_SAN (not
 * such a move, or lang is no descriptive notation), PGN_E_ILLEGAL_MOVE (no legal move fits) or
 * PGN_E_AMBIGUOUS_MOVE (several do). fitting (may be NULL) gets the moves that fit, in the
 * order of their pgn_move values (the target square's, then the origin's). */
PGN_API PGN_NODISCARD pgn_status pgn_desc_parse(const pgn_pos *pos, pgn_lang lang, const char *text,
                                                size_t len, pgn_movelist *fitting, pgn_move *out);

#define PGN_DESC_MAX 32 /* longest descriptive move written (P/QB7xN/KN8=Q), mark and NUL */

/** Writes legal move mv of pos in descriptive notation lang: the shortest form that
 * pgn_desc_parse reads as mv alone (N-B3 when one knight can reach one B3, else N-KB3, KN-B3,
 * N/1-B3...), then ch or mate (Romance: + or ++). Returns the length, 0 if mv is not legal, lang
 * is no descriptive notation or cap is too small (PGN_DESC_MAX suffices). */
PGN_API size_t pgn_desc_write(const pgn_pos *pos, pgn_lang lang, pgn_move mv, char *buf,
                              size_t cap);

#define PGN_SAN_LANG_MAX 32 /* longest SAN in any language (Кр: 4 bytes, figurines 3) plus NUL */

/** Rewrites the English SAN or LAN text san (len bytes) with lang's piece letters into buf (cap
 * bytes, PGN_SAN_LANG_MAX suffices for SAN); returns the length, or 0 if it does not fit. */
PGN_API size_t pgn_san_translate(pgn_lang lang, const char *san, size_t len, char *buf, size_t cap);

/* ---- Zobrist ---- */

/** The Polyglot key of pos computed from scratch (equal to pos->key). */
PGN_API uint64_t pgn_pos_compute_key(const pgn_pos *pos);

#ifdef __cplusplus
}
#endif
#endif
