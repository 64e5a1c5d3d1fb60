/* SPDX-License-Identifier: MIT */
/* The one-screen summary of the selection language (docs/query.md has all of it), shown by
 * 'pgnkit select --help', 'pgnkit help query' and in the man page. Every line that starts with
 * "  pgnkit select" is run by tests/cli/test_query_help.sh, which reads them from the program's
 * own --help, so an example cannot drift from the language (issue 31). */
#ifndef PGNKIT_CLI_QUERY_HELP_H
#define PGNKIT_CLI_QUERY_HELP_H

#define CLI_QUERY_HELP                                                                             \
    "The language (docs/query.md; one example of each kind):\n"                                    \
    "tags: NAME OP VALUE, OP one of = != < <= > >= ~ !~ (regular expression) glob (* ? [a-z]);\n"  \
    "\"...\"i ignores case; a tag compares as a number, a date (names ending in Date) or bytes\n"  \
    "  pgnkit select 'White ~ \"^Carlsen\" and Event ~ \"blitz\"i' games.pgn\n"                    \
    "  pgnkit select 'player ~ \"Carlsen\" and elo.avg >= 2700' games.pgn\n"                       \
    "  pgnkit select 'Date >= 2022.04 and eco = B20..B99 and result = \"1-0\"' games.pgn\n"        \
    "  pgnkit select 'ECO glob \"B9?\" or Event glob \"*Olympiad*\"' games.pgn\n"                  \
    "positions (at some point of the main line; at (...) puts all on one position):\n"             \
    "  pgnkit select 'fen \"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\"' "      \
    "games.pgn\n"                                                                                  \
    "  pgnkit select 'at (Pd4 and pe5)' games.pgn\n"                                               \
    "  pgnkit select 'pattern \"*/*/*/*/3pP3/*/*/*\"' games.pgn\n"                                 \
    "material and imbalance (K Q R B N P white, lower case black):\n"                              \
    "  pgnkit select 'material \"KRPkr\" or imbalance \"R vs BN\"' games.pgn\n"                    \
    "  pgnkit select 'count(N) - count(n) >= 2' games.pgn\n"                                       \
    "moves and sequences (then: later, next: the very next point):\n"                              \
    "  pgnkit select 'move e4 then move Qh5' games.pgn\n"                                          \
    "  pgnkit select 'opening \"1. e4 c5 2. Nf3\" and underpromotion' games.pgn\n"                 \
    "  pgnkit select 'plies >= 90 and persist 6 capture' games.pgn\n"                              \
    "endings (the final position): checkmate stalemate repetition fifty insufficient\n"            \
    "  pgnkit select 'ends = checkmate and moves <= 30' games.pgn\n"                               \
    "annotations: comments, NAGs, [%clk] and [%eval]\n"                                            \
    "  pgnkit select 'has comment or has nag $1' games.pgn\n"                                      \
    "and, or, not, parentheses; flip: also with the colours reversed:\n"                           \
    "  pgnkit select 'not (White = \"Carlsen, Magnus\") and (elo > 2600 or ends = stalemate)' "    \
    "games.pgn\n"                                                                                  \
    "  pgnkit select 'flip material \"KRPkr\"' games.pgn\n"

#endif
