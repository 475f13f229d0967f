import { TimeoutSignal, UsageError, type CommandFn } from '../context.js';
import type { ShellFs } from '../overlay.js';
import { resolve } from './util.js';

/** A script to run: the workspace's files go with it, since a worker cannot read them back synchronously. */
export interface ScriptJob {
  /** `node`'s arguments: `-e CODE ...` or `FILE ...` (FILE as a shell path) */
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  stdin: string;
  /** every file of the workspace the job may read, by shell path (`/src/a.js`) */
  files: Array<[string, Uint8Array]>;
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
export type ScriptHost = (job: ScriptJob) => Promise<ScriptOutcome>;

/** Folders a script does not get (vendored packages are too many to copy; the history is not the script's). */
const SKIPPED = new Set(['node_modules', '.git']);
const MAX_FILES = 5000;
const MAX_BYTES = 32 * 1024 * 1024;

async function collect(fs: ShellFs): Promise<Array<[string, Uint8Array]>> {
  const out: Array<[string, Uint8Array]> = [];
  let bytes = 0;
  const walk = async (dir: string): Promise<void> => {
    for (const name of await fs.readdir(dir)) {
      if (SKIPPED.has(name) || out.length >= MAX_FILES) continue;
      const path = dir === '/' ? `/${name}` : `${dir}/${name}`;
      const st = await fs.stat(path).catch(() => null);
      if (st?.type === 'dir') await walk(path);
      else if (st && bytes + st.size <= MAX_BYTES) { out.push([path, await fs.readFile(path)]); bytes += st.size; }
    }
  };
  await walk('/');
  return out;
}

async function ensureParents(fs: ShellFs, path: string): Promise<void> {
  let sofar = '';
  for (const part of path.split('/').filter(Boolean).slice(0, -1)) {
    sofar += `/${part}`;
    if (!(await fs.stat(sofar))) await fs.mkdir(sofar);
  }
}

/** `node FILE.js` / `node -e CODE` over a script host; its writes land in the shell's overlay as one batch. */
export function createNodeCommand(host: ScriptHost): CommandFn {
  return async (ctx) => {
    if (ctx.args[0] === '-v' || ctx.args[0] === '--version') { ctx.out('v20.0.0-sandpit\n'); return 0; }
    if (ctx.args.length === 0) throw new UsageError('give a script: node FILE.js [args] or node -e CODE (there is no interactive mode)', 9);
    const s = ctx.shell.state;
    const argv = ctx.args[0] === '-e' || ctx.args[0] === '-p' ? ctx.args : [resolve(ctx, ctx.args[0]!), ...ctx.args.slice(1)];
    const remaining = s.deadline === Infinity ? 2 ** 31 - 1 : Math.max(1, s.deadline - Date.now());
    const outcome = await host({ argv, cwd: s.cwd, env: Object.fromEntries(ctx.env), stdin: ctx.stdin, files: await collect(s.fs), timeoutMs: remaining });
    ctx.out(outcome.stdout);
    ctx.err(outcome.stderr);
    if (outcome.timedOut) throw new TimeoutSignal();
    for (const [path, data] of outcome.writes) {
      if (path.split('/')[1] === '.sandpit') continue;
      if (data === null) { if (await s.fs.stat(path)) await s.fs.remove(path); continue; }
      await ensureParents(s.fs, path);
      await s.fs.writeFile(path, data);
    }
    return outcome.exitCode;
  };
}

/** The `node` a host without script workers has: says so, with the exit status of a missing program. */
export const nodeUnavailable: CommandFn = async (ctx) => {
  ctx.err('node: not available here: scripts run in a Web Worker, which only a browser host provides\n');
  return 127;
};
