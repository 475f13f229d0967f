import { resolve } from 'node:path';
import type { HunkStatus } from '../../review-hooks.js';
import type { Envelope } from '../../workspace-core.js';
import { parseVerbArgs, UsageError } from './args.js';
import { openNodeWorkspace } from '../open.js';

const OPTIONS = {
  root: { type: 'string' },
  change: { type: 'string' },
  path: { type: 'string' },
  status: { type: 'string' },
  accept: { type: 'string', multiple: true },
  reject: { type: 'string', multiple: true },
  reason: { type: 'string' },
  actor: { type: 'string' },
  pretty: { type: 'boolean' },
} as const;

const STATUSES: readonly string[] = ['pending', 'accepted', 'rejected'];
const ids = (values: string[] | undefined) =>
  (values ?? [])
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');

/**
 * `sandpit review --root DIR [--change ID] [--path P] [--status S]`: the hunks of the changes the
 * folder's persisted change log keeps (written by any process: an MCP server, an agent run);
 * `--accept ID[,ID]` marks hunks accepted; `--reject ID[,ID] --reason TEXT` reverts them as a new
 * change and keeps the reason for the next agent run. `sandpit blame --root DIR PATH`: who last
 * wrote each line. Each prints its envelope; exit 0 when ok, 1 when not.
 */
export async function reviewCommand(verb: 'review' | 'blame', argv: string[]): Promise<number> {
  const parsed = parseVerbArgs(verb, argv, OPTIONS);
  const { values, positionals } = parsed;
  if (!values.root) throw new UsageError(`${verb} needs --root DIR`);
  const accepting = ids(values.accept);
  const rejecting = ids(values.reject);
  if (verb === 'blame') {
    if (positionals.length !== 1) throw new UsageError('blame takes one PATH');
    const other = (['change', 'status', 'accept', 'reject', 'reason', 'actor'] as const).find((k) => k in values);
    if (other) throw new UsageError(`blame does not take --${other}`);
  } else {
    if (positionals.length !== 0)
      throw new UsageError('review takes no positional arguments (hunk ids go after --accept or --reject)');
    if (values.accept && values.reject) throw new UsageError('review takes --accept or --reject, not both');
    if (values.reject && values.reason === undefined)
      throw new UsageError('--reject needs --reason TEXT (the agent reads it; --reason "" gives none)');
    if (!values.reject && (values.reason !== undefined || values.actor !== undefined))
      throw new UsageError('--reason and --actor go with --reject');
    if (values.status !== undefined && !STATUSES.includes(values.status))
      throw new UsageError(`--status takes ${STATUSES.join(', ')}`);
    if ((values.accept || values.reject) && (values.change || values.path || values.status))
      throw new UsageError('--change, --path and --status filter the list; they do not go with --accept or --reject');
    if ((values.accept && accepting.length === 0) || (values.reject && rejecting.length === 0))
      throw new UsageError('--accept and --reject take hunk ids (hk_...), comma-separated or repeated');
  }
  const ws = openNodeWorkspace(resolve(values.root));
  let envelope: Envelope;
  try {
    if (verb === 'blame') envelope = await ws.blame(positionals[0]!);
    else if (values.accept) envelope = await ws.review.accept(accepting);
    else if (values.reject)
      envelope = await ws.review.reject(rejecting, values.reason!, values.actor ? { actor: values.actor } : {});
    else
      envelope = await ws.review.hunks({
        ...(values.change ? { change_id: values.change } : {}),
        ...(values.path ? { path: values.path } : {}),
        ...(values.status ? { status: values.status as HunkStatus } : {}),
      });
  } finally {
    await ws.close();
  }
  process.stdout.write(`${JSON.stringify(envelope, null, values.pretty ? 2 : undefined)}\n`);
  return envelope.ok ? 0 : 1;
}
