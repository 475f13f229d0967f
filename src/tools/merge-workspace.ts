import { s, ToolError, type Infer } from '../contract/index.js';
import { hasFsCode } from '../fs/errors.js';
import { planMerge, type MergedFile } from '../patch/merge/merge-trees.js';
import { ForkHost, forkHostOf } from '../snapshots/fork/fork-host.js';
import { objectId } from '../snapshots/sha1.js';
import type { SnapshotStore } from '../snapshots/store.js';
import type { Leaf } from '../snapshots/tree.js';
import { TreeCache } from '../snapshots/tree.js';
import { carryAuthors } from '../workspace/blame/authors.js';
import { lineAuthorsOf, type LineAuthors } from '../workspace/blame/sources.js';
import { textOfBytes, type ChangedFile } from '../workspace/change-log.js';
import type { FileStep } from '../workspace/file-writer.js';
import { requireSnapshots } from './history/snapshot-support.js';
import { defineTool, DESTRUCTIVE, type ToolRunContext } from './schema/define.js';

const hunkShape = s.object({
  base_start_line: s.integer({ description: 'First line of the region in the fork point (1-based).' }),
  base_line_count: s.integer(),
  base: s.string({ description: 'The region as it was at the fork point.' }),
  ours: s.string({ description: 'The region in this workspace.' }),
  theirs: s.string({ description: 'The region in the fork.' }),
});

/**
 * Bring a fork's changes into this workspace: a three-way merge against the fork point (or the
 * last merge), all or nothing. For an orchestrating agent that runs workers in forks.
 */
export const mergeWorkspaceTool = defineTool({
  name: 'merge_workspace',
  title: 'Merge a fork',
  description:
    "Merge a fork's changes into this workspace, line by line against the point where it was forked (or last merged). " +
    'All or nothing: a clean merge is one change (undo takes it back); if any file conflicts nothing changes and ' +
    'PATCH_CONFLICT lists each path with both sides and the base. dry_run answers what would merge without changing anything.',
  mutates: true,
  annotations: DESTRUCTIVE,
  schema: s.object({
    fork: s.string({ minLength: 1, maxLength: 200, description: 'The fork, by its name (or id).' }),
    dry_run: s.optional(s.boolean({ description: 'Only say what would merge (default false).' })),
  }),
  resultSchema: s.object({
    fork: s.string(),
    dry_run: s.boolean(),
    clean: s.boolean({ description: 'False only in a dry run that found conflicts.' }),
    files: s.array(
      s.object({
        path: s.string(),
        action: s.enum(['added', 'modified', 'deleted', 'renamed']),
        from: s.optional(s.string()),
      }),
    ),
    conflicts: s.array(
      s.object({ path: s.string(), kind: s.string(), message: s.string(), hunks: s.optional(s.array(hunkShape)) }),
    ),
    change_id: s.nullable(s.string()),
  }),
  async run(args, ctx) {
    const store = requireSnapshots(ctx);
    const host = forkHostOf(store) ?? readOnlyHost(ctx, store);
    const info = await host.find(args.fork);
    const dryRun = args.dry_run === true;
    return ctx.lock([''], async () => {
      const theirs = await host.headOf(info);
      await store.commitPending({ message: 'Changes before a merge', tool: 'merge_workspace' });
      const ours = store.history.head!;
      const base = info.merged_at ?? info.forked_from;
      const answer = { fork: info.name, dry_run: dryRun, clean: true, files: [], conflicts: [], change_id: null };
      if (theirs === base) return answer;
      const read = (oid: string) => store.readBlob(oid);
      const current = new TreeCache(store.access, ours.tree);
      const trees = { base: await host.treeOf(base), ours: current, theirs: await host.treeOf(theirs) };
      const plan = await planMerge(store.access, trees, read);
      for (const file of plan.files) {
        if (await matchesSnapshot(ctx, current, file.path)) continue;
        plan.conflicts.push({
          path: file.path,
          kind: 'content',
          message: 'changed in the workspace since its last snapshot (outside the tools)',
        });
      }
      plan.conflicts.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
      const files = plan.files.map((f) => ({ path: f.path, action: f.action, ...(f.from ? { from: f.from } : {}) }));
      if (plan.conflicts.length > 0) {
        if (dryRun) return { ...answer, clean: false, files, conflicts: plan.conflicts };
        const n = plan.conflicts.length;
        throw new ToolError(
          'PATCH_CONFLICT',
          `merging fork '${info.name}' conflicts in ${n} file${n === 1 ? '' : 's'}; nothing was changed`,
          {
            hint: 'Resolve in the fork (make its files agree with this workspace there) and merge again, or merge the other way.',
            problems: plan.conflicts,
          },
        );
      }
      if (dryRun || plan.files.length === 0) return { ...answer, files };
      const { steps, logged } = await stepsOf(plan.files, current, read, await forkAuthors(host, info));
      // a fork that deleted a folder's last file leaves no empty folder here, as git merge does not
      const summary = await ctx.applySteps(steps, logged, { prune: true });
      await host.noteMerged(info, theirs);
      return { ...answer, files, change_id: summary?.id ?? null };
    });
  },
});

