/* SPDX-License-Identifier: MIT */
/* pgnkit base types: status codes, source locations, borrowed strings and the allocator.
 * Every fallible function in the library returns a pgn_status (STYLE C5). */
#ifndef PGNKIT_BASE_H
#define PGNKIT_BASE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(PGNKIT_BUILD) && defined(__GNUC__)
#define PGN_API __attribute__((visibility("default")))
#else
#define PGN_API
#endif

#if defined(__GNUC__)
#define PGN_NODISCARD __attribute__((warn_unused_result))
#else
#define PGN_NODISCARD
#endif

/**
 * Status and diagnostic codes. Values are stable: new codes are appended to their group and
 * never renumbered. Errors are PGN_E_*, warnings (tolerated import-format quirks) PGN_W_*.
 * pgn_status_name() gives the stable identifier without the PGN_ prefix, e.g. "E_ILLEGAL_MOVE".
 */
typedef enum pgn_status {
    PGN_OK = 0,
    PGN_END = 1, /* no more games; not an error */

    /* resources */
    PGN_E_NOMEM = 10,
    PGN_E_IO = 11,
    PGN_E_LIMIT = 12,
    PGN_E_BAD_ALLOCATOR = 13, /* a pgn_allocator with some but not all of its three functions */

    /* lexical and syntax (used by the PGN reader) */
    PGN_E_BAD_CHAR = 20,
    PGN_E_UNTERMINATED_STRING = 21,
    PGN_E_UNTERMINATED_COMMENT = 22,
    PGN_E_TOKEN_TOO_LONG = 23,
    PGN_E_BAD_TAG = 24,
    PGN_E_UNBALANCED_PAREN = 25,
    PGN_E_UNEXPECTED_TOKEN = 26,
    PGN_E_MISSING_RESULT = 27,
    PGN_E_BAD_JSON = 28,    /* JSON input (pgn_json_reader): bad syntax, or not a game's schema */
    PGN_E_UTF16 = 29,       /* the input starts with a UTF-16 byte order mark: refused */
    PGN_E_BROKEN_GAME = 30, /* JSON input: a game marked cut short ("broken": true), refused */
    PGN_E_TRUNCATED = 31,   /* the game's text stops inside it: a move, a move number, a marker */

    /* chess */
    PGN_E_BAD_FEN = 50,
    PGN_E_BAD_SAN = 51,
    PGN_E_ILLEGAL_MOVE = 52,
    PGN_E_AMBIGUOUS_MOVE = 53,
    PGN_E_UNSUPPORTED_VARIANT =
        54,                        /* a Variant tag for rules pgnkit does not check (Seirawan...) */
    PGN_E_LANGUAGE_AMBIGUOUS = 55, /* the piece letters of two languages read a move differently */
    PGN_E_DESCRIPTIVE_AMBIGUOUS = 56, /* a descriptive move that names several legal moves (PxP) */

    /* warnings: tolerated quirks of the import format */
    PGN_W_CASTLE_ZERO = 100,          /* 0-0, 0-0-0, o-o, O–O (a Unicode dash) instead of O-O */
    PGN_W_PROMOTION_FORM = 101,       /* e8Q, e8=q, e8(Q) instead of e8=Q */
    PGN_W_EP_SUFFIX = 102,            /* exd6 e.p., exd6ep */
    PGN_W_LONG_ALGEBRAIC = 103,       /* Ng1f3, Ng1-f3, e2-e4, e2xd3 */
    PGN_W_UCI_MOVE = 104,             /* e2e4, e7e8q, e1h1 */
    PGN_W_OVER_DISAMBIGUATION = 105,  /* Ngf3 where Nf3 is unique */
    PGN_W_CHECK_SUFFIX = 106,         /* missing or wrong + or # */
    PGN_W_LOWERCASE_PIECE = 107,      /* nf3, or bc4 read as a bishop */
    PGN_W_PAWN_LETTER = 108,          /* Pe4, Pxd5 */
    PGN_W_CAPTURE_MARK = 109,         /* missing or needless x */
    PGN_W_NULL_MOVE = 110,            /* --, Z0 (non-standard) */
    PGN_W_FEN_MISSING_COUNTERS = 111, /* FEN without halfmove/fullmove fields */
    PGN_W_FEN_CASTLING_DROPPED = 112, /* castling right without its king or rook, dropped */
    PGN_W_FEN_EP_DROPPED = 113,       /* impossible en passant square, dropped */
    PGN_W_FEN_FULLMOVE_ZERO = 114,    /* fullmove number 0, read as 1 */
    PGN_W_MOVE_NUMBER = 115,          /* a move number that is not the move's */
    PGN_W_MISSING_RESULT = 116,       /* no termination marker; the Result tag (or *) is used */
    PGN_W_RESULT_MISMATCH = 117,      /* Result tag and termination marker disagree; tag kept */
    PGN_W_RESULT_FORM = 118,          /* 1/2, 1–0 with a Unicode dash, +--: read as the standard
                                         marker */
    PGN_W_DUPLICATE_TAG = 119,        /* a tag given twice; the last value wins */
    PGN_W_TAG_NAME = 120,             /* a tag name with characters other than letters, digits, _ */
    PGN_W_STRING_ESCAPE = 121,        /* a backslash not followed by " or \ in a tag value */
    PGN_W_SKIPPED_TEXT = 122,         /* text that is no PGN token, skipped */
    PGN_W_STRAY_PAREN = 123,          /* a ) without its (, ignored */
    PGN_W_VARIATION_START = 124,      /* a ( before any move, dropped */
    PGN_W_RESULT_IN_VARIATION = 125,  /* a termination marker inside a variation, ignored */
    PGN_W_NAG_RANGE = 126,            /* a NAG above 255, dropped */
    PGN_W_ENCODING = 127, /* text not UTF-8: converted from CP437 or Windows-1252/Latin-1 */
    PGN_W_FEN_WITHOUT_SETUP = 128, /* a FEN tag without SetUp "1" */
    PGN_W_TAG_VALUE = 129,         /* a tab or line break inside a tag value */
    PGN_W_VARIANT = 130,           /* a Variant tag read as standard chess (wild/0, ...) */
    PGN_W_GLYPH_NAG = 131,         /* a glyph such as ± or +/= read as its NAG */
    PGN_W_BAD_COMMAND = 132,       /* a malformed [%cmd ...] in a comment, kept as text */
    PGN_W_RESULT_AFTER_MATE =
        133, /* strict only, as a warning: the result is * after a checkmate */
    PGN_W_RESULT_CONTRADICTS = 134, /* a draw or the mated side's win after mate; a win after
                                       stalemate */
    PGN_W_TAG_QUOTES = 135,  /* unescaped quotes inside a tag value ([White ""Socrates""]), kept */
    PGN_W_LANGUAGE = 136,    /* moves read with another language's piece letters (Sf3: German) */
    PGN_W_DESCRIPTIVE = 137, /* moves read in descriptive notation (P-K4, P4R) */
    PGN_W_NOTATION_HINT = 138, /* a move no reader played reads in the notations named (P-K5:
                                 descriptive): try --input-lang with one of them */
    PGN_W_REPAIRED_MOVE = 139, /* PGN_READ_FIX: a move that could not be played was replaced by
                                  the one clearly meant (docs/repair.md) */
    PGN_W_PAWN_DROP = 140,     /* a crazyhouse pawn drop without its letter (@g2), read as P@g2 */
    PGN_W_TAG_UNCLOSED = 141,  /* a tag value without its closing quote before the ] ending its
                                  line ([White "Kasparov]), read to the ] */
    PGN_W_WRAPPER = 142,       /* a forum's [pgn] or [/pgn] around a pasted game, skipped */
    /* drops in a game with no Variant tag: the game is read as crazyhouse */
    PGN_W_DROP_CRAZYHOUSE = 143
} pgn_status;

