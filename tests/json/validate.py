#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Validates pgnkit JSON output against docs/pgnkit-game.schema.json with the jsonschema package
# (Debian python3-jsonschema). Usage: validate.py SCHEMA FILE...; each FILE is the output of
# --to json (one array) or --to ndjson (one game a line). Prints "games N" and exits 0 when every
# game is valid; exits 1 on any invalid game, unreadable file, or a missing jsonschema (never a
# silent skip). --oracle TSV.gz checks the main line of each game (UCI, final FEN) against the
# pgn-extract oracle table of the corpus (outside truth for the "uci" and "fen" members);
# --schema-limit N validates only the first N games of each file against the schema (speed).
import gzip
import json
import sys

try:
    import jsonschema
except ImportError:
    print("FAIL python3-jsonschema is not installed (apt-get install python3-jsonschema)")
    sys.exit(1)


def games_of(path):
    """The games of a file: a sequence of JSON values (game objects or arrays of them) separated
    by white space, as pgnkit reads them; so --to json and --to ndjson both work."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    decoder, games, i = json.JSONDecoder(), [], 0
    while True:
        while i < len(text) and text[i] in " \t\r\n":
            i += 1
        if i == len(text):
            return games
        value, i = decoder.raw_decode(text, i)
        games.extend(value if isinstance(value, list) else [value])


def main(argv):
    oracle, limit = None, None
    while len(argv) > 2 and argv[1] in ("--oracle", "--schema-limit"):
        if argv[1] == "--oracle":
            oracle = argv[2]
        else:
            limit = int(argv[2])
        argv = argv[:1] + argv[3:]
    with open(argv[1], encoding="utf-8") as f:
        schema = json.load(f)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    validator = cls(schema)
    games, bad = [], 0
    for path in argv[2:]:
        for i, game in enumerate(games_of(path), 1):
            games.append(game)
            if limit is not None and i > limit:
                continue
            errors = list(validator.iter_errors(game))
            if errors:
                bad += 1
                if bad <= 5:
                    e = errors[0]
                    print("FAIL %s game %d: %s at %s" % (path, i, e.message, list(e.absolute_path)))
    if oracle:
        rows = [l.split("\t") for l in gzip.open(oracle, "rt", encoding="utf-8")
                if not l.startswith("#")]
        if len(rows) != len(games):
            print("FAIL oracle has %d games, the JSON %d" % (len(rows), len(games)))
            bad += 1
        for row, game in zip(rows, games):
            moves = game["moves"]
            uci = " ".join(m["uci"] for m in moves)
            fen = moves[-1]["fen"] if moves else ""
            want_fen = row[8].rstrip("\n")
            # pgn-extract writes promotion letters in upper case (e7e8Q)
            if uci != row[7].lower() or (moves and fen != want_fen):
                bad += 1
                if bad <= 5:
                    print("FAIL oracle game %s: uci or final fen differ (%s / %s)"
                          % (row[0], fen, want_fen))
    print("games %d invalid %d" % (len(games), bad))
    return 1 if bad or not games else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
