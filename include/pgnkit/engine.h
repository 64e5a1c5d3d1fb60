/* SPDX-License-Identifier: MIT */
/* pgnkit engine analysis: the UCI protocol as pure functions (engine output lines parsed, moves
 * checked on the board; the position command built), the reading of one search's output (exact
 * scores beat bounds, the best move as a fallback line), the analysis logic of lichess (winning
 * chances, move judgements, accuracy, average centipawn loss) that annotates a game tree, and the
 * whole analysis of a game with the engine behind callbacks, pure functions that do no I/O; and a
 * UCI engine process (pgn_engine_*: spawn, pipes, deadlines) that a caller may put behind those
 * callbacks, as the pgnkit CLI does. */
#ifndef PGNKIT_ENGINE_H
#define PGNKIT_ENGINE_H

#include "annot.h"
#include "base.h"
#include "chess.h"
#include "evaluation.h"
#include "game.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- UCI protocol ---- */

typedef enum pgn_score_bound {
    PGN_BOUND_EXACT = 0,
    PGN_BOUND_LOWER = 1,
    PGN_BOUND_UPPER = 2
} pgn_score_bound;

/** A score as the engine reports it: from the side to move's point of view. UCI "mate 0" (the side
 * to move is checkmated) is read as PGN_SCORE_CHECKMATE with value -1. */
typedef struct pgn_score {
    pgn_score_kind kind;
    pgn_score_bound bound;
    int32_t value;
} pgn_score;

#define PGN_UCI_PV_MAX 64 /* longer principal variations are cut here */

/* pgn_uci_info.has bits: which fields the line carried */
#define PGN_INFO_DEPTH 0x01u
#define PGN_INFO_SELDEPTH 0x02u
#define PGN_INFO_MULTIPV 0x04u
#define PGN_INFO_SCORE 0x08u
#define PGN_INFO_NODES 0x10u
#define PGN_INFO_NPS 0x20u
#define PGN_INFO_TIME 0x40u
#define PGN_INFO_PV 0x80u

/** The fields of an "info" line. multipv is 1 when the line has none. The pv holds the moves that
 * are legal in turn from the position given to the parser; pv_status is PGN_OK, or the error of
 * the first move that was not (PGN_E_BAD_SAN: not UCI text, PGN_E_ILLEGAL_MOVE: not legal there),
 * whose text is in pv_bad; the pv stops before it. */
typedef struct pgn_uci_info {
    uint32_t has;
    uint32_t depth, seldepth, multipv;
    pgn_score score;
    uint64_t nodes, nps, time_ms;
    uint32_t pv_len;
    pgn_status pv_status;
    char pv_bad[8];
    pgn_move pv[PGN_UCI_PV_MAX];
} pgn_uci_info;

typedef enum pgn_uci_kind {
    PGN_UCI_OTHER = 0, /* empty, unknown command, or "id" with another field */
    PGN_UCI_ID_NAME,
    PGN_UCI_ID_AUTHOR,
    PGN_UCI_UCIOK,
    PGN_UCI_READYOK,
    PGN_UCI_OPTION,
    PGN_UCI_INFO,
    PGN_UCI_INFO_STRING,
    PGN_UCI_BESTMOVE
} pgn_uci_kind;

/** One line of engine output. Strings are borrowed from the line given to the parser. */
typedef struct pgn_uci_msg {
    pgn_uci_kind kind;
    /* ID_NAME/ID_AUTHOR: the value; OPTION: the option's name; INFO_STRING: the text */
    pgn_str text;
    /* OPTION: the type (check, spin, combo, button, string) and the default ("" if none) */
    pgn_str option_type, option_default;
    pgn_uci_info info; /* INFO */
    /* BESTMOVE: best (PGN_MOVE_NONE for "(none)" or 0000) and ponder (PGN_MOVE_NONE if absent or
     * not legal after best); move_status is PGN_OK, PGN_E_BAD_SAN or PGN_E_ILLEGAL_MOVE for best,
     * whose text is then in move_bad. */
    pgn_move best, ponder;
    pgn_status move_status;
    char move_bad[8];
} pgn_uci_msg;

/**
 * Parses one line of engine output (without its line break; a trailing CR is ignored). Tokens are
 * separated by any run of spaces or tabs. pos is the position being searched: moves of "pv" and
 * "bestmove" are checked against it; pos may be NULL for lines that carry no moves (a NULL pos
 * leaves pv empty and best PGN_MOVE_NONE). Unknown tokens in an info line are skipped with the
 * value that follows them when they are known to take one (currmove, hashfull, ...). Never fails:
 * a line it does not know is PGN_UCI_OTHER.
 */
