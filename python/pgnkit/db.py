# SPDX-License-Identifier: MIT
"""pgnkit.db: the game database of `pgnkit db` (docs/database.md) from Python, over the C API
(include/pgnkit/db.h).

    import pgnkit.db
    with pgnkit.db.open("games.db") as db:
        db.import_(["twic1427.pgn.gz"])
        for m in db.explore("e4 c5").moves:
            print(m.san, m.games, m.white, m.draws, m.black)
        for hit in db.select('opening "1. e4 c5" and elo >= 2600'):
            print(hit.id, hit.pgn[:40])

A handle is for one thread at a time; an import releases the GIL, and another call on the same
handle meanwhile raises RuntimeError.
"""
import os
from typing import NamedTuple

from . import _pgnkit

__all__ = ["open", "Database", "Explored", "Move", "Hit", "Imported"]


class Move(NamedTuple):
    """A move played from the position: its games and their results, the mover's average Elo
    (None: no game gives it) and the latest date (YYYY.MM.DD, None: none known)."""
    san: str
    uci: str
    games: int
    white: int
    draws: int
    black: int
    elo: float | None
    last: str | None


class Explored(NamedTuple):
    """The answer of Database.explore: the position's FEN, the games that went on from it, and
    the moves played there, the most played first."""
    fen: str
    games: int
    moves: list


class Hit(NamedTuple):
    """A game Database.select found: its id (import order), its bytes as imported, and the first
    point at which a position or move condition held (None: none did)."""
    id: int
    pgn: bytes
    ply: int | None


class Imported(NamedTuple):
    """What Database.import_ did: games read, stored, duplicates skipped, broken games stored,
    (position, game) entries indexed."""
    games: int
    stored: int
    duplicates: int
    broken: int
    positions: int


def _date(d):
    return None if not d else "%04d.%02d.%02d" % (d // 10000, d // 100 % 100, d % 100)


class Database:
    """An open game database; use open(). close() (or a with block) releases it."""

    def __init__(self, path, create=True, readonly=False):
        self.path = os.fspath(path)
        self._h = _pgnkit.db_open(self.path, bool(create), bool(readonly))

    def close(self):
        """Closes the database (again: nothing)."""
        if self._h is not None:
            _pgnkit.db_close(self._h)
            self._h = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _handle(self):
        if self._h is None:
            raise ValueError("the database is closed")
        return self._h

    def explore(self, position=None):
        """The moves played from position: a FEN, or SAN moves from the start ("e4 c5 Nf3",
        move numbers allowed), or None for the start. ValueError for a bad position."""
        fen, games, rows = _pgnkit.db_explore(self._handle(), position or "")
        moves = [Move(san, uci, n, w, d, b, (es / eg) if eg else None, _date(last))
                 for san, uci, n, w, d, b, es, eg, last in rows]
        return Explored(fen, games, moves)

    def select(self, expression, limit=0):
        """The stored games that match expression (pgnkit select's language, docs/query.md), in
        import order, as a list of Hit: the same games as pgnkit select on the imported files.
        limit: at most that many (0: all). ValueError for a bad expression."""
        if limit < 0:
            raise ValueError("limit must be 0 or more")
        return [Hit(*h) for h in _pgnkit.db_select(self._handle(), expression, limit)]

    def import_(self, paths, threads=0, keep_duplicates=False):
        """Imports every game of paths (a path or a list of them: any input pgnkit reads,
        compressed files and archives too); returns the totals as Imported. OSError when a file
        cannot be read or the database cannot be written (the batches committed stay)."""
        if isinstance(paths, (str, bytes, os.PathLike)):
            paths = [paths]
        total = [0, 0, 0, 0, 0]
        for p in paths:
            got = _pgnkit.db_import(self._handle(), os.fsdecode(p), threads, bool(keep_duplicates))
            total = [a + b for a, b in zip(total, got)]
        return Imported(*total)


def open(path, create=True, readonly=False):  # noqa: A001 (pgnkit.db.open, as the issue names it)
    """Opens (create: creates when missing) the game database at path; readonly: for queries
    only. OSError for a file that is not a pgnkit database, has another schema, or cannot be
    written."""
    return Database(path, create=create, readonly=readonly)
