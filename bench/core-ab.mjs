// Two builds' contract overhead on one machine: `node bench/core-ab.mjs OLD_DIST NEW_DIST [blocks] [perBlock]`
// (each a built dist/ folder, e.g. of a worktree at an older commit). Both builds load into this one
// process and run the core section's operations in alternating blocks, old and new taking turns
// (the first of each pair alternating too), so a swing of the machine's speed falls on both alike;
// separate processes in turns did not separate them on a loaded 2-core machine. Per block: the
// process's CPU (user + system, thread pool included) per operation. Prints per row the medians
// and the median of the blocks' new/old ratios. `ONLY=regex` picks rows. Keep blocks x perBlock +
// 10 under 400 for the rows with snapshots: past that the change journal starts compacting.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [oldDist, newDist] = process.argv.slice(2, 4);
if (!oldDist || !newDist) throw new Error('usage: node bench/core-ab.mjs OLD_DIST NEW_DIST [blocks] [perBlock]');
const BLOCKS = Number(process.argv[4] ?? 10);
const PER = Number(process.argv[5] ?? 30);
const only = process.env.ONLY ? new RegExp(process.env.ONLY) : null;
const SMALL =
  Array.from({ length: 40 }, (_, i) => `export const value${i} = ${i}; // a typical short source line`).join('\n') +
  '\n';

async function load(dist) {
  const url = (file) => pathToFileURL(join(isAbsolute(dist) ? dist : resolve(dist), file)).href;
  return { ...(await import(url('index.js'))), ...(await import(url('node/index.js'))) };
}
const builds = { old: await load(oldDist), new: await load(newDist) };
const folders = [];

/** One build's workspace on a fresh folder, as bench/core.mjs sets it up, and its operations. */
async function setup(lib, kind, snapshots) {
  const base = await mkdtemp(join(tmpdir(), 'sandpit-bench-core-ab-'));
  folders.push(base);
  await mkdir(join(base, 'src'));
  await writeFile(join(base, 'src', 'small.ts'), SMALL);
  const memory = kind === 'memory';
  const fs = memory
    ? lib.createMemoryFs({ 'src/small.ts': SMALL })
    : lib.createNodeFs(kind === 'node' ? {} : { root: base });
  const bare = kind === 'node, race-free' ? lib.createNodeFs() : fs;
  const root = memory ? '/' : base;
  const abs = `${memory ? '' : root}/src/small.ts`;
  const ws = lib.createWorkspace({
    fs,
    root,
    policy: { staleCheck: false },
    ...(snapshots ? {} : { snapshots: false }),
  });
  const ok = (r) => {
    if (!r.ok) throw new Error(JSON.stringify(r));
  };
  let current = 'value7 = 7';
  let n = 0;
  return {
    read: async () => ok(await ws.call('read_file', { path: 'src/small.ts' })),
    write: async () => {
      const content = SMALL.replace(/value7 = \d+/, `value7 = ${String(n++ % 1e6).padStart(6, '0')}`);
      ok(await ws.call('write_file', { path: 'src/small.ts', content }));
    },
    edit: async () => {
      const next = `value7 = ${1e6 + n++}`;
      ok(await ws.call('edit_file', { path: 'src/small.ts', old_text: current, new_text: next }));
      current = next;
    },
    bareEdit: async () => {
      const text = new TextDecoder().decode(await bare.readFile(abs));
      await bare.writeFile(abs, new TextEncoder().encode(text.replace(/value7 = \d+/, `value7 = ${n++}`)));
    },
  };
}

const rows = [];
for (const kind of ['memory', 'node', 'node, race-free']) {
  rows.push([`read_file on ${kind}`, kind, false, 'read', 10]);
  if (kind !== 'memory') rows.push([`write_file on ${kind}`, kind, false, 'write', 1]);
  rows.push([`edit_file on ${kind}`, kind, false, 'edit', 1]);
  rows.push([`bare read and write on ${kind}`, kind, false, 'bareEdit', 1]);
  rows.push([`edit_file on ${kind}, with its git snapshot`, kind, true, 'edit', 1]);
}
const median = (values) => {
  const s = [...values].sort((a, b) => a - b);
  return (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2;
};
const ms = (v) => (v < 0.1 ? `${(v * 1000).toFixed(1)} µs` : `${v.toFixed(2)} ms`);

console.log('| row | old CPU/op | new CPU/op | new/old (blocks) |\n|---|---|---|---|');
for (const [label, kind, snapshots, op, times] of rows) {
  if (only && !only.test(label)) continue;
  const sides = {};
  for (const side of ['old', 'new']) {
    const run = await setup(builds[side], kind, snapshots);
    for (let i = 0; i < 10 * times; i++) await run[op](); // warm-up
    sides[side] = { run, cpu: [] };
  }
  const count = PER * times;
  for (let b = 0; b < BLOCKS; b++) {
    for (const side of b % 2 ? ['new', 'old'] : ['old', 'new']) {
      const start = process.cpuUsage();
      for (let i = 0; i < count; i++) await sides[side].run[op]();
      const used = process.cpuUsage(start);
      sides[side].cpu.push((used.user + used.system) / 1000 / count);
    }
  }
  const ratios = sides.new.cpu.map((v, i) => v / sides.old.cpu[i]);
  const range = `${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}`;
  console.log(
    `| ${label} | ${ms(median(sides.old.cpu))} | ${ms(median(sides.new.cpu))} | ${median(ratios).toFixed(2)}x (${range}) |`,
  );
}
for (const folder of folders) await rm(folder, { recursive: true, force: true });