PGN_API void pgn_uci_parse_line(const pgn_pos *pos, const char *line, size_t len, pgn_uci_msg *out);

/**
 * Writes the UCI "position" command for the position reached from start by moves[0..n-1] (legal
 * in turn; not checked): "position startpos moves ..." when start is the standard start of a
 * standard game, else "position fen FEN moves ..." (X-FEN castling). Castling is written
 * king-takes-rook when start->chess960 (UCI_Chess960). No line break is written. Like snprintf,
 * writes at most cap bytes including a NUL and returns the full length (without the NUL): the
 * command fits when the result is below cap. 120 + 6 * n bytes always suffice.
 */
PGN_API size_t pgn_uci_position_command(const pgn_pos *start, const pgn_move *moves, size_t n,
                                        char *buf, size_t cap);

/* ---- evaluations: the model is in evaluation.h ---- */

/** Turns an engine score (side to move's view) into White's point of view. */
PGN_API pgn_engine_eval pgn_engine_eval_from_score(pgn_score score, pgn_color side_to_move,
                                                   uint32_t depth);

/* ---- annotating a game ---- */

/** One line of a multipv search: its score (White's point of view) and its moves. */
typedef struct pgn_engine_line {
    pgn_engine_eval eval;
    uint32_t pv_len;
    pgn_move pv[PGN_UCI_PV_MAX]; /* legal in turn from the position searched */
} pgn_engine_line;

/** The engine's view of one main-line position: its evaluation and best line (multipv 1), and
 * the further lines of a multipv search (multipv 2, 3, ... in order; alt NULL when alt_count 0). */
typedef struct pgn_position_analysis {
    pgn_engine_eval eval;
    uint32_t pv_len;
    pgn_move pv[PGN_UCI_PV_MAX]; /* legal in turn from the position */
    uint32_t alt_count;
    const pgn_engine_line *alt;
} pgn_position_analysis;

/* pgn_annotate_opts.flags */
/** Earlier engine annotations are replaced instead of added to (docs/analysis.md says how they
 * are recognised). */
#define PGN_ANNOTATE_REPLACE 0x01u
/** Every move gets the engine's lines from the position before it (line 1, then alt) whose first
 * move is not the move played, as variations; without it only line 1 after mistakes and blunders.
 */
#define PGN_ANNOTATE_ALL_LINES 0x02u

typedef struct pgn_annotate_opts {
    const char *annotator;    /* Annotator tag value; NULL: no tag */
    uint32_t variation_plies; /* longest engine line added as a variation; 0 means 6 */
    uint32_t flags;           /* PGN_ANNOTATE_* */
} pgn_annotate_opts;

/**
 * Annotates the main line of game with positions[0..n-1] (n = main-line plies + 1; positions[0]
 * is the start position): on each move its [%eval] (pgn_node_set_eval: an earlier [%eval] of the
 * move is replaced in place, anything else in the comment kept), $6/$2/$4 with "Inaccuracy.",
 * "Mistake." or "Blunder." and "X was best." for judged moves, a variation with the engine's line
 * for mistakes and blunders (every line with PGN_ANNOTATE_ALL_LINES), its first move carrying the
 * line's [%eval], the position NAG on the last move, and the tags Annotator (after an earlier
 * annotator: "Old; ours"), WhiteAccuracy, BlackAccuracy, WhiteACPL, BlackACPL
 * (docs/analysis.md). Nothing is added twice: a NAG, sentence or variation (same first move) that
 * is already there is not added again. With PGN_ANNOTATE_REPLACE, earlier engine annotations are
 * removed first (docs/analysis.md). The game's own strings and nodes come from its arena;
 * positions is only read. stats (may be NULL) receives the figures. Returns PGN_OK, PGN_E_NOMEM
 * (the game is then partly annotated), or PGN_E_LIMIT when n does not match the game.
 */
PGN_API PGN_NODISCARD pgn_status pgn_game_annotate(pgn_game *game,
                                                   const pgn_position_analysis *positions, size_t n,
                                                   const pgn_annotate_opts *opts,
                                                   pgn_game_stats *stats);

/* ---- one search: the engine's output read into a result ---- */

/** What the engine said during one search, read line by line (pgn_search_feed): for each multipv
 * index the latest info line with an exact score and the latest with any score, the best move,
 * and the engine's illegal moves. Opaque; pgn_search_new gives one, pgn_search_free releases it. */
typedef struct pgn_search pgn_search;

