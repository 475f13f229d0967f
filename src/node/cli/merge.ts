import { resolve } from 'node:path';
import type { Envelope } from '../../workspace-core.js';
import { parseVerbArgs, UsageError } from './args.js';
import { openNodeWorkspace } from '../open.js';

const OPTIONS = {
  root: { type: 'string' },
  'dry-run': { type: 'boolean' },
  list: { type: 'boolean' },
  drop: { type: 'boolean' },
  pretty: { type: 'boolean' },
} as const;

/**
 * `sandpit merge --root DIR FORK [--dry-run]`: merge a fork of the folder's workspace back into
 * it (merge_workspace's envelope on stdout, exit 0 when ok, 1 on a conflict or error);
 * `--list` lists the forks, `--drop FORK` drops one. `sandpit fork --root DIR NAME` makes a fork.
 */
export async function mergeCommand(verb: 'merge' | 'fork', argv: string[]): Promise<number> {
  const parsed = parseVerbArgs(verb, argv, OPTIONS);
  const { values, positionals } = parsed;
  if (!values.root) throw new UsageError(`${verb} needs --root DIR`);
  const listing = verb === 'merge' && values.list === true;
  if (listing ? positionals.length !== 0 : positionals.length !== 1)
    throw new UsageError(verb === 'fork' ? 'fork takes one NAME' : 'merge takes one FORK (or --list)');
  const ws = openNodeWorkspace(resolve(values.root));
  let envelope: Envelope;
  try {
    const name = positionals[0]!;
    if (listing) envelope = { ok: true, tool: 'list_forks', result: { forks: await ws.forks() } };
    else if (verb === 'fork') {
      const fork = await ws.fork({ name }).then(
        (f) => f,
        (error: unknown) => error as { toJSON?: () => unknown },
      );
      envelope =
        'forkInfo' in fork
          ? { ok: true, tool: 'fork', result: { ...fork.forkInfo } }
          : ({ ok: false, tool: 'fork', error: fork.toJSON?.() } as Envelope);
    } else if (values.drop) envelope = await ws.dropFork(name);
    else envelope = await ws.merge(name, { dryRun: values['dry-run'] === true });
  } finally {
    await ws.close();
  }
  process.stdout.write(`${JSON.stringify(envelope, null, values.pretty ? 2 : undefined)}\n`);
  return envelope.ok ? 0 : 1;
}
