#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Validates JSON Lines (pgnkit's --diag json stream) against a JSON Schema with the jsonschema
# package (Debian python3-jsonschema). Usage: validate_lines.py SCHEMA FILE...; every line of
# every FILE must be strict UTF-8, parse as one JSON object and validate; the last line of each
# FILE must be a {"summary": ...} (not with --no-summary: a run stopped by a usage error). Prints "lines N invalid N" and exits 1 on any failure, an
# unreadable file, or a missing jsonschema (never a silent skip).
import json
import sys

try:
    import jsonschema
except ImportError:
    print("FAIL python3-jsonschema is not installed (apt-get install python3-jsonschema)")
    sys.exit(1)


def main(argv):
    summary = True
    if len(argv) > 1 and argv[1] == "--no-summary":
        summary = False
        argv = argv[1:]
    if len(argv) < 3:
        print("usage: validate_lines.py [--no-summary] SCHEMA FILE...")
        return 2
    with open(argv[1], encoding="utf-8") as f:
        validator = jsonschema.Draft7Validator(json.load(f))
    lines = invalid = 0
    for path in argv[2:]:
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError as e:
            print(f"FAIL {path}: {e}")
            invalid += 1
            continue
        rows = data.split(b"\n")
        if rows and rows[-1] == b"":
            rows.pop()
        last = None
        for n, raw in enumerate(rows, 1):
            lines += 1
            try:
                last = value = json.loads(raw.decode("utf-8"))
                errors = list(validator.iter_errors(value))
            except (UnicodeDecodeError, ValueError) as e:
                errors = [e]
            if errors:
                invalid += 1
                if invalid <= 10:
                    print(f"FAIL {path}:{n}: {errors[0]}: {raw[:200]!r}")
        if summary and not (isinstance(last, dict) and "summary" in last):
            invalid += 1
            print(f"FAIL {path}: the last line is not a summary")
    print(f"lines {lines} invalid {invalid}")
    return 1 if invalid else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
