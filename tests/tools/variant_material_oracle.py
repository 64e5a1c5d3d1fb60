#!/usr/bin/env python3
# Writes tests/data/variant-material-python-chess.tsv: insufficient material for each side and the
# game's outcome at positions of every lichess variant, as python-chess says them
# (board.has_insufficient_material(color), board.outcome()), the outside truth for
# tests/unit/test_variant_material.c. Run once, by hand, with python-chess importable from its
# public source (GitHub niklasf/python-chess, GPL-3.0; none of its code is in pgnkit):
#   PYTHONPATH=/path/to/python-chess python3 tests/tools/variant_material_oracle.py COMMIT \
#       HORDE_CSV SHAKMATY_COMMIT > tests/data/variant-material-python-chess.tsv
# HORDE_CSV is shakmaty/tests/horde_insufficient_material.csv of GitHub niklasf/shakmaty
# (GPL-3.0), a random sample of S. Papazis's horde-insufficient-material-tests; a seeded sample of
# its positions is taken (stratified by its comment column and expected answer), and python-chess
# is asked about each: the two agree on all of them.
# The other positions are made here, seeded: (1) random legal play from each variant's start,
# sampled along the way; (2) random low material placed on random squares (kept only when
# python-chess's board.is_valid() accepts the position), where the rules have something to say;
# (3) for horde, every material signature of a horde of one unit against up to four black pieces
# beside the king, of two units against up to two, of three against up to one (bishops by
# square colour).
# pgnkit does not need python-chess to build or test; only this generator does.
import csv
import itertools
import random
import sys

import chess
import chess.variant

VARIANTS = ["crazyhouse", "atomic", "antichess", "3check", "kingofthehill", "horde",
            "racingkings"]
PLAY_GAMES = 6        # random games per variant
PLAY_EVERY = 12       # one position every PLAY_EVERY plies, and the last
MADE_PER_VARIANT = 200
HORDE_MADE = 150
CSV_PER_CLASS = 30    # rows of the csv per (comment, answer)


def answers(board):
    fresh = type(board)(board.fen())  # what a FEN reader sees: no move history
    out = fresh.outcome()
    term = "none" if out is None else out.termination.name.lower()
    win = "-" if out is None or out.winner is None else ("white" if out.winner else "black")
    return (int(fresh.has_insufficient_material(chess.WHITE)),
            int(fresh.has_insufficient_material(chess.BLACK)), term, win)


def random_play(cls, rng, seen, rows):
    for _ in range(PLAY_GAMES):
        board = cls()
        ply = 0
        while not board.is_game_over() and ply < 600:
            board.push(rng.choice(list(board.legal_moves)))
            ply += 1
            if ply % PLAY_EVERY == 0 or board.is_game_over():
                add(board, "random-play", seen, rows)


def add(board, source, seen, rows):
    fen = board.fen()
    if fen in seen or unreachable(board):
        return
    seen.add(fen)
    rows.append((board.uci_variant, fen) + answers(board) + (source,))


def unreachable(board):
    # positions no game reaches, which python-chess's is_valid() lets through:
    # antichess: the side that has just moved has no piece left (the game ended a move earlier;
    # python-chess then answers as for a draw); atomic: the side that has just moved left its king
    # attacked, the kings apart, and the side to move still has its king (only a move that
    # explodes the enemy king may do that; pgnkit's FEN reader refuses these)
    if board.uci_variant == "antichess":
        return not board.occupied_co[not board.turn]
    if board.uci_variant == "atomic":
        return board.king(board.turn) is not None and board.was_into_check()
    return False


PIECES = "pnbrq"


def place(board, rng, piece, color, horde_white):
    for _ in range(64):
        sq = rng.randrange(64)
        rank = chess.square_rank(sq)
        if board.piece_at(sq):
            continue
        if piece == chess.PAWN and (rank == 7 or (rank == 0 and not horde_white)):
            continue
        board.set_piece_at(sq, chess.Piece(piece, color))
        return sq
    return None


def made_position(cls, rng):
    board = cls(None)
    variant = board.uci_variant
    horde = variant == "horde"
    for color in (chess.WHITE, chess.BLACK):
        if variant == "antichess" and rng.random() < 0.5:
            pass  # the king is an ordinary piece: often none
        elif not (horde and color == chess.WHITE):
            place(board, rng, chess.KING, color, False)
        if horde:  # a horde of one to four units against up to five pieces: where rules differ
            n = rng.choice([0, 1, 1, 1, 2, 2, 3, 4]) if color == chess.WHITE else rng.randint(0, 5)
        else:
            n = rng.randint(0, 3)
        for _ in range(n):
            # minor pieces weigh most: the rules are about them
            t = rng.choice("pnnbbbrq" if variant != "racingkings" else "nnbbbrq")
            place(board, rng, PIECES.index(t) + 1, color, horde and color == chess.WHITE)
    board.turn = rng.choice([chess.WHITE, chess.BLACK])
    if variant == "crazyhouse":
        for color in (chess.WHITE, chess.BLACK):
            for _ in range(rng.choice([0, 0, 0, 1, 2])):
                board.pockets[color].add(rng.choice([1, 2, 2, 3, 3, 4, 5]))
        for sq in chess.scan_forward(board.occupied & ~board.kings & ~board.pawns):
            if rng.random() < 0.15:
                board.promoted |= chess.BB_SQUARES[sq]
    if variant == "3check":
        board.remaining_checks[chess.WHITE] = rng.randint(1, 3)
        board.remaining_checks[chess.BLACK] = rng.randint(1, 3)
    board.halfmove_clock = rng.choice([0, 0, 0, 12, 99, 100, 149, 150])
    return board if board.is_valid() else None


