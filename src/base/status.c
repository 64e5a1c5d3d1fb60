/* SPDX-License-Identifier: MIT */
/* Names and messages of the status and diagnostic codes (STYLE C5). The names are stable:
 * tests, JSON diagnostics and docs/errors.md use them. */
#include "pgnkit/base.h"

typedef struct status_info {
    pgn_status code;
    const char *name;
    const char *message;
} status_info;

static const status_info infos[] = {
    {PGN_OK, "OK", "success"},
    {PGN_END, "END", "no more games"},
    {PGN_E_NOMEM, "E_NOMEM", "out of memory"},
    {PGN_E_IO, "E_IO", "input or output error"},
    {PGN_E_LIMIT, "E_LIMIT", "a size or nesting limit was reached"},
    {PGN_E_BAD_ALLOCATOR, "E_BAD_ALLOCATOR",
     "allocator with some but not all of malloc, realloc and free"},
    {PGN_E_BAD_CHAR, "E_BAD_CHAR", "unexpected character"},
    {PGN_E_UNTERMINATED_STRING, "E_UNTERMINATED_STRING", "unterminated string"},
    {PGN_E_UNTERMINATED_COMMENT, "E_UNTERMINATED_COMMENT", "unterminated comment"},
    {PGN_E_TOKEN_TOO_LONG, "E_TOKEN_TOO_LONG", "token too long"},
    {PGN_E_BAD_TAG, "E_BAD_TAG", "malformed tag pair"},
    {PGN_E_UNBALANCED_PAREN, "E_UNBALANCED_PAREN", "unbalanced parenthesis"},
    {PGN_E_UNEXPECTED_TOKEN, "E_UNEXPECTED_TOKEN", "unexpected token"},
    {PGN_E_MISSING_RESULT, "E_MISSING_RESULT", "missing game termination marker"},
    {PGN_E_BAD_JSON, "E_BAD_JSON", "invalid JSON, or JSON that is not a game"},
    {PGN_E_BROKEN_GAME, "E_BROKEN_GAME",
     "game cut short when it was first read (\"broken\": true)"},
    {PGN_E_TRUNCATED, "E_TRUNCATED",
     "game cut short: its text stops inside a move, after a move number or before its result"},
    {PGN_E_UTF16, "E_UTF16", "UTF-16 text (byte order mark FF FE or FE FF): convert it to UTF-8"},
    {PGN_E_BAD_FEN, "E_BAD_FEN", "invalid FEN"},
    {PGN_E_BAD_SAN, "E_BAD_SAN", "move text that cannot be read as a move"},
    {PGN_E_ILLEGAL_MOVE, "E_ILLEGAL_MOVE", "illegal move"},
    {PGN_E_AMBIGUOUS_MOVE, "E_AMBIGUOUS_MOVE", "ambiguous move"},
    {PGN_E_UNSUPPORTED_VARIANT, "E_UNSUPPORTED_VARIANT",
     "game of a chess variant whose rules are not supported"},
    {PGN_E_LANGUAGE_AMBIGUOUS, "E_LANGUAGE_AMBIGUOUS",
     "the piece letters of several languages read this move differently"},
    {PGN_E_DESCRIPTIVE_AMBIGUOUS, "E_DESCRIPTIVE_AMBIGUOUS",
     "a move in descriptive notation that names several legal moves"},
    {PGN_W_CASTLE_ZERO, "W_CASTLE_ZERO", "castling written with zeros or lowercase letters"},
    {PGN_W_PROMOTION_FORM, "W_PROMOTION_FORM", "promotion not written as =Q"},
    {PGN_W_EP_SUFFIX, "W_EP_SUFFIX", "en passant suffix (e.p.) after a move"},
    {PGN_W_LONG_ALGEBRAIC, "W_LONG_ALGEBRAIC", "move in long algebraic notation"},
    {PGN_W_UCI_MOVE, "W_UCI_MOVE", "move in UCI notation"},
    {PGN_W_OVER_DISAMBIGUATION, "W_OVER_DISAMBIGUATION", "move disambiguated more than needed"},
    {PGN_W_CHECK_SUFFIX, "W_CHECK_SUFFIX", "missing or wrong check or mate mark"},
    {PGN_W_LOWERCASE_PIECE, "W_LOWERCASE_PIECE", "piece letter in lowercase"},
    {PGN_W_PAWN_LETTER, "W_PAWN_LETTER", "pawn move written with the letter P"},
    {PGN_W_CAPTURE_MARK, "W_CAPTURE_MARK", "missing or needless capture mark x"},
    {PGN_W_NULL_MOVE, "W_NULL_MOVE", "null move (non-standard)"},
    {PGN_W_FEN_MISSING_COUNTERS, "W_FEN_MISSING_COUNTERS",
     "FEN without halfmove clock or fullmove number"},
    {PGN_W_FEN_CASTLING_DROPPED, "W_FEN_CASTLING_DROPPED",
     "FEN castling right without its king or rook, dropped"},
    {PGN_W_FEN_EP_DROPPED, "W_FEN_EP_DROPPED", "impossible FEN en passant square, dropped"},
    {PGN_W_FEN_FULLMOVE_ZERO, "W_FEN_FULLMOVE_ZERO", "FEN fullmove number 0, read as 1"},
    {PGN_W_MOVE_NUMBER, "W_MOVE_NUMBER", "move number does not match the move"},
    {PGN_W_MISSING_RESULT, "W_MISSING_RESULT", "missing game termination marker"},
    {PGN_W_RESULT_MISMATCH, "W_RESULT_MISMATCH", "Result tag and termination marker disagree"},
    {PGN_W_RESULT_FORM, "W_RESULT_FORM", "non-standard termination marker"},
    {PGN_W_DUPLICATE_TAG, "W_DUPLICATE_TAG", "tag given more than once"},
    {PGN_W_TAG_NAME, "W_TAG_NAME", "tag name with characters other than letters, digits and _"},
    {PGN_W_STRING_ESCAPE, "W_STRING_ESCAPE", "unknown backslash escape in a string"},
    {PGN_W_SKIPPED_TEXT, "W_SKIPPED_TEXT", "text that is not PGN skipped"},
    {PGN_W_STRAY_PAREN, "W_STRAY_PAREN", "closing parenthesis without an opening one"},
    {PGN_W_VARIATION_START, "W_VARIATION_START", "variation before any move"},
    {PGN_W_RESULT_IN_VARIATION, "W_RESULT_IN_VARIATION", "termination marker inside a variation"},
    {PGN_W_NAG_RANGE, "W_NAG_RANGE", "NAG above 255"},
    {PGN_W_ENCODING, "W_ENCODING",
     "text not in UTF-8 converted from CP437 or Windows-1252 (Latin-1)"},
    {PGN_W_FEN_WITHOUT_SETUP, "W_FEN_WITHOUT_SETUP", "FEN tag without SetUp \"1\""},
    {PGN_W_TAG_VALUE, "W_TAG_VALUE", "tab or line break inside a tag value"},
    {PGN_W_VARIANT, "W_VARIANT", "Variant tag read as standard chess"},
    {PGN_W_GLYPH_NAG, "W_GLYPH_NAG", "glyph such as +/= or +- read as its NAG"},
    {PGN_W_BAD_COMMAND, "W_BAD_COMMAND", "malformed [%command] in a comment, kept as text"},
    {PGN_W_RESULT_AFTER_MATE, "W_RESULT_AFTER_MATE", "result * after a checkmate"},
    {PGN_W_RESULT_CONTRADICTS, "W_RESULT_CONTRADICTS",
     "result contradicted by the final position (checkmate or stalemate)"},
    {PGN_W_TAG_QUOTES, "W_TAG_QUOTES", "unescaped quote inside a tag value, kept as text"},
    {PGN_W_LANGUAGE, "W_LANGUAGE", "moves written with another language's piece letters"},
    {PGN_W_DESCRIPTIVE, "W_DESCRIPTIVE", "moves written in descriptive notation"},
    {PGN_W_NOTATION_HINT, "W_NOTATION_HINT",
     "the move that could not be played looks like the notation named (try --input-lang)"},
    {PGN_W_REPAIRED_MOVE, "W_REPAIRED_MOVE",
     "a move that could not be played was replaced by the one clearly meant (--fix)"},
    {PGN_W_PAWN_DROP, "W_PAWN_DROP", "crazyhouse pawn drop written without its letter (@g2)"},
    {PGN_W_TAG_UNCLOSED, "W_TAG_UNCLOSED",
     "tag value without its closing quote before the ] that ends its line, read to the ]"},
    {PGN_W_WRAPPER, "W_WRAPPER", "forum wrapper [pgn] or [/pgn] around a game, skipped"},
    {PGN_W_DROP_CRAZYHOUSE, "W_DROP_CRAZYHOUSE",
     "a drop in a game with no Variant tag: the game is read as crazyhouse"},
};

static const status_info *find(pgn_status code) {
    for (size_t i = 0; i < sizeof infos / sizeof infos[0]; i++) {
        if (infos[i].code == code) {
            return &infos[i];
        }
    }
    return NULL;
}

const char *pgn_status_name(pgn_status code) {
    const status_info *i = find(code);
    return i ? i->name : "UNKNOWN";
}

const char *pgn_status_message(pgn_status code) {
    const status_info *i = find(code);
    return i ? i->message : "unknown status code";
}

int pgn_status_is_warning(pgn_status code) {
    return code >= PGN_W_CASTLE_ZERO;
}
