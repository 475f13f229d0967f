import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
  closeSync,
  constants,
  existsSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * spawnSync and execFileSync for tests that start hundreds of short children (bash, git): the
 * children are started by a small Node process (lean-spawn-driver.mjs) instead of the test worker.
 * A fork copies the page tables of the process that forks, and a vitest worker that has run other
 * files holds hundreds of MB, much of it malloc's in 4 KiB pages: about 5 ms of system time per
 * spawn at 150 MB of Buffers against 0.5 ms from a fresh Node (docs/development.md). The child is
 * the same program with the same arguments, folder, environment, input and limits; only its parent
 * differs. The worker waits for each answer, as spawnSync does.
 */
export interface LeanOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  input?: string | Uint8Array;
  timeout?: number;
  maxBuffer?: number;
}

export interface LeanRun {
  status: number | null;
  signal: NodeJS.Signals | null;
  pid: number;
  stdout: Buffer;
  stderr: Buffer;
  /** as spawnSync gives it: the child could not start, or a limit ended it (ETIMEDOUT, ENOBUFS) */
  error?: Error & { code?: string };
}

// Not fileURLToPath: the browser project's global set-up imports this through its aliases, where
// `node:url` is the browser build's shim.
const DRIVER = decodeURIComponent(new URL('./lean-spawn-driver.mjs', import.meta.url).pathname);

interface Driver {
  child: ChildProcess;
  requests: number;
  answers: number;
}

// One driver per worker, shared by the files it runs (isolate: false); it ends with the worker.
let driver: Driver | null = null;

function started(): Driver {
  if (driver) return driver;
  if (!existsSync(DRIVER)) throw new Error(`the spawn driver is not at ${DRIVER}`);
  const dir = mkdtempSync(join(tmpdir(), 'sandpit-lean-spawn-'));
  try {
    const requests = join(dir, 'requests');
    const answers = join(dir, 'answers');
    execFileSync('mkfifo', ['-m', '600', requests, answers]);
    const child = spawn(process.execPath, [DRIVER, requests, answers], { stdio: ['ignore', 'ignore', 'inherit'] });
    if (child.pid === undefined) throw new Error('the spawn driver did not start');
    child.on('error', () => {});
    // it must not keep the worker alive: it ends when the worker's ends of the FIFOs close
    child.unref();
    // opened in the driver's order; the first without waiting, so a driver that died is noticed
    const req = openWhileAlive(requests, child.pid);
    const ans = openSync(answers, 'r');
    driver = { child, requests: req, answers: ans };
    return driver;
  } finally {
    // both sides hold the FIFOs open: their names are no longer needed
    rmSync(dir, { recursive: true, force: true });
  }
}

const pause = new Int32Array(new SharedArrayBuffer(4));

/** Open the FIFO `path` for writing once the driver has opened it for reading; throw if it ended first. */
function openWhileAlive(path: string, pid: number): number {
  for (;;) {
    try {
      return openSync(path, constants.O_WRONLY | constants.O_NONBLOCK);
    } catch (error) {
      // ENXIO: no reader yet
      if ((error as NodeJS.ErrnoException).code !== 'ENXIO') throw error;
    }
    if (!alive(pid)) throw new Error('the spawn driver ended before it opened its FIFOs');
    Atomics.wait(pause, 0, 0, 2);
  }
}

/** Whether a child is running (not gone, not a zombie waiting to be reaped). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat[stat.lastIndexOf(')') + 2] !== 'Z';
  } catch {
    return false;
  }
}

/** Write all of `data` to the request FIFO, which is non-blocking: a full pipe is waited out. */
function writeAll(fd: number, data: Buffer): void {
  let at = 0;
  while (at < data.length) {
    try {
      at += writeSync(fd, data, at);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      Atomics.wait(pause, 0, 0, 1);
    }
  }
}

function readExactly(fd: number, length: number): Buffer {
  const buffer = Buffer.allocUnsafe(length);
  let got = 0;
  while (got < length) {
    const read = readSync(fd, buffer, got, length - got, null);
    if (read === 0) throw new Error('the spawn driver ended before it answered');
    got += read;
  }
  return buffer;
}

/** spawnSync(file, args, options), its output as Buffers, run from the driver. */
export function leanSpawnSync(file: string, args: string[], options: LeanOptions = {}): LeanRun {
  const d = started();
  const { input, ...rest } = options;
  const request = Buffer.from(
    JSON.stringify({
      file,
      args,
      // what spawnSync in this process would have used where the caller gave nothing
      options: { ...rest, cwd: rest.cwd ?? process.cwd(), env: rest.env ?? process.env },
      input: input === undefined ? undefined : Buffer.from(input).toString('base64'),
    }),
  );
  const head = Buffer.alloc(4);
  head.writeUInt32LE(request.length, 0);
  writeAll(d.requests, Buffer.concat([head, request]));
  const lengths = readExactly(d.answers, 12);
  const meta = JSON.parse(readExactly(d.answers, lengths.readUInt32LE(0)).toString('utf8')) as {
    status: number | null;
    signal: NodeJS.Signals | null;
    pid: number;
    error?: { message: string; code?: string };
  };
  const stdout = readExactly(d.answers, lengths.readUInt32LE(4));
  const stderr = readExactly(d.answers, lengths.readUInt32LE(8));
  const error = meta.error ? Object.assign(new Error(meta.error.message), { code: meta.error.code }) : undefined;
  return { status: meta.status, signal: meta.signal, pid: meta.pid, stdout, stderr, ...(error ? { error } : {}) };
}

/**
 * execFileSync(file, args, options) from the driver: the output (text with an encoding), the
 * child's stderr passed on to this process's, and a throw like execFileSync's when it fails.
 */
export function leanExecFileSync(file: string, args: string[], options?: LeanOptions): Buffer;
export function leanExecFileSync(file: string, args: string[], options: LeanOptions & { encoding: 'utf8' }): string;
export function leanExecFileSync(
  file: string,
  args: string[],
  options: LeanOptions & { encoding?: 'utf8' } = {},
): Buffer | string {
  const { encoding, ...rest } = options;
  const run = leanSpawnSync(file, args, rest);
  if (run.stderr.length > 0) process.stderr.write(run.stderr);
  const out = (b: Buffer) => (encoding ? b.toString(encoding) : b);
  if (run.error || run.status !== 0) {
    const stderr = run.stderr.toString();
    const failure =
      run.error ?? new Error(`Command failed: ${[file, ...args].join(' ')}${stderr ? `\n${stderr}` : ''}`);
    throw Object.assign(failure, {
      status: run.status,
      signal: run.signal,
      pid: run.pid,
      stdout: out(run.stdout),
      stderr: out(run.stderr),
    });
  }
  return out(run.stdout);
}

/**
 * End the driver and wait until it is reaped, so the CPU of the children it started counts as
 * this process's children's (the CPU log calls this at the end of each file).
 */
export async function stopLeanSpawns(): Promise<void> {
  const d = driver;
  if (!d) return;
  driver = null;
  const exited =
    d.child.exitCode !== null || d.child.signalCode !== null
      ? Promise.resolve()
      : new Promise<void>((resolve) => d.child.once('exit', () => resolve()));
  d.child.ref();
  closeSync(d.requests);
  closeSync(d.answers);
  await exited;
}

(globalThis as { __sandpitStopLeanSpawns?: () => Promise<void> }).__sandpitStopLeanSpawns = stopLeanSpawns;