/** Without forks made in this process, a merge still finds them on the backend (one made by another process). */
function readOnlyHost(ctx: ToolRunContext, store: SnapshotStore) {
  return new ForkHost({ fs: ctx.fs, toAbs: (rel) => ctx.paths.toAbs(rel), store, settled: async () => {} }, () => {
    throw new ToolError('NOT_SUPPORTED', 'forks cannot be opened from a tool call');
  });
}

/**
 * How the fork answers who wrote its lines (its blame), so the merged lines keep the fork's
 * authors; none when the fork cannot be opened here (a tool call with no fork host).
 */
async function forkAuthors(
  host: { get(id: string): Promise<{ readonly snapshots: SnapshotStore | null }> },
  info: { id: string },
): Promise<{ fork: string; of: LineAuthors } | null> {
  try {
    const of = lineAuthorsOf((await host.get(info.id)).snapshots);
    return of ? { fork: info.id, of } : null;
  } catch {
    return null;
  }
}

/** Whether the workspace's file at `rel` is what its newest snapshot holds (absent when it holds none). */
async function matchesSnapshot(ctx: ToolRunContext, tree: TreeCache, rel: string): Promise<boolean> {
  const leaf = await tree.get(rel);
  const abs = ctx.paths.toAbs(rel);
  const stat = await ctx.fs.lstat(abs).catch((e) => (hasFsCode(e, 'ENOENT', 'ENOTDIR') ? null : Promise.reject(e)));
  if (!leaf || leaf.kind === 'tree') return stat === null || (leaf?.kind === 'tree' && stat.type === 'dir');
  if (!stat || stat.type === 'dir') return false;
  const bytes =
    stat.type === 'symlink' ? new TextEncoder().encode(await ctx.fs.readlink(abs)) : await ctx.fs.readFile(abs);
  return objectId('blob', bytes) === leaf.oid;
}

/** The write path's steps for a planned merge (removals first) and the change log's text of each file. */
async function stepsOf(
  files: MergedFile[],
  current: TreeCache,
  read: (oid: string) => Promise<Uint8Array>,
  authors: { fork: string; of: LineAuthors } | null,
): Promise<{ steps: FileStep[]; logged: ChangedFile[] }> {
  const steps: FileStep[] = [];
  const writes: FileStep[] = [];
  const logged: ChangedFile[] = [];
  for (const file of files) {
    const was = (await current.get(file.path)) as Leaf | undefined;
    const before = was?.kind === 'blob' ? textOfBytes(await read(was.oid)) : null;
    if (file.action === 'deleted') {
      steps.push({ kind: 'remove', rel: file.path });
      logged.push({ path: file.path, before, after: null });
      continue;
    }
    const bytes = file.bytes ?? (await read(file.oid!));
    const after = textOfBytes(bytes);
    const entry: ChangedFile = { path: file.path, before, after, ...(file.from ? { from: file.from } : {}) };
    if (authors && file.theirs && after !== undefined && file.mode !== '120000') {
      // the fork's lines keep who wrote them there: its blame of its side, carried to the merged text
      const theirs = file.oid === file.theirs.oid ? after : textOfBytes(await read(file.theirs.oid));
      const ranges = theirs === undefined ? [] : await authors.of(file.theirs.path, theirs).catch(() => []);
      const carried = theirs === undefined ? [] : carryAuthors(ranges, theirs, after, authors.fork);
      if (carried.length > 0) entry.authors = carried;
    }
    logged.push(entry);
    if (file.mode === '120000') writes.push({ kind: 'link', rel: file.path, target: new TextDecoder().decode(bytes) });
    else {
      const modeMatters = file.mode === '100755' || was?.mode === '100755';
      writes.push({
        kind: 'write',
        rel: file.path,
        bytes,
        ...(modeMatters ? { executable: file.mode === '100755' } : {}),
      });
    }
  }
  return { steps: [...steps, ...writes], logged };
}

/** What merge_workspace answers (and `ws.merge`). */
export type MergeWorkspaceResult = Infer<typeof mergeWorkspaceTool.resultSchema>;
