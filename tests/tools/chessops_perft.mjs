// Perft by chessops (npm, GPL-3.0-or-later; lichess's rules library), an outside truth for
// tests/cli/test_variant_perft.sh: reads lines "RULES<TAB>FEN<TAB>DEPTH" on stdin (RULES as chessops
// names them: chess, atomic, antichess, crazyhouse, kingofthehill, 3check, horde, racingkings) and
// prints one line "NODES" per input line ("error: ..." when chessops refuses the position).
// CHESSOPS is the chessops package's folder (tools/deps.sh installs it in build/npm/node_modules).
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';

const dir = process.env.CHESSOPS;
if (!dir) throw new Error('CHESSOPS (the chessops package folder) is not set');
const load = (name) => import(pathToFileURL(dir + '/dist/esm/' + name + '.js').href);
const { parseFen } = await load('fen');
const { setupPosition } = await load('variant');
const { perft } = await load('debug');

const rl = createInterface({ input: process.stdin });
for await (const line of rl) {
  if (!line.trim()) continue;
  const [rules, fen, depth] = line.split('\t');
  const setup = parseFen(fen);
  if (setup.isErr) {
    console.log('error: fen: ' + setup.error.message);
    continue;
  }
  const pos = setupPosition(rules, setup.value);
  if (pos.isErr) {
    console.log('error: setup: ' + pos.error.message);
    continue;
  }
  console.log(String(perft(pos.value, Number(depth), false)));
}
