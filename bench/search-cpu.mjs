// CPU of search_files per search, thread by thread (issue 38): the bench's 10,000-file tree, RUNS
// one-page searches in this process after three to warm up, each thread's CPU from
// /proc/self/task (Linux; 10 ms ticks, so use 30 runs or more). A diagnostic, not a bench row:
//   node bench/search-cpu.mjs [plain|root] [RUNS] [DIST]   (DIST: another build's dist folder)
// `root` opens the backend on the tree's root (race-free, as the CLI and MCP do).
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureTree, NEEDLE } from './gen-tree.mjs';

const [mode = 'plain', runsArg = '30', distArg] = process.argv.slice(2);
const dist = pathToFileURL(resolve(distArg ?? new URL('../dist', import.meta.url).pathname)).href;
const { createWorkspace } = await import(`${dist}/index.js`);
const { createNodeFs } = await import(`${dist}/node/index.js`);
const root = await ensureTree();
const ws = createWorkspace({ fs: mode === 'root' ? createNodeFs({ root }) : createNodeFs(), root });

async function search() {
  const env = await ws.call('search_files', { pattern: NEEDLE, max_matches: 100_000 });
  if (!env.ok) throw new Error(JSON.stringify(env.error));
  return env.result.count;
}

/** Each thread's user and system ticks (10 ms each), by thread id. */
function threads() {
  const out = new Map();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const name = tid === String(process.pid) ? 'page' : readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim();
      out.set(tid, { name, user: Number(fields[11]), system: Number(fields[12]) });
    } catch {}
  }
  return out;
}

let count = 0;
for (let i = 0; i < 3; i++) count = await search();
const runs = Number(runsArg);
const cpu = process.cpuUsage();
const before = threads();
const start = performance.now();
for (let i = 0; i < runs; i++) await search();
const wall = (performance.now() - start) / runs;
const { user, system } = process.cpuUsage(cpu);
const perThread = [];
for (const [tid, t] of threads()) {
  const was = before.get(tid) ?? { user: 0, system: 0 };
  const ms = ((t.user - was.user + t.system - was.system) * 10) / runs;
  if (ms >= 1)
    perThread.push(`${t.name} ${ms.toFixed(0)} (${(((t.system - was.system) * 10) / runs).toFixed(0)} system)`);
}
console.log(
  `${mode}: ${count} matches; per search ${((user + system) / 1000 / runs).toFixed(1)} CPU-ms ` +
    `(${(system / 1000 / runs).toFixed(1)} system), wall ${wall.toFixed(1)} ms; threads: ${perThread.join(', ')}`,
);
process.exit(0);