/** Stable identifier of a code without the PGN_ prefix ("E_ILLEGAL_MOVE"), never NULL. */
PGN_API const char *pgn_status_name(pgn_status code);
/** One English sentence describing a code, never NULL. */
PGN_API const char *pgn_status_message(pgn_status code);
/** Nonzero if the code is a warning (PGN_W_*). */
PGN_API int pgn_status_is_warning(pgn_status code);

/** A position in a byte stream; line and column are 1-based, column counts bytes. */
/** Severity of a diagnostic: warnings become errors under strict reading. */
typedef enum pgn_severity { PGN_SEV_WARNING = 1, PGN_SEV_ERROR = 2 } pgn_severity;

typedef struct pgn_loc {
    uint64_t offset;
    uint32_t line, column;
} pgn_loc;

/** A borrowed, not NUL-terminated string. */
typedef struct pgn_str {
    const char *ptr;
    size_t len;
} pgn_str;

/**
 * Caller-supplied allocator (yyjson style): all three functions, or none. A NULL allocator
 * pointer, or one whose three functions are all NULL, means libc (ctx is then ignored). A
 * half-filled allocator (one or two of the three) is refused: every pgn_*_new that takes one
 * returns PGN_E_BAD_ALLOCATOR and creates nothing. Every byte the library allocates through it
 * is freed through it, and nothing then reaches libc. realloc receives the old size so that arena
 * or pool allocators need no headers; it is never called with a NULL ptr (malloc is).
 */
typedef struct pgn_allocator {
    void *(*malloc)(void *ctx, size_t size);
    void *(*realloc)(void *ctx, void *ptr, size_t old_size, size_t new_size);
    void (*free)(void *ctx, void *ptr);
    void *ctx;
} pgn_allocator;

#ifdef __cplusplus
}
#endif
#endif
