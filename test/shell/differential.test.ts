import { spawnSync } from 'node:child_process';
import { lstatSync, mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemoryFs } from '../../src/fs/memory.js';
import type { WorkspaceFs } from '../../src/fs/types.js';
import { runShell } from '../../src/shell/run.js';
import { ChangeLog } from '../../src/workspace/change-log.js';
import { FileWriter } from '../../src/workspace/file-writer.js';
import { PathLocks } from '../../src/workspace/locks.js';
import { PathResolver } from '../../src/workspace/paths.js';
import { AGENT_LINES, LOUD_LINES } from './differential-agent-lines.js';
import { ARCHIVE_LINES, ARCHIVE_LOUD_LINES } from './differential-archive-lines.js';
import { FIXTURE, JQ_LINES, KNOWN_DIFFERENCES, LINES } from './differential-lines.js';
import { TOOL_LINES } from './differential-tool-lines.js';
import { leanSpawnSync } from '../support/lean-spawn.js';

const ALL_LINES = [...LINES, ...AGENT_LINES, ...TOOL_LINES, ...ARCHIVE_LINES];

const base = mkdtempSync(join(tmpdir(), 'sandpit-shell-diff-'));
// Hundreds of small trees: removing them can take longer than a hook's default on a busy machine.
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** Every file below a host folder, as path -> text (folders as path/ -> ''). */
function hostTree(dir: string, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name);
    const rel = prefix + name;
    if (statSync(full).isDirectory()) {
      out[`${rel}/`] = '';
      Object.assign(out, hostTree(full, `${rel}/`));
    } else out[rel] = readFileSync(full, 'utf8');
  }
  return out;
}

async function memoryTree(fs: WorkspaceFs, dir = '/', prefix = ''): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const name of (await fs.readdir(dir)).sort()) {
    if (prefix === '' && name === '.sandpit') continue;
    const full = dir === '/' ? `/${name}` : `${dir}/${name}`;
    const rel = prefix + name;
    if ((await fs.lstat(full)).type === 'dir') {
      out[`${rel}/`] = '';
      Object.assign(out, await memoryTree(fs, full, `${rel}/`));
    } else out[rel] = new TextDecoder().decode(await fs.readFile(full));
  }
  return out;
}

/**
 * Every entry below a host folder (the folder included) with its mode, size, times in nanoseconds,
 * links and inode: any change a line can make to a tree changes this text, a read leaves it alone.
 */
function hostState(dir: string, rel = '.'): string {
  const st = lstatSync(dir, { bigint: true });
  let out = `${rel} ${st.mode} ${st.size} ${st.mtimeNs} ${st.ctimeNs} ${st.nlink} ${st.ino}\n`;
  if (st.isDirectory()) for (const name of readdirSync(dir).sort()) out += hostState(join(dir, name), `${rel}/${name}`);
  return out;
}

/**
 * The tree the last line left exactly as it was made, handed to the next line: it is then the same
 * tree in bytes, modes and times as a fresh one, and most lines only read. Making a fresh tree per
 * line (some 20 files and folders, 632 times) and removing them all was most of this file's CPU.
 */
let untouched: { dir: string; state: string } | undefined;

