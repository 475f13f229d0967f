// search_files against ripgrep, grep and a naive Node search on a generated 10,000-file / 40 MB
// tree, plus the cost of going through call() for search_files on each backend.
// Needs `npm run build` first. Run alone with `node bench/search.mjs`, or import benchSearch().
import { execFileSync, spawnSync } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startCommandRunner } from './command-runner.mjs';
import { createMemoryFs, createWorkspace } from '../dist/index.js';
import { createNodeFs } from '../dist/node/index.js';
import { ensureTree, NEEDLE } from './gen-tree.mjs';
import { fmtMs, fmtRatio, median, table } from './measure.mjs';

/** Median wall time of a heavy operation (few runs) and its last result. */
async function timeIt(runs, fn) {
  let out;
  const ms = await median(
    async () => {
      out = await fn();
    },
    { runs, warmup: 1 },
  );
  return { ms, out };
}

/** Medians of several contenders run in turns, so a busy machine slows each of them alike. */
async function interleaved(runs, contenders) {
  const times = contenders.map(() => []);
  const outs = [];
  for (let round = -1; round < runs; round++) {
    for (let i = 0; i < contenders.length; i++) {
      const t = performance.now();
      outs[i] = await contenders[i][1]();
      if (round >= 0) times[i].push(performance.now() - t);
    }
  }
  const mid = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return contenders.map(([name], i) => [name, { ms: mid(times[i]), out: outs[i] }]);
}

function hasCommand(cmd) {
  return spawnSync(cmd, ['--version'], { stdio: 'ignore' }).status === 0;
}

function ensureRipgrep() {
  if (hasCommand('rg')) return true;
  try {
    execFileSync('apt-get', ['install', '-y', 'ripgrep'], { stdio: 'ignore' });
  } catch {
    return false;
  }
  return hasCommand('rg');
}

/** Every match through call(), paging with next_cursor until the end. */
async function searchAll(ws, pageSize) {
  let count = 0;
  let cursor;
  do {
    const env = await ws.call('search_files', {
      pattern: NEEDLE,
      max_matches: pageSize,
      ...(cursor ? { cursor } : {}),
    });
    if (!env.ok) throw new Error(JSON.stringify(env.error));
    count += env.result.count;
    cursor = env.result.next_cursor;
  } while (cursor);
  return count;
}

/** The obvious Node search: recursive readdir, readFile as text, indexOf per line, one file at a time. */
async function naiveNode(root) {
  let count = 0;
  const visit = async (dir) => {
    for (const d of (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (d.name.startsWith('.')) continue;
      const p = join(dir, d.name);
      if (d.isDirectory()) await visit(p);
      else if (d.isFile())
        for (const line of (await readFile(p, 'utf8')).split('\n')) if (line.includes(NEEDLE)) count++;
    }
  };
  await visit(root);
  return count;
}

/** The same search done straight on a WorkspaceFs, without call(): walk, read, decode, indexOf. */
async function directOnBackend(fs, root) {
  let count = 0;
  const decoder = new TextDecoder();
  const visit = async (dir) => {
    const entries = (await fs.readdirTypes(dir)).sort((a, b) => (a.name < b.name ? -1 : 1));
    const files = [];
    for (const d of entries) {
      if (d.name.startsWith('.')) continue;
      if (d.type === 'dir') await visit(`${dir}/${d.name}`);
      else if (d.type === 'file') files.push(`${dir}/${d.name}`);
    }
    const texts = await Promise.all(files.map(async (f) => decoder.decode(await fs.readFile(f))));
    for (const text of texts) for (const line of text.split('\n')) if (line.includes(NEEDLE)) count++;
  };
  await visit(root);
  return count;
}

async function memoryCopy(root) {
  const seed = {};
  const visit = async (dir) => {
    for (const d of await readdir(dir, { withFileTypes: true })) {
      const p = join(dir, d.name);
      if (d.isDirectory()) await visit(p);
      else seed[`/ws/${relative(root, p)}`] = await readFile(p);
    }
  };
  await visit(root);
  return createMemoryFs(seed);
}

/**
 * The search section: search_files against rg, grep and naive Node on the generated tree, and
 * search_files through call() against the same search done directly on each backend.
 * Returns Markdown tables (see measure.mjs), like the other sections of bench/run.mjs.
 */
export async function benchSearch({ runs = 7, log = () => {} } = {}) {
  const root = await ensureTree();
  log('search: node backend against rg, grep and naive Node');
  const nodeWs = createWorkspace({ fs: createNodeFs(), root });
  // The CLI and the MCP server open the node backend on its root (openNodeWorkspace): every read goes
  // through the root's folder descriptors, the race-free path, which costs more than the plain one.
  const rootedWs = createWorkspace({ fs: createNodeFs({ root }), root });
  // rg and grep run from a child: a fork of this process between turns would make the next row
  // pay for it (see command-runner.mjs)
  const commands = startCommandRunner();
  const contenders = [
    ['grep -rnF', () => commands.run('grep', ['-rnF', NEEDLE, root])],
    ['search_files via call(), one page of 100,000', () => searchAll(nodeWs, 100_000)],
    ['search_files via call(), pages of 1,000 (cursor)', () => searchAll(nodeWs, 1_000)],
    [
      'search_files via call(), one page, race-free on its root (as the CLI and MCP open it)',
      () => searchAll(rootedWs, 100_000),
    ],
    [
      'search_files, first page of 50',
      () => nodeWs.call('search_files', { pattern: NEEDLE }).then((r) => r.result.count),
    ],
  ];
  if (ensureRipgrep())
    contenders.unshift(['rg -F (ripgrep)', () => commands.run('rg', ['-F', '-n', '--no-heading', NEEDLE, root])]);
  const results = await interleaved(runs, contenders).finally(() => commands.close());
  results.push(['naive Node readdir+readFile+indexOf', await timeIt(Math.min(runs, 3), () => naiveNode(root))]);
  const rg = results.find(([name]) => name.startsWith('rg'))?.[1];
  const rows = results.map(([name, r]) => [name, fmtMs(r.ms), String(r.out), rg ? fmtRatio(r.ms / rg.ms) : 'n/a']);
  const out = [
    table(
      'search_files against ripgrep (node, 10,000 files / 40 MB, literal on ~1% of lines; medians)',
      ['search', 'time', 'matching lines', 'vs rg -F'],
      rows,
    ),
  ];

  log('search: call() overhead on memory and node');
  const overhead = [];
  for (const [name, fs, r] of [
    ['node', createNodeFs(), root],
    ['memory', await memoryCopy(root), '/ws'],
  ]) {
    const ws = createWorkspace({ fs, root: r });
    const [[, directSearch], [, viaSearch]] = await interleaved(Math.min(runs, 5), [
      ['direct', () => directOnBackend(fs, r)],
      ['call', () => searchAll(ws, 100_000)],
    ]);
    overhead.push([
      `search_files (40 MB) on ${name}`,
      fmtMs(viaSearch.ms),
      fmtMs(directSearch.ms),
      fmtRatio(viaSearch.ms / directSearch.ms),
    ]);
  }
  out.push(
    table(
      'Search overhead: call() against the same work done directly on the backend (medians)',
      ['operation', 'through call()', 'direct on backend', 'ratio'],
      overhead,
    ),
  );
  return out.join('\n\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(await benchSearch({ log: (m) => console.error(`# ${m}`) }));
}
