import { appendFileSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll } from 'vitest';

/**
 * Where the suite's CPU goes, file by file: with SANDPIT_CPU_LOG=<file> set, vitest.config.ts loads
 * this in every node-side file, and each file appends its test process's CPU seconds, its finished
 * children's (git, npm, the CLI, a bundler, a Chromium it launched) and its wall seconds. A
 * Chromium shared by a project (the e2e one) is counted where it was launched, not here.
 *
 * Each line also gives the worker's resident memory before and after the file (MB) and how many
 * processes the file started from the worker: with `isolate: false` a worker runs many files, and
 * every fork from a large worker costs the kernel a copy of its page tables.
 */
const TICKS_PER_SECOND = 100;

interface Cpu {
  self: number;
  children: number;
  /** the system-time part of each: the kernel's work (spawns, copies, deletes, syscalls) */
  selfSys: number;
  childrenSys: number;
}

function cpuNow(): Cpu {
  // /proc/self/stat: fields after the command's closing parenthesis; utime stime cutime cstime are 14-17
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const tick = (i: number) => Number(fields[i - 3]) / TICKS_PER_SECOND;
  return { self: tick(14) + tick(15), children: tick(16) + tick(17), selfSys: tick(15), childrenSys: tick(17) };
}

/** VmRSS and VmHWM of this process in MB */
function memoryNow(): { rss: number; peak: number } {
  const status = readFileSync('/proc/self/status', 'utf8');
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
  return { rss: Math.round(kb('VmRSS') / 1024), peak: Math.round(kb('VmHWM') / 1024) };
}

interface SpawnCount {
  sync: number;
  async: number;
}

/**
 * Counts every process this worker starts, once per process (setup files run again for each file
 * of a shared worker): node's child_process calls these two bindings for spawnSync/execSync and for
 * spawn/exec/fork alike, so a count there misses none of them.
 */
function spawnCounter(): SpawnCount {
  const holder = globalThis as { __sandpitSpawnCount?: SpawnCount };
  if (holder.__sandpitSpawnCount) return holder.__sandpitSpawnCount;
  const count: SpawnCount = { sync: 0, async: 0 };
  holder.__sandpitSpawnCount = count;
  const binding = (process as unknown as { binding(name: string): Record<string, unknown> }).binding;
  const reaped = reapLog();
  try {
    const spawnSync = binding('spawn_sync') as { spawn(...args: unknown[]): unknown };
    const original = spawnSync.spawn;
    spawnSync.spawn = function (this: unknown, ...args: unknown[]) {
      count.sync++;
      const started = performance.now();
      reaped?.settle();
      try {
        return original.apply(this, args);
      } finally {
        reaped?.note(args[0], started);
      }
    };
    type Handle = { onexit?: (...a: unknown[]) => unknown };
    const wrap = binding('process_wrap') as { Process: { prototype: { spawn(...args: unknown[]): unknown } } };
    const originalAsync = wrap.Process.prototype.spawn;
    wrap.Process.prototype.spawn = function (this: Handle, ...args: unknown[]) {
      count.async++;
      const started = performance.now();
      const onexit = this.onexit;
      // node sets onexit before it spawns; the child's CPU joins ours when it is reaped, just before this runs
      if (reaped && onexit)
        this.onexit = function (this: unknown, ...a: unknown[]) {
          reaped.note(args[0], started);
          return onexit.apply(this, a);
        };
      return originalAsync.apply(this, args);
    };
  } catch {
    // a Node without these bindings: the log gives no counts
  }
  return count;
}

/**
 * With SANDPIT_SPAWN_LOG=<file> as well: one line per finished child (its command, CPU seconds with
 * everything it waited for, wall seconds). A child's CPU joins this process's `children` when it is
 * reaped, and nothing else moves that figure, so the growth since the last reap is the child's.
 */
function reapLog(): { settle(): void; note(options: unknown, started: number): void } | null {
  const log = process.env.SANDPIT_SPAWN_LOG;
  if (!log) return null;
  let last = cpuNow().children;
  return {
    settle: () => {
      last = cpuNow().children;
    },
    note: (options, started) => {
      const now = cpuNow().children;
      const { file, args } = (options ?? {}) as { file?: string; args?: string[] };
      const command = (args ?? [file]).join(' ').slice(0, 300);
      const row = { command, cpu: +(now - last).toFixed(2), wall: +((performance.now() - started) / 1000).toFixed(2) };
      last = now;
      appendFileSync(log, `${JSON.stringify(row)}\n`);
    },
  };
}

let start = { self: 0, children: 0, selfSys: 0, childrenSys: 0, wall: 0, rss: 0, sync: 0, async: 0 };

beforeAll(() => {
  const spawns = spawnCounter();
  start = { ...cpuNow(), wall: performance.now(), rss: memoryNow().rss, sync: spawns.sync, async: spawns.async };
});

// biome-ignore lint/correctness/noEmptyPattern: vitest parses the first argument's pattern for fixtures; the file's suite is the second
afterAll(async ({}, suite) => {
  const log = process.env.SANDPIT_CPU_LOG;
  if (!log) return;
  // children started through test/support/lean-spawn.ts count once their driver is reaped
  await (globalThis as { __sandpitStopLeanSpawns?: () => Promise<void> }).__sandpitStopLeanSpawns?.();
  const now = cpuNow();
  const memory = memoryNow();
  const spawns = spawnCounter();
  const file = (suite as { filepath?: string }).filepath ?? suite.file?.filepath ?? 'unknown';
  const row = {
    file,
    self: +(now.self - start.self).toFixed(2),
    children: +(now.children - start.children).toFixed(2),
    selfSys: +(now.selfSys - start.selfSys).toFixed(2),
    childrenSys: +(now.childrenSys - start.childrenSys).toFixed(2),
    wall: +((performance.now() - start.wall) / 1000).toFixed(2),
    pid: process.pid,
    rssBefore: start.rss,
    rssAfter: memory.rss,
    rssPeak: memory.peak,
    // V8's part of the resident memory; the rest is native (malloc, a bundler's own allocator, stacks)
    heapTotal: Math.round(process.memoryUsage().heapTotal / 2 ** 20),
    external: Math.round(process.memoryUsage().external / 2 ** 20),
    spawnsSync: spawns.sync - start.sync,
    spawnsAsync: spawns.async - start.async,
  };
  appendFileSync(log, `${JSON.stringify(row)}\n`);
});
