/** Where one fork keeps its things, as backend paths of the parent's backend. */
export interface ForkLayout {
  /** the fork's own files (what it wrote; the rest reads through to the snapshot) */
  upper: string;
  /** the shared shadow gitdir (the parent's) */
  gitdir: string;
  /** the fork's branch file in the shared gitdir (`refs/heads/forks/<id>`) */
  branchFile: string;
  /** the fork's folder: manifest, whiteouts, and the gitdir files a branch keeps for itself */
  privateDir: string;
}

/** The shadow gitdir as the fork's workspace sees it (its snapshot store's default `dir`). */
const GITDIR = '.sandpit/git';

/** Files of the gitdir that belong to one branch's history, not to the shared store. */
const PER_BRANCH = new Set(['shallow', 'sandpit-first-open', 'packed-refs']);

/**
 * Where a fork's path into its own `.sandpit/git` lands: the shared gitdir, except `main` (the
 * fork's branch file) and the per-branch files (the fork's folder). Null for any other path.
 */
export function mapGitPath(rel: string, layout: ForkLayout): string | null {
  if (rel !== GITDIR && !rel.startsWith(`${GITDIR}/`)) return null;
  const inner = rel.slice(GITDIR.length + 1);
  if (inner === 'refs/heads/main') return layout.branchFile;
  if (PER_BRANCH.has(inner)) return `${layout.privateDir}/${inner}`;
  return inner ? `${layout.gitdir}/${inner}` : layout.gitdir;
}

/** The folder, below a workspace root, that holds its forks (inside `.sandpit`, hidden from tools and snapshots). */
export const FORKS_DIR = '.sandpit/forks';

/** The layout of fork `id` of a workspace whose root-relative paths map through `toAbs`. */
export function forkLayout(toAbs: (rel: string) => string, gitdir: string, id: string): ForkLayout {
  const privateDir = toAbs(`${FORKS_DIR}/${id}`);
  return { upper: `${privateDir}/files`, gitdir, branchFile: `${gitdir}/refs/heads/forks/${id}`, privateDir };
}