#define PGN_SEARCH_LINES_MAX 1024u /* multipv lines a pgn_search keeps, at most */

/**
 * Makes a reader of searches that keeps lines 1..lines of a multipv search (0 counts as 1, more
 * than PGN_SEARCH_LINES_MAX as that; info lines of a higher multipv index are ignored). alloc may
 * be NULL (libc); it is copied. Returns PGN_OK with *out, or PGN_E_NOMEM or PGN_E_BAD_ALLOCATOR
 * (*out NULL).
 */
PGN_API PGN_NODISCARD pgn_status pgn_search_new(pgn_search **out, const pgn_allocator *alloc,
                                                uint32_t lines);

/** Releases s (NULL is allowed). */
PGN_API void pgn_search_free(pgn_search *s);

/** Starts reading a search of pos (copied): what an earlier search said is forgotten. */
PGN_API void pgn_search_begin(pgn_search *s, const pgn_pos *pos);

/**
 * Reads one line of the engine's output (without its line break; it need not be NUL-terminated
 * and is not kept). Returns PGN_OK, or PGN_END when the line was "bestmove": the search is over.
 */
PGN_API pgn_status pgn_search_feed(pgn_search *s, const char *line, size_t len);

/** An illegal or unreadable move the engine gave during a search; its pv or best move was cut
 * there (the score is still used). */
typedef struct pgn_search_warning {
    int best_move;     /* 0: in the pv of an info line that was kept; 1: the best move */
    pgn_status status; /* PGN_E_BAD_SAN (not UCI text) or PGN_E_ILLEGAL_MOVE */
    char move[8];      /* the engine's text of the move, cut to 7 bytes */
} pgn_search_warning;

/** The number of warnings of the current search: at most 2, the first of each kind, in the order
 * they came. */
PGN_API size_t pgn_search_warning_count(const pgn_search *s);

/** Warning i (< pgn_search_warning_count), borrowed until the next pgn_search_begin or feed. */
PGN_API const pgn_search_warning *pgn_search_warning_at(const pgn_search *s, size_t i);

/**
 * The result of the search so far (docs/analysis.md): for each multipv index the last info line
 * with an exact score, else the last one with a bound (a node-limited Stockfish ends with a bound
 * from its unfinished iteration). out receives line 1's evaluation (White's point of view) and
 * line; when that line has no moves, the best move stands in for it. out->eval.kind is
 * PGN_SCORE_NONE when the engine gave no score. Lines 2.. (up to alt_cap, in multipv order, up to
 * the first index the engine did not give or gave without moves) go to alt[], and out->alt points
 * at alt. alt may be NULL when alt_cap is 0.
 */
PGN_API void pgn_search_result(const pgn_search *s, pgn_position_analysis *out,
                               pgn_engine_line *alt, uint32_t alt_cap);

/* ---- analysing a game: the engine behind callbacks ---- */

typedef enum pgn_search_limit {
    PGN_LIMIT_NODES = 0,   /* "go nodes N" */
    PGN_LIMIT_DEPTH = 1,   /* "go depth N" */
    PGN_LIMIT_MOVETIME = 2 /* "go movetime MS" */
} pgn_search_limit;

/** One search that pgn_game_analyze asks of the engine. Everything is borrowed for the call. */
typedef struct pgn_search_request {
    size_t ply;            /* 0: the start position; i: the position after main-line ply i */
    const pgn_pos *start;  /* the game's start position */
    const pgn_move *moves; /* the main-line moves up to here: moves[0..ply-1] */
    const pgn_pos *pos;    /* the position searched */
    const char *position;  /* the UCI command "position ...", NUL-terminated, no line break */
    const char *go;        /* the UCI command "go ...", NUL-terminated, no line break */
} pgn_search_request;

/**
 * The engine, as the caller runs it (the library starts no process and does no I/O). ctx is the
 * callbacks' own. The library never keeps a pointer passed to a callback.
 */
typedef struct pgn_engine_callbacks {
    /** Before the game's first search (may be NULL): tell the engine a new game begins
     * (UCI_Chess960 as chess960 says, "ucinewgame", "isready"). A status other than PGN_OK stops
     * the analysis: pgn_game_analyze returns it and the game is unchanged. */
    pgn_status (*new_game)(void *ctx, int chess960);
    /** One search: send req->position and req->go, then give every line the engine prints to
     * pgn_search_feed(search, ...) until it returns PGN_END. search was begun on req->pos. The
     * callback owns deadlines ("stop"), and may restart the engine and search again after
     * pgn_search_begin(search, req->pos). PGN_OK: the search ended (pgn_search_result is then
     * read; a search without a score is a failure the callback reports). Any other status stops
     * the analysis: pgn_game_analyze returns it and the game is unchanged. */
    pgn_status (*search)(void *ctx, const pgn_search_request *req, pgn_search *search);
    /** After each position, searched or decided by the rules (may be NULL): for progress. */
    void (*position_done)(void *ctx, size_t ply);
} pgn_engine_callbacks;