function freshTree(name: string): { dir: string; state: string } {
  const dir = join(base, name);
  for (const [path, text] of Object.entries(FIXTURE)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return { dir, state: hostState(dir) };
}

/**
 * A line's limit, in bash and in the shell alike, only to end a hang: no line is about time
 * (`timeout N` lines carry their own), and at load 11-18 a 10 s limit killed lines that were right.
 */
const LINE_HANG_GUARD_MS = 300_000;

function bash(line: string, name: string) {
  // A kept tree is older than a fresh one: a line that asks about times gets a fresh one.
  const asksTimes = /-(?:[amc](?:min|time)|newer)\b/.test(line);
  const tree = untouched && !asksTimes ? untouched : freshTree(name);
  if (tree === untouched) untouched = undefined;
  // started from a small process, not this worker: a fork from a big worker costs more than bash
  const run = leanSpawnSync('/bin/bash', ['-c', line], {
    cwd: tree.dir,
    timeout: LINE_HANG_GUARD_MS,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C', HOME: '/' },
  });
  const files = hostTree(tree.dir);
  if (hostState(tree.dir) === tree.state) untouched = tree;
  return { stdout: run.stdout.toString('utf8'), stderr: run.stderr.toString('utf8'), exit: run.status ?? -1, files };
}

async function shell(line: string) {
  const fs = createMemoryFs(Object.fromEntries(Object.entries(FIXTURE).map(([p, t]) => [`/${p}`, t])));
  const writer = new FileWriter(fs, new PathResolver(fs, '/'), new PathLocks(), new ChangeLog(), null);
  const r = await runShell({
    fs,
    root: '/',
    command: line,
    cwd: '.',
    env: { LC_ALL: 'C' },
    timeoutMs: LINE_HANG_GUARD_MS,
    apply: (steps) => writer.apply(steps, { allOrNothing: false }),
  });
  return { stdout: r.stdout, stderr: r.stderr, exit: r.exit_code, files: await memoryTree(fs) };
}

const hasJq = spawnSync('/bin/sh', ['-c', 'command -v jq'], { encoding: 'utf8' }).status === 0;

describe('the browser shell against /bin/bash with the real tools', () => {
  it('has at least 600 command lines, none twice', () => {
    expect(ALL_LINES.length).toBeGreaterThanOrEqual(600);
    expect(new Set(ALL_LINES).size).toBe(ALL_LINES.length);
  });

  // Generous limits: one bash process per line, on a machine that may be busy.
  it('agrees on stdout, exit code and the resulting files, line by line', async () => {
    expect(await mismatchesOf(LINES, 'line')).toEqual([]);
  });

  it('agrees on the lines agents type, line by line', async () => {
    expect(await mismatchesOf(AGENT_LINES, 'agent')).toEqual([]);
  });

  it('agrees on the tools agents reach for (find actions, rg, coreutils, sed and sort), line by line', async () => {
    expect(await mismatchesOf(TOOL_LINES, 'tool')).toEqual([]);
  });

  it("agrees on archives (tar, gzip, zcat) and the file commands' last options, line by line", async () => {
    expect(await mismatchesOf(ARCHIVE_LINES, 'archive')).toEqual([]);
  });

  it('fails loudly on what it does not support: a message on stderr, and a non-zero exit outside a pipeline', async () => {
    const quiet: string[] = [];
    for (const line of [...LOUD_LINES, ...ARCHIVE_LOUD_LINES]) {
      const got = await shell(line);
      if (got.stderr === '' || (!line.includes('|') && got.exit === 0))
        quiet.push(`${JSON.stringify(line)}: exit ${got.exit}, stderr ${JSON.stringify(got.stderr)}`);
    }
    expect(quiet).toEqual([]);
  });

  // Only where a real jq is installed; test/shell/jq.test.ts checks the subset without one.
  it.runIf(hasJq)('agrees with the real jq on its subset', async () => {
    expect(await mismatchesOf(JQ_LINES, 'jq')).toEqual([]);
  });
});

async function mismatchesOf(lines: string[], folder: string): Promise<string[]> {
  const mismatches: string[] = [];
  for (const [n, line] of lines.entries()) {
    const want = bash(line, `${folder}-${n}`);
    let got: Awaited<ReturnType<typeof shell>>;
    try {
      got = await shell(line);
    } catch (error) {
      // a throw names its line, so one bad line does not hide the others
      mismatches.push(`${JSON.stringify(line)}: threw ${String(error)}`);
      continue;
    }
    const known = line in KNOWN_DIFFERENCES;
    const problems: string[] = [];
    if (got.exit !== want.exit) problems.push(`exit ${got.exit} != ${want.exit}`);
    if (!known && got.stdout !== want.stdout)
      problems.push(`stdout ${JSON.stringify(got.stdout)} != ${JSON.stringify(want.stdout)}`);
    if (!known && JSON.stringify(got.files) !== JSON.stringify(want.files)) problems.push('files differ');
    // stderr matters where a command fails: both must say something, or both nothing.
    if ((got.stderr === '') !== (want.stderr === ''))
      problems.push(`stderr ${JSON.stringify(got.stderr)} vs ${JSON.stringify(want.stderr)}`);
    if (problems.length) mismatches.push(`${JSON.stringify(line)}: ${problems.join('; ')}`);
  }
  return mismatches;
}
