import type { ToolRunContext as ToolContext } from '../tools/schema/define.js';
import { ToolError } from '../contract/index.js';
import { displayPath, lexicalPath, PathResolver } from '../workspace/paths.js';

/** Where an fs_process call works: its project root, and the file inside it when one was named. */
export interface ProjectTarget {
  /** the project root, root-relative as named */
  rootRel: string;
  /** the project root after following links: the barrier */
  rootReal: string;
  /** the target, root-relative as named */
  rel: string;
  /** the target written so the canonical tools resolve it from the workspace root */
  arg: string;
}

/** A canonical root-relative path written so the workspace resolves it from the root even when its current folder is elsewhere. */
export function fromRoot(rel: string, ctx: ToolContext): string {
  if (ctx.cwd === '' || rel.includes('/')) return rel || '.';
  return rel === '' ? '_/..' : `${rel}/../${rel}`;
}

const inside = (root: string, rel: string) => root === '' || rel === root || rel.startsWith(`${root}/`);

/**
 * The project root `path` (an existing folder) and, when given, `file` inside it. The root is a
 * barrier exactly like the workspace root (seed 001): climbing above it, or a symbolic link on
 * the way that leads outside it, is OUTSIDE_WORKSPACE.
 */
export async function projectTarget(ctx: ToolContext, root = '.', file?: string): Promise<ProjectTarget> {
  const rootRel = lexicalPath(root, ctx.cwd);
  const dir = await ctx.resolve(fromRoot(rootRel, ctx), 'read');
  if (!dir.stat)
    throw new ToolError('NOT_FOUND', `the project root '${displayPath(rootRel)}' does not exist`, {
      hint: 'Pass path as an existing folder, or "." for the workspace.',
    });
  if (dir.stat.type !== 'dir')
    throw new ToolError('NOT_A_DIRECTORY', `the project root '${displayPath(rootRel)}' is not a folder`, {
      hint: 'path is the project root; name the file with `file`.',
    });
  const rootReal = dir.realRel;
  if (file === undefined) return { rootRel, rootReal, rel: rootRel, arg: fromRoot(rootRel, ctx) };
  // `file` alone must pass the path rules first: a host-absolute name, a URL or a drive is refused,
  // never re-rooted under the project folder by the join below.
  if (!file.startsWith('..')) lexicalPath(file, '');
  const joined = rootRel === '' ? file : `${rootRel}/${file}`;
  const rel = lexicalPath(joined.includes('/') ? joined : `${joined}/../${joined}`, '');
  const outside = (why: string) =>
    new ToolError(
      'OUTSIDE_WORKSPACE',
      `'${file.slice(0, 200)}' is outside the project root '${displayPath(rootRel)}': ${why}`,
      {
        hint: 'Give file relative to path, without climbing above it or following a link out of it.',
      },
    );
  if (!inside(rootRel, rel)) throw outside('it climbs above it');
  // A link inside the project that leads elsewhere in the workspace passes the workspace barrier;
  // the project root is checked against where the path really leads.
  const real = await ctx.resolve(fromRoot(rel, ctx), 'read');
  if (!inside(rootReal, real.realRel)) throw outside('a symbolic link on the way leads outside it');
  return { rootRel, rootReal, rel, arg: fromRoot(rel, ctx) };
}

/** Path rules whose root is the project root: links leaving it are escapes, paths are relative to it. */
export function projectResolver(ctx: ToolContext, target: ProjectTarget): PathResolver {
  return target.rootReal === '' ? ctx.paths : new PathResolver(ctx.fs, ctx.paths.toAbs(target.rootReal));
}

/** A root-relative path shown relative to the project root. */
export const underRoot = (rootRel: string, rel: string) =>
  rootRel === '' ? rel : rel === rootRel ? '.' : rel.slice(rootRel.length + 1);