def made_positions(cls, rng, want, seen, rows):
    made = tries = 0
    while made < want and tries < want * 200:
        tries += 1
        board = made_position(cls, rng)
        if board is not None and board.fen() not in seen:
            add(board, "random-material", seen, rows)
            made += 1


# Horde material signatures: p, n, bishop on a light square (l), on a dark one (d), r, q.
UNITS = "pnldrq"


def horde_signature(rng, white, black):
    # one position with this material, Black to move, pieces on random squares of the right colour
    board = chess.variant.HordeBoard(None)
    board.turn = chess.BLACK
    place(board, rng, chess.KING, chess.BLACK, False)
    for color, units in ((chess.WHITE, white), (chess.BLACK, black)):
        for u in units:
            piece = chess.BISHOP if u in "ld" else PIECES.index(u) + 1
            while True:
                sq = place(board, rng, piece, color, color == chess.WHITE)
                light = bool(chess.BB_SQUARES[sq] & chess.BB_LIGHT_SQUARES)
                if u not in "ld" or light == (u == "l"):
                    break
                board.remove_piece_at(sq)
    return board


def horde_signatures(rng, seen, rows):
    # every horde of one unit against up to four black pieces beside the king, and of two units
    # against up to two, of three against up to one: the material the rules look at, once each
    for size, most in ((1, 4), (2, 2), (3, 1)):
        for white in itertools.combinations_with_replacement(UNITS, size):
            for k in range(most + 1):
                for black in itertools.combinations_with_replacement(UNITS, k):
                    board = horde_signature(rng, white, black)
                    if board.is_valid():
                        add(board, "signature", seen, rows)


def horde_csv(path, rng, seen, rows):
    classes = {}
    with open(path, encoding="utf-8") as f:
        for row in csv.DictReader(f):
            key = (row["comment"], row["white_has_insufficient_material"])
            classes.setdefault(key, []).append(row)
    for key in sorted(classes):
        rows_of = classes[key]
        for row in rng.sample(rows_of, min(CSV_PER_CLASS, len(rows_of))):
            board = chess.variant.HordeBoard(row["fen"])
            want = row["white_has_insufficient_material"] == "true"
            if board.has_insufficient_material(chess.WHITE) != want:
                sys.exit("python-chess and shakmaty disagree on " + row["fen"])
            if board.is_valid():
                add(board, "shakmaty-csv", seen, rows)


def main():
    commit, csv_path, shak_commit = sys.argv[1], sys.argv[2], sys.argv[3]
    rng = random.Random(17)
    seen = set()
    rows = []
    for name in VARIANTS:
        cls = chess.variant.find_variant(name)
        random_play(cls, rng, seen, rows)
        made_positions(cls, rng, HORDE_MADE if name == "horde" else MADE_PER_VARIANT, seen, rows)
    horde_signatures(rng, seen, rows)
    horde_csv(csv_path, rng, seen, rows)
    print("# Insufficient material and outcome at positions of the lichess variants as python-chess")
    print("# %s @%s says them (GitHub niklasf/python-chess, GPL-3.0; none of its code is in" %
          (chess.__version__, commit))
    print("# pgnkit): board.has_insufficient_material(WHITE), (BLACK), board.outcome() of the")
    print("# board read from the FEN. Generated by tests/tools/variant_material_oracle.py (seeded).")
    print("# Sources of the positions: random-play, random-material and signature (every small horde")
    print("# material, once) are made by that script;")
    print("# shakmaty-csv rows are a sample of shakmaty/tests/horde_insufficient_material.csv of GitHub")
    print("# niklasf/shakmaty @%s (GPL-3.0), itself a sample of S. Papazis's" % shak_commit)
    print("# horde-insufficient-material-tests; python-chess agrees with its expected answers.")
    print("# Rows: UCI-VARIANT<TAB>FEN<TAB>WHITE-INSUFFICIENT<TAB>BLACK-INSUFFICIENT<TAB>"
          "TERMINATION<TAB>WINNER<TAB>SOURCE")
    for row in rows:
        print("\t".join(str(x) for x in row))


if __name__ == "__main__":
    main()