typedef struct pgn_analyze_opts {
    pgn_search_limit limit;     /* what limit_value counts */
    uint64_t limit_value;       /* 0: 1000000 nodes (limit is then ignored) */
    uint32_t multipv;           /* lines searched per position; 0 and 1: one */
    uint32_t flags;             /* PGN_ANNOTATE_REPLACE; PGN_ANNOTATE_ALL_LINES is implied by
                                   multipv >= 2 */
    uint32_t variation_plies;   /* as in pgn_annotate_opts; 0 means 6 */
    const char *engine_name;    /* for the Annotator tag "NAME, nodes N (pgnkit analyze)"; NULL:
                                   "engine" */
    const pgn_allocator *alloc; /* for the analysis' working memory (the game's arena holds what
                                   is added to the game); NULL: libc */
} pgn_analyze_opts;

/**
 * Analyses the main line of game with the engine and annotates it like pgn_game_annotate: every
 * position is searched (engine->search) but those the rules decide: checkmate, stalemate, and the
 * automatic draws (insufficient material, the 75-move rule, fivefold repetition), which get their
 * evaluation without asking the engine (a checkmate none, a draw 0.00). opts may be NULL (the
 * defaults). stats (may be NULL) receives the figures. Returns PGN_OK; PGN_E_ILLEGAL_MOVE when
 * the main line holds a null move (nothing is searched); a callback's status when it stopped the
 * analysis; PGN_E_BAD_ALLOCATOR for a half-filled opts->alloc; PGN_E_NOMEM (the game may then be
 * partly annotated). After any error but PGN_E_NOMEM
 * the game is unchanged.
 */
PGN_API PGN_NODISCARD pgn_status pgn_game_analyze(pgn_game *game,
                                                  const pgn_engine_callbacks *engine, void *ctx,
                                                  const pgn_analyze_opts *opts,
                                                  pgn_game_stats *stats);

/* ---- a UCI engine process (POSIX: posix_spawn, two pipes, poll deadlines) ---- */

/** How pgn_engine_start runs an engine. Zeroed fields are the defaults given here. */
typedef struct pgn_engine_config {
    const char *path; /* NULL: "stockfish" on PATH, then /usr/games/stockfish; borrowed, must live
                         as long as the engine */
    unsigned threads, hash_mb, multipv; /* UCI options Threads, Hash, MultiPV (0: not set) */
    pgn_search_limit limit_kind;        /* with limit: a search's deadline when timeout_ms is 0 */
    uint64_t limit;
    int timeout_ms;   /* one search; past it "stop" and one more second. 0: from the limit */
    int handshake_ms; /* uci -> uciok and isready -> readyok */
    /* own_group: the engine in a process group of its own (a wrapper script's children are
     * killed with it). abort_fd (> 0): a file descriptor whose becoming readable ends the wait
     * for the engine's output at once, the search then told to stop (0: none) */
    int own_group, abort_fd;
} pgn_engine_config;

/** A UCI engine process: spawned, spoken to over two close-on-exec pipes, every read bounded by a
 * deadline; a dead or silent engine is killed and reported, never waited for forever. Nothing is
 * printed: failures are a status and a message in the caller's err buffer. A write to an engine
 * that died raises no SIGPIPE (it is held back on the calling thread). One thread at a time, but
 * for pgn_engine_kill. */
typedef struct pgn_engine pgn_engine;

/**
 * Creates a stopped engine with a copy of cfg (cfg->path is borrowed). alloc may be NULL (libc).
 * Returns PGN_OK, PGN_E_BAD_ALLOCATOR or PGN_E_NOMEM (then *out is NULL). Free with
 * pgn_engine_free.
 */
PGN_API PGN_NODISCARD pgn_status pgn_engine_new(pgn_engine **out, const pgn_engine_config *cfg,
                                                const pgn_allocator *alloc);

/** Stops the engine (pgn_engine_stop) and frees e; NULL is ignored. */
PGN_API void pgn_engine_free(pgn_engine *e);

/**
 * Starts the engine (stopping a running one first) and completes the uci/uciok handshake, sets
 * the options and waits for readyok. Returns PGN_OK, or PGN_E_IO with a message in err (not
 * found, not a UCI engine, no answer); the engine is then stopped.
 */
