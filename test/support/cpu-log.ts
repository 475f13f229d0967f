import { appendFileSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll } from 'vitest';

/**
 * Where the suite's CPU goes, file by file: with SANDPIT_CPU_LOG=<file> set, vitest.config.ts loads
 * this in every node-side file, and each file appends its test process's CPU seconds, its finished
 * children's (git, npm, the CLI, a bundler, a Chromium it launched) and its wall seconds. A
 * Chromium shared by a project (the e2e one) is counted where it was launched, not here.
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

let start = { self: 0, children: 0, selfSys: 0, childrenSys: 0, wall: 0 };

beforeAll(() => {
  start = { ...cpuNow(), wall: performance.now() };
});

// biome-ignore lint/correctness/noEmptyPattern: vitest parses the first argument's pattern for fixtures; the file's suite is the second
afterAll(({}, suite) => {
  const log = process.env.SANDPIT_CPU_LOG;
  if (!log) return;
  const now = cpuNow();
  const file = (suite as { filepath?: string }).filepath ?? suite.file?.filepath ?? 'unknown';
  const row = {
    file,
    self: +(now.self - start.self).toFixed(2),
    children: +(now.children - start.children).toFixed(2),
    selfSys: +(now.selfSys - start.selfSys).toFixed(2),
    childrenSys: +(now.childrenSys - start.childrenSys).toFixed(2),
    wall: +((performance.now() - start.wall) / 1000).toFixed(2),
  };
  appendFileSync(log, `${JSON.stringify(row)}\n`);
});
