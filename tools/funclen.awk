# Prints every C function longer than MAX lines (default 60) as "file:line name length".
# A function starts at a line in column 0 that holds "(" and does not end in ";" and ends at
# the next line that is exactly "}". Usage: awk -f tools/funclen.awk [-v MAX=60] FILES
BEGIN { if (MAX == "") MAX = 60 }
FNR == 1 { start = 0 }
/^[A-Za-z_].*\(/ && !/;[ \t]*$/ && !/^#/ { start = FNR; name = $0; next }
/^}/ && start { n = FNR - start + 1; if (n > MAX) printf "%s:%d %s (%d lines)\n", FILENAME, start, name, n; start = 0 }
