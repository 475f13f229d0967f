import { hasFsCode } from '../fs/errors.js';
import type { WorkspaceFs } from '../fs/types.js';
import { ToolError } from '../contract/index.js';

/** The shadow repository's one branch. */
export const BRANCH = 'refs/heads/main';

/**
 * A file in the gitdir while a new repository makes its first commit: a repository with it and no
 * branch was cut off before it had any history (a kill during the first open), not damaged.
 */
export const FIRST_OPEN_MARK = 'sandpit-first-open';

/**
 * Where the branch points: a commit, a repository never made (or whose first open was cut off
 * before its first commit, `cutFirstOpen`), or a ref that is gone or garbage.
 */
export type BranchState =
  | { kind: 'ok'; oid: string }
  | { kind: 'absent'; cutFirstOpen?: boolean }
  | { kind: 'damaged'; why: string };

/**
 * Read the branch from its file (or packed-refs), telling a repository never made (`absent`)
 * from one whose ref is gone or garbage (`damaged`): the second must never be taken for the
 * first, or a new history would start over the old one.
 */
export async function readBranch(fs: WorkspaceFs, gitdir: string): Promise<BranchState> {
  const text = await fs.readFile(`${gitdir}/${BRANCH}`).then(
    (b) => new TextDecoder().decode(b),
    (e) => (hasFsCode(e, 'ENOENT') || hasFsCode(e, 'ENOTDIR') ? null : Promise.reject(e)),
  );
  if (text !== null) {
    const m = /^([0-9a-f]{40})\n?$/.exec(text);
    return m
      ? { kind: 'ok', oid: m[1]! }
      : {
          kind: 'damaged',
          why: `the branch file refs/heads/main does not hold a commit id (${text.length === 0 ? 'it is empty' : `${text.length} bytes of something else`})`,
        };
  }
  const packed = await fs.readFile(`${gitdir}/packed-refs`).then(
    (b) => new TextDecoder().decode(b),
    () => '',
  );
  const hit = /^([0-9a-f]{40}) refs\/heads\/main$/m.exec(packed);
  if (hit) return { kind: 'ok', oid: hit[1]! };
  const made = await fs.stat(`${gitdir}/HEAD`).then(
    () => true,
    () => false,
  );
  if (!made) return { kind: 'absent' };
  const cut = await fs.stat(`${gitdir}/${FIRST_OPEN_MARK}`).then(
    () => true,
    () => false,
  );
  return cut
    ? { kind: 'absent', cutFirstOpen: true }
    : { kind: 'damaged', why: 'the branch refs/heads/main is missing, though the repository exists' };
}

/** Point the branch at `oid`, as git writes a loose ref (over one packed in packed-refs). */
export async function writeBranch(fs: WorkspaceFs, gitdir: string, oid: string): Promise<void> {
  const line = new TextEncoder().encode(`${oid}\n`);
  await fs.writeFile(`${gitdir}/${BRANCH}`, line).catch(async (e) => {
    if (!hasFsCode(e, 'ENOENT')) throw e;
    await fs.mkdir(`${gitdir}/refs/heads`, { recursive: true });
    await fs.writeFile(`${gitdir}/${BRANCH}`, line);
  });
}

/**
 * Make a bare repository whose HEAD names the branch; a folder that already has a config is left
 * as it is. Only what git needs to see a repository (HEAD, config, objects, refs) and what the
 * first commit writes into: `git init --bare` also makes hooks, info, objects/info and refs/tags,
 * which stay empty here and cost a folder each on every first open (a round trip on OPFS). git,
 * isomorphic-git and `git fsck` read the repository without them. True when it made the repository.
 */
export async function initRepository(fs: WorkspaceFs, gitdir: string): Promise<boolean> {
  const made = await fs.stat(`${gitdir}/config`).then(
    () => true,
    () => false,
  );
  if (made) return false;
  for (const dir of ['objects/pack', 'refs/heads']) await fs.mkdir(`${gitdir}/${dir}`, { recursive: true });
  const text = (t: string) => new TextEncoder().encode(t);
  await fs.writeFile(
    `${gitdir}/config`,
    text(
      '[core]\n\trepositoryformatversion = 0\n\tfilemode = false\n\tbare = true\n\tsymlinks = false\n\tignorecase = true\n',
    ),
  );
  await fs.writeFile(`${gitdir}/HEAD`, text(`ref: ${BRANCH}\n`));
  return true;
}

/**
 * Point the branch at `oid` if it still points at `expected` (null: a first commit, nothing to
 * compare). A branch some other process moved since this one read it is never overwritten (that
 * would orphan its commits): the new commit stays unreferenced and the call says so. The ref file
 * keeps its size from one commit to the next, so a backend that can overwrite a small file in
 * place spares a temporary file and a rename per snapshot; otherwise (first commit, a ref git
 * packed away) the whole file is written.
 */
export async function moveBranch(fs: WorkspaceFs, gitdir: string, oid: string, expected: string | null): Promise<void> {
  if (expected !== null) {
    const now = await readBranch(fs, gitdir);
    if (now.kind !== 'ok' || now.oid !== expected) {
      throw new ToolError(
        'IO_ERROR',
        'the snapshot history moved underneath this process (another process committed without the workspace lock)',
        {
          hint: 'Open the workspace through one Sandpit host at a time, or through hosts that share the workspace lock; then retry.',
        },
      );
    }
  }
  const line = new TextEncoder().encode(`${oid}\n`);
  if (await fs.writeInPlace?.(`${gitdir}/${BRANCH}`, line, line.length)) return;
  await writeBranch(fs, gitdir, oid);
}