PGN_API PGN_NODISCARD pgn_status pgn_engine_start(pgn_engine *e, char *err, size_t errcap);

/** Sends quit and reaps the process (killed, with its group if cfg->own_group, when it does not
 * exit within half a second); e may be stopped already. */
PGN_API void pgn_engine_stop(pgn_engine *e);

/** Kills the running process (and its group if cfg->own_group) at once. Safe from another thread
 * (a signal handler's thread) while e is in use: the owner then sees a dead engine. */
PGN_API void pgn_engine_kill(pgn_engine *e);

/** 1 when the engine's process runs, else 0. */
PGN_API int pgn_engine_running(const pgn_engine *e);

/** The engine's name from its "id name" line (or its path) after pgn_engine_start; "" before. */
PGN_API const char *pgn_engine_name(const pgn_engine *e);

/**
 * Whether a game from start can go to this engine: PGN_OK, or PGN_E_UNSUPPORTED_VARIANT with the
 * reason in err for a position without a king (no UCI engine searches one) or a variant that is
 * not standard and that the engine's UCI_Variant option does not list (docs/variants.md).
 */
PGN_API pgn_status pgn_engine_check_game(const pgn_engine *e, const pgn_pos *start, char *err,
                                         size_t errcap);

/**
 * Prepares the engine for a game from start (the new_game of pgn_engine_callbacks): refused as
 * pgn_engine_check_game says (PGN_E_UNSUPPORTED_VARIANT, engine untouched); then UCI_Variant and
 * UCI_Chess960 when they change, "ucinewgame" and "isready". An engine that does not run or fails
 * here is started anew (pgn_engine_start) and told the same once more. Returns PGN_OK, or PGN_E_IO
 * with a message in err (the engine is then stopped).
 */
PGN_API PGN_NODISCARD pgn_status pgn_engine_new_game(pgn_engine *e, const pgn_pos *start, char *err,
                                                     size_t errcap);

/**
 * Stops the engine, starts it anew and prepares it for a game from start (pgn_engine_new_game):
 * the retry after a failed search. Returns as pgn_engine_new_game.
 */
PGN_API PGN_NODISCARD pgn_status pgn_engine_restart(pgn_engine *e, const pgn_pos *start, char *err,
                                                    size_t errcap);

/**
 * Runs one search: sends position and go (commands without line breaks, e.g. from a
 * pgn_search_request), then gives the engine's output to search (pgn_search_feed) until
 * bestmove, under the deadline of the configuration: past it "stop" and one more second.
 * Warnings (illegal moves from the engine, a late result) go to warn, one per kind, apart by
 * "; " (cleared if none). Returns PGN_OK; PGN_E_IO when the engine died or timed out (it is then
 * stopped), or gave no score; err says which.
 */
PGN_API PGN_NODISCARD pgn_status pgn_engine_search(pgn_engine *e, const char *position,
                                                   const char *go, pgn_search *search, char *err,
                                                   size_t errcap, char *warn, size_t warncap);

/** What pgn_engine_search_retry does after a failed search (a zeroed struct: no retry). */
typedef struct pgn_search_retry {
    unsigned retries; /* searches again after a failure, each on a restarted engine
                         (pgn_engine_restart); pgnkit analyze and serve: 1 */
    /* After each failed search (may be NULL): err says why (the message of pgn_engine_search),
     * retry is 1 when the engine is restarted and the position searched again. A nonzero return
     * gives up at once (pgn_engine_search_retry then returns PGN_E_IO, err unchanged). */
    int (*failed)(void *ctx, const pgn_search_request *req, const char *err, int retry);
    void *ctx;
} pgn_search_retry;

/**
 * The search callback of pgn_engine_callbacks on a pgn_engine: pgn_engine_search of req (search
 * begun on req->pos), and after a failure, up to retry->retries times, pgn_engine_restart from
 * req->start, pgn_search_begin(search, req->pos) and the search again. retry may be NULL (no
 * retry). Returns PGN_OK (warnings in warn, as pgn_engine_search gives them), or PGN_E_IO (or the
 * status of a failed restart) with the last message in err.
 */
PGN_API PGN_NODISCARD pgn_status pgn_engine_search_retry(pgn_engine *e,
                                                         const pgn_search_request *req,
                                                         pgn_search *search,
                                                         const pgn_search_retry *retry, char *err,
                                                         size_t errcap, char *warn, size_t warncap);

#ifdef __cplusplus
}
#endif
#endif
