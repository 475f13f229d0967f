import { TimeoutSignal, UsageError, type CommandFn } from '../../context.js';
import type { ShellFs } from '../../overlay.js';
import { resolve } from '../util.js';
import { collectScriptPackages } from './node-packages.js';

/** A script to run: the workspace's files go with it, since a worker cannot read them back synchronously. */
export interface ScriptJob {
  /** `node`'s arguments: `-e CODE ...` or `FILE ...` (FILE as a shell path) */
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  stdin: string;
  /** every file of the workspace the job may read, by shell path (`/src/a.js`) */
  files: Array<[string, Uint8Array]>;
  /** `${importer}\0${specifier}` → file, for the requires and imports that reach node_modules (its files are in `files`) */
  resolved?: Array<[string, string]>;
  timeoutMs: number;
}

export interface ScriptOutcome {
  exitCode: number;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** files the script wrote (bytes) or removed (null), by shell path; applied only when it did not time out */
  writes: Array<[string, Uint8Array | null]>;
}

/** Runs a script job somewhere (a Web Worker in the browser). */
/** Runs one script; aborting `stop` (a background task's kill) ends it as a timeout does, its writes dropped. */
export type ScriptHost = (job: ScriptJob, stop?: AbortSignal) => Promise<ScriptOutcome>;

/** Folders a script does not get (vendored packages are too many to copy; the history is not the script's). */
const SKIPPED = new Set(['node_modules', '.git']);

/** How much of the workspace a script's worker gets a copy of. */
export interface ScriptCopyLimits {
  /** files copied at most (default 5,000) */
  maxFiles?: number;
  /** bytes copied at most (default 32 MiB) */
  maxBytes?: number;
}

const DEFAULT_LIMITS: Required<ScriptCopyLimits> = { maxFiles: 5000, maxBytes: 32 * 1024 * 1024 };

interface Collected {
  files: Array<[string, Uint8Array]>;
  leftOut: number;
}

/** The files a script gets, and how many did not fit: those are counted, not read. */
async function collect(fs: ShellFs, limits: Required<ScriptCopyLimits>): Promise<Collected> {
  const files: Array<[string, Uint8Array]> = [];
  let bytes = 0;
  let leftOut = 0;
  const walk = async (dir: string): Promise<void> => {
    for (const name of await fs.readdir(dir)) {
      if (SKIPPED.has(name)) continue;
      const path = dir === '/' ? `/${name}` : `${dir}/${name}`;
      const st = await fs.stat(path).catch(() => null);
      if (st?.type === 'dir') await walk(path);
      else if (!st) continue;
      else if (files.length < limits.maxFiles && bytes + st.size <= limits.maxBytes) {
        files.push([path, await fs.readFile(path)]);
        bytes += st.size;
      } else leftOut++;
    }
  };
  await walk('/');
  return { files, leftOut };
}

function sizeOf(bytes: number): string {
  const [unit, scale] = bytes >= 1024 * 1024 ? ['MiB', 1024 * 1024] : bytes >= 1024 ? ['KiB', 1024] : ['bytes', 1];
  return `${Math.round((bytes / scale) * 10) / 10} ${unit}`;
}

/** The stderr line a capped copy gets: a script that cannot find a file should not leave its reader guessing why. */
function leftOutLine(leftOut: number, limits: Required<ScriptCopyLimits>): string {
  const files = leftOut === 1 ? '1 file was' : `${leftOut} files were`;
  return `node: ${files} left out of the script's copy of the workspace (it takes at most ${limits.maxFiles} files, ${sizeOf(limits.maxBytes)}); the script does not see them\n`;
}

async function ensureParents(fs: ShellFs, path: string): Promise<void> {
  let sofar = '';
  for (const part of path.split('/').filter(Boolean).slice(0, -1)) {
    sofar += `/${part}`;
    if (!(await fs.stat(sofar))) await fs.mkdir(sofar);
  }
}

/**
 * `node FILE.js` / `node -e CODE` over a script host; its writes land in the shell's overlay as one
 * batch. The script gets a copy of the workspace up to `limits`; a run that leaves files out says
 * so on stderr.
 */
export function createNodeCommand(host: ScriptHost, limits: ScriptCopyLimits = {}): CommandFn {
  const caps: Required<ScriptCopyLimits> = { ...DEFAULT_LIMITS, ...limits };
  return async (ctx) => {
    if (ctx.args[0] === '-v' || ctx.args[0] === '--version') {
      ctx.out('v20.0.0-sandpit\n');
      return 0;
    }
    if (ctx.args.length === 0)
      throw new UsageError('give a script: node FILE.js [args] or node -e CODE (there is no interactive mode)', 9);
    const s = ctx.shell.state;
    const argv =
      ctx.args[0] === '-e' || ctx.args[0] === '-p' ? ctx.args : [resolve(ctx, ctx.args[0]!), ...ctx.args.slice(1)];
    const { files, leftOut } = await collect(s.fs, caps);
    const copiedBytes = files.reduce((sum, [, bytes]) => sum + bytes.length, 0);
    const packages = await collectScriptPackages(
      s.fs,
      files,
      { ...(ctx.args[0] === '-e' || ctx.args[0] === '-p' ? { code: ctx.args[1] ?? '' } : {}), cwd: s.cwd },
      { maxFiles: caps.maxFiles - files.length, maxBytes: caps.maxBytes - copiedBytes },
    );
    files.push(...packages.files);
    if (leftOut + packages.leftOut > 0) ctx.err(leftOutLine(leftOut + packages.leftOut, caps));
    const remaining = s.deadline === Infinity ? 2 ** 31 - 1 : Math.max(1, s.deadline - Date.now());
    const outcome = await host(
      {
        argv,
        cwd: s.cwd,
        env: Object.fromEntries(ctx.env),
        stdin: ctx.stdin,
        files,
        resolved: packages.resolved,
        timeoutMs: remaining,
      },
      s.stop,
    );
    ctx.out(outcome.stdout);
    ctx.err(outcome.stderr);
    if (outcome.timedOut) throw new TimeoutSignal();
    for (const [path, data] of outcome.writes) {
      if (path.split('/')[1] === '.sandpit') continue;
      if (data === null) {
        if (await s.fs.stat(path)) await s.fs.remove(path);
        continue;
      }
      await ensureParents(s.fs, path);
      await s.fs.writeFile(path, data);
    }
    return outcome.exitCode;
  };
}
