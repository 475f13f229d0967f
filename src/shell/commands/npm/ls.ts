import { HIDDEN_LOCK } from '../../../packages/install.js';
import { treeFromLock } from '../../../packages/lockfile.js';
import { compareNames, resolveEdge, type TreeNode } from '../../../packages/tree.js';
import type { LockEntry, Lockfile, ProjectManifest } from '../../../packages/types.js';
import { type CommandContext, UsageError } from '../../context.js';
import { projectReader } from './install.js';

/** How deep `npm ls` goes: `--depth N` / `--depth=N`, `--all` (no limit), else the top level only. */
function depthOf(args: string[]): number {
  let depth = 0;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const value = arg === '--depth' ? args[++i] : arg.startsWith('--depth=') ? arg.slice('--depth='.length) : undefined;
    if (arg === '--all' || arg === '-a') depth = Infinity;
    else if (value !== undefined) {
      if (!/^\d+$/.test(value) && value !== 'Infinity')
        throw new UsageError(`npm error --depth needs a number (got '${value}')`);
      depth = Number(value);
    } else
      throw new UsageError(
        `npm error \`npm ls\` takes --depth N and --all here (got '${arg}'); package names are not supported`,
      );
  }
  return depth;
}

/** One printed line of the tree: a package found, a repeat of one printed above, or a dependency not installed. */
interface Line {
  label: string;
  children: Line[];
}

/**
 * The tree as `npm ls` walks it: breadth first, dependencies in name order, a package printed in
 * full the first time it is reached and `deduped` after that, a missing one as UNMET.
 */
function linesOf(root: TreeNode, depth: number): { lines: Line[]; missing: number } {
  const seen = new Set<TreeNode>([root]);
  const top: Line[] = [];
  let missing = 0;
  const queue: Array<{ node: TreeNode; into: Line[]; level: number }> = [{ node: root, into: top, level: 0 }];
  while (queue.length) {
    const { node, into, level } = queue.shift()!;
    const edges = node.edges
      .filter((e) => node === root || e.type !== 'dev')
      .sort((a, b) => compareNames(a.name, b.name));
    for (const edge of edges) {
      const found = resolveEdge(node, edge);
      if (!found) {
        if (edge.type === 'peerOptional') continue;
        if (edge.type !== 'optional') missing++;
        const kind = edge.type === 'optional' ? 'UNMET OPTIONAL DEPENDENCY' : 'UNMET DEPENDENCY';
        into.push({ label: `${kind} ${edge.name}@${edge.spec}`, children: [] });
        continue;
      }
      const line: Line = { label: `${found.name}@${found.entry.version}`, children: [] };
      into.push(line);
      if (seen.has(found)) line.label += ' deduped';
      else {
        seen.add(found);
        if (level < depth) queue.push({ node: found, into: line.children, level: level + 1 });
      }
    }
  }
  return { lines: top, missing };
}

function print(lines: Line[], prefix: string, out: (text: string) => void): void {
  for (const [i, line] of lines.entries()) {
    const last = i === lines.length - 1;
    out(`${prefix}${last ? '└─' : '├─'}${line.children.length ? '┬' : '─'} ${line.label}\n`);
    print(line.children, `${prefix}${last ? '  ' : '│ '}`, out);
  }
}

/** `npm ls [--depth N | --all]`: the installed tree as npm prints it, missing dependencies marked (exit 1). */
export async function ls(ctx: CommandContext, args: string[]): Promise<number> {
  const depth = depthOf(args);
  const reader = projectReader(ctx.shell.state.fs, ctx.shell.state.cwd);
  const text = await reader.readText('package.json');
  if (text === null) {
    ctx.err('npm error code NOT_FOUND\nnpm error there is no package.json in this folder\n');
    return 1;
  }
  const manifest = JSON.parse(text) as ProjectManifest;
  const lock = JSON.parse((await reader.readText('package-lock.json')) ?? '{"packages":{}}') as Lockfile;
  const hidden = JSON.parse((await reader.readText(HIDDEN_LOCK)) ?? 'null') as Lockfile | null;
  // What node_modules holds: the hidden lockfile, else the lock, each package only where its folder
  // is there (npm drops the hidden lockfile once a folder it lists is gone).
  const held: Record<string, LockEntry> = {};
  for (const [location, entry] of Object.entries(hidden?.packages ?? lock.packages ?? {})) {
    if (location === '') continue;
    if ((await reader.readText(`${location}/package.json`)) !== null) held[location] = entry;
  }
  const root = treeFromLock(manifest, { lockfileVersion: 3, requires: true, packages: held });
  const label = `${manifest.name ?? '(unnamed)'}${manifest.version ? `@${manifest.version}` : ''}`;
  ctx.out(`${label} ${ctx.shell.state.cwd}\n`);
  const { lines, missing } = linesOf(root, depth);
  print(lines, '', (t) => ctx.out(t));
  ctx.out('\n');
  return missing ? 1 : 0;
}
