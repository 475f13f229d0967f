import { mkdirSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { GitAuth, GitProgress } from '../../git/index.js';
import type { Envelope } from '../../workspace-core.js';
import { parseVerbArgs, UsageError } from './args.js';
import { openNodeWorkspace } from '../open.js';
import { cliSecret } from '../process/sandbox-relaunch.js';

type Verb = 'clone' | 'push' | 'pull';

const OPTIONS = {
  clone: {
    ref: { type: 'string' },
    depth: { type: 'string' },
    'token-env': { type: 'string' },
    'cors-proxy': { type: 'string' },
    progress: { type: 'boolean' },
    pretty: { type: 'boolean' },
  },
  push: {
    root: { type: 'string' },
    remote: { type: 'string' },
    branch: { type: 'string' },
    squash: { type: 'boolean' },
    message: { type: 'string' },
    'token-env': { type: 'string' },
    progress: { type: 'boolean' },
    pretty: { type: 'boolean' },
  },
  pull: {
    root: { type: 'string' },
    remote: { type: 'string' },
    branch: { type: 'string' },
    'token-env': { type: 'string' },
    progress: { type: 'boolean' },
    pretty: { type: 'boolean' },
  },
} as const;

/**
 * `sandpit clone URL DIR`, `sandpit push --root DIR --remote URL --branch B`, `sandpit pull ...`:
 * the envelope goes to stdout as one JSON line; exit 0 when it is ok, 1 when not, 2 on a usage
 * error. The token is read from an environment variable (SANDPIT_GIT_TOKEN, or the one
 * --token-env names), never from the command line, where other users' `ps` would see it.
 */
export async function gitCommand(verb: Verb, argv: string[]): Promise<number> {
  const parsed = parseVerbArgs(verb, argv, OPTIONS[verb]);
  const values = parsed.values as Record<string, string | boolean | undefined>;
  const str = (name: string) => (typeof values[name] === 'string' ? (values[name] as string) : undefined);
  const envName = str('token-env') ?? 'SANDPIT_GIT_TOKEN';
  const token = cliSecret(envName);
  const auth: GitAuth | undefined = token ? () => ({ token }) : undefined;
  const onProgress = values.progress ? progressLine : undefined;

  let envelope: Envelope;
  if (verb === 'clone') {
    if (parsed.positionals.length !== 2) throw new UsageError('clone takes URL and DIR');
    const [url, dir] = parsed.positionals as [string, string];
    const depth = str('depth') === undefined ? undefined : Number(str('depth'));
    const root = resolve(dir);
    mkdirSync(root, { recursive: true });
    if (readdirSync(root).length > 0) throw new UsageError(`clone: ${dir} is not empty`);
    const ws = openNodeWorkspace(root);
    envelope = await ws.git.clone({ url, ref: str('ref'), depth, auth, corsProxy: str('cors-proxy'), onProgress });
    await ws.close();
  } else {
    if (parsed.positionals.length > 0)
      throw new UsageError(`${verb} takes no positional arguments, only --root DIR [--remote URL] [--branch B]`);
    const dir = str('root');
    if (!dir) throw new UsageError(`${verb} needs --root DIR`);
    const ws = openNodeWorkspace(resolve(dir));
    const remote = { url: str('remote'), branch: str('branch'), auth, onProgress };
    envelope =
      verb === 'push'
        ? await ws.git.push({ ...remote, squash: Boolean(values.squash), message: str('message') })
        : await ws.git.pull(remote);
    await ws.close();
  }
  process.stdout.write(`${JSON.stringify(envelope, null, values.pretty ? 2 : undefined)}\n`);
  return envelope.ok ? 0 : 1;
}

let lastPhase = '';
function progressLine(event: GitProgress): void {
  const done = event.total > 0 ? `${event.loaded}/${event.total}` : String(event.loaded);
  process.stderr.write(`${event.phase === lastPhase ? '\r' : lastPhase ? '\n' : ''}${event.phase}: ${done}`);
  lastPhase = event.phase;
}
