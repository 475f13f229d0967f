import { s, ToolError, type Envelope, type ToolAnnotations } from '../contract/index.js';
import type { GitAuth, GitProgress } from '../git/index.js';
import { defineTool, type ToolDefinition, type ToolRunContext } from '../tools/schema/define.js';
import type { Workspace } from '../workspace-core.js';

/** The names of the git tools, reserved from manifests. */
export const GIT_TOOL_NAMES = ['git_clone', 'git_push', 'git_pull'] as const;

// They talk to a git server (open world); a clone needs an empty workspace, so only push and pull replace what is there.
const CLONES: ToolAnnotations = { readOnly: false, destructive: false, idempotent: false, openWorld: true };
const TRANSFERS: ToolAnnotations = { readOnly: false, destructive: true, idempotent: false, openWorld: true };
const offeredBy = ['canonical'] as const;

const remoteUrl = s.string({
  description: 'The http(s) URL of the repository (default: the one the workspace was cloned from or last pushed to).',
});
const branch = s.string({ description: 'The remote branch (default: the one the workspace was cloned from).' });

/**
 * A git progress listener that turns isomorphic-git's phases (each counting from 0 again) into
 * one rising count for the call's progress, each report naming its phase.
 */
export function gitProgress(ctx: ToolRunContext): (event: GitProgress) => void {
  let phase = '';
  let before = 0;
  let furthest = 0;
  return (event) => {
    if (event.phase !== phase) {
      before += furthest;
      furthest = 0;
      phase = event.phase;
    }
    furthest = Math.max(furthest, event.loaded, event.total > 0 && event.loaded >= event.total ? event.total : 0);
    const count = event.total > 0 ? `${event.loaded}/${event.total}` : String(event.loaded);
    ctx.progress(before + event.loaded, undefined, `${event.phase}: ${count}`);
  };
}

/** A git verb's envelope as a tool's result: the result, or its error thrown as the tool's. */
function resultOf<R>(envelope: Envelope<R>): R {
  if (envelope.ok) return envelope.result;
  const { code, message, hint, problems, ...details } = envelope.error;
  throw new ToolError(code, message, {
    ...(hint ? { hint } : {}),
    ...(problems ? { problems } : {}),
    ...(Object.keys(details).length ? { details } : {}),
  });
}

/**
 * git_clone, git_push and git_pull as tools, over the workspace `workspace()` gives once the tools
 * are attached: the workspace's own git verbs (src/git), with the host's credentials (a model
 * never sees or passes a token) and their phases as the call's progress. Offered only when a host
 * asks for them, since they reach past the workspace to a git server.
 */
export function gitTools(workspace: () => Workspace | null, auth?: GitAuth): ToolDefinition[] {
  const git = () => {
    const ws = workspace();
    if (!ws) throw new ToolError('NOT_SUPPORTED', 'the git tools are not attached to a workspace');
    return ws.git;
  };
  const credentials = auth ? { auth } : {};
  return [
    defineTool({
      name: 'git_clone',
      title: 'Clone repository',
      description:
        'Clone a git repository over http(s) into this workspace, which must be empty: its files become the workspace and its newest snapshot.',
      // The clone takes the snapshot store's own lock; the workspace's per-call snapshot has nothing to add.
      mutates: false,
      annotations: CLONES,
      toolsets: offeredBy,
      schema: s.object({
        url: s.string({ description: 'The http(s) URL of the repository.' }),
        ref: s.optional(s.string({ description: "A branch or tag (default: the remote's default branch)." })),
        depth: s.optional(
          s.integer({ minimum: 1, description: 'Fetch only this many commits of history (1: the newest only).' }),
        ),
      }),
      resultSchema: s.object({
        url: s.string(),
        ref: s.string(),
        commit: s.string(),
        files: s.integer(),
        shallow: s.boolean(),
        skipped: s.array(s.string(), { description: 'Paths in the repository that were not written.' }),
      }),
      run: async (args, ctx) => resultOf(await git().clone({ ...args, ...credentials, onProgress: gitProgress(ctx) })),
    }),
    defineTool({
      name: 'git_push',
      title: 'Push snapshots',
      description:
        "Push the workspace's snapshot history (or, with squash, one commit of the current files) to a remote branch. " +
        'A fast-forward or nothing: a branch that moved on is STALE_FILE; pull first.',
      mutates: false,
      annotations: TRANSFERS,
      toolsets: offeredBy,
      schema: s.object({
        url: s.optional(remoteUrl),
        branch: s.optional(branch),
        squash: s.optional(
          s.boolean({ description: 'Push one commit holding the current files instead of every snapshot.' }),
        ),
        message: s.optional(s.string({ description: "The squashed commit's message." })),
      }),
      resultSchema: s.object({ url: s.string(), branch: s.string(), commit: s.string(), squashed: s.boolean() }),
      run: async (args, ctx) => resultOf(await git().push({ ...args, ...credentials, onProgress: gitProgress(ctx) })),
    }),
    defineTool({
      name: 'git_pull',
      title: 'Pull changes',
      description:
        "Bring a remote branch's new commits into the workspace when no file collides; otherwise PATCH_CONFLICT lists the paths and nothing changes.",
      mutates: false,
      annotations: TRANSFERS,
      toolsets: offeredBy,
      schema: s.object({ url: s.optional(remoteUrl), branch: s.optional(branch) }),
      resultSchema: s.object({
        url: s.string(),
        branch: s.string(),
        status: s.enum(['up_to_date', 'fast_forward', 'merged']),
        commit: s.string(),
        files: s.array(s.string(), { description: 'Files the pull wrote or deleted.' }),
      }),
      run: async (args, ctx) => resultOf(await git().pull({ ...args, ...credentials, onProgress: gitProgress(ctx) })),
    }),
  ];
}
