# SPDX-License-Identifier: MIT
"""pgnkit.Board against published truths: perft(1) counts (CPW "Perft Results"), the standard's
FEN example (PGN 16.1.4), and the rules' errors."""
import pytest

import pgnkit

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


def test_start_and_kiwipete_move_counts():
    assert len(pgnkit.Board().legal_moves()) == 20
    assert len(pgnkit.Board(KIWIPETE).legal_moves()) == 48


def test_standard_fen_example():
    b = pgnkit.Board()
    assert b.push_san("e4") == "e2e4"
    assert b.push_uci("c7c5") == "c5"
    b.push_san("Nf3")
    assert b.fen() == "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    b.pop()
    # the standard writes c6 here; pgnkit writes an en passant square only when a capture is
    # legal (docs/design.md, FEN policy), as X-FEN and python-chess do
    assert b.fen() == "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"


def test_mate_and_errors():
    b = pgnkit.Board()
    for m in ("f3", "e5", "g4", "Qh4#"):
        b.push_san(m)
    assert b.is_checkmate() and b.is_check() and b.turn == "white"
    assert b.legal_moves() == []
    with pytest.raises(pgnkit.PgnError) as e:
        pgnkit.Board().push_san("Ke2")
    assert e.value.code == "E_ILLEGAL_MOVE"
    with pytest.raises(pgnkit.PgnError) as e:
        pgnkit.Board("8/8/8/8/8/8/8/KK6 w - - 0 1")  # two white kings
    assert e.value.code == "E_BAD_FEN"


def test_san_uci_conversion():
    b = pgnkit.Board(KIWIPETE)
    assert b.san("e1g1") == "O-O"
    assert b.uci("O-O-O") == "e1c1"
    assert b.polyglot_key() == pgnkit.Board(KIWIPETE).polyglot_key()
    assert pgnkit.Board().polyglot_key() == 0x463B96181691FC9C  # Polyglot's published start key
