import { createWorkspace, type Envelope, type Workspace } from '../../src/index.js';
import { auditedFs } from './audit-fs.js';
import { envelopeProblem, refusalCodes, textBeyondInputs } from './envelope-check.js';
import { classify, expectedCodes, lexicallyOutside } from './path-oracle.js';
import { hostilePath, knownHostilePaths } from './path-gen.js';
import { pathUses, type PathUse } from './path-uses.js';
import type { Rng } from './rng.js';
import type { NamedToolset } from './toolsets.js';
import type { World } from './fs-world.js';

export interface PathFuzzReport {
  paths: number;
  calls: number;
  escapes: number;
  uncaught: number;
  partial: number;
  /** one line per broken rule, the first few hundred */
  broken: string[];
  /** tools left out because they answer NOT_SUPPORTED on this backend */
  unsupported: string[];
  uses: number;
  /** outcomes matching a defect already reported (see KNOWN_DEFECTS); still audited for escapes */
  known: number;
}

/**
 * Defects found by this fuzzer that lie outside the files the hardening work may change, each
 * pinned by an it.fails test in regressions.test.ts. Only the expected code and the echo check are
 * waived for them: the storage audit, the outside snapshot and the canary check still apply.
 */
const KNOWN_DEFECTS: Array<{
  id: string;
  test: (set: string, cwd: string, use: PathUse, cls: string, env: Envelope) => boolean;
}> = [];

function knownDefect(set: string, cwd: string, use: PathUse, cls: string, env: Envelope): boolean {
  return KNOWN_DEFECTS.some((d) => d.test(set, cwd, use, cls, env));
}

/** Builds the tools a workspace offers on a backend (node adds run_command and the task tools). */
export type WorkspaceMaker = (opts: {
  fs: World['fs'];
  root: string;
  cwd: string;
  tools: NamedToolset['tools'];
  snapshots: boolean;
}) => Workspace;

export const coreMaker: WorkspaceMaker = ({ fs, root, cwd, tools, snapshots }) =>
  createWorkspace({ fs, root, cwd: cwd || undefined, tools, snapshots: snapshots ? undefined : false });

/** Extra slots: the paths inside a patch's text, and a glob pattern (which may climb too). */
function textSlots(toolset: NamedToolset): PathUse[] {
  const out: PathUse[] = [];
  for (const tool of toolset.tools) {
    const props = tool.schema.properties ?? {};
    if (props.patch?.type === 'string') {
      const patch = (body: string) => ({ patch: `*** Begin Patch\n${body}\n*** End Patch\n` });
      out.push(
        { tool: tool.name, slot: '/patch (add)', mutates: true, args: (p) => patch(`*** Add File: ${p}\n+pwned`) },
        {
          tool: tool.name,
          slot: '/patch (update)',
          mutates: true,
          args: (p) => patch(`*** Update File: ${p}\n@@\n-secret\n+pwned`),
        },
        { tool: tool.name, slot: '/patch (delete)', mutates: true, args: (p) => patch(`*** Delete File: ${p}`) },
        {
          tool: tool.name,
          slot: '/patch (move to)',
          mutates: true,
          args: (p) => patch(`*** Update File: dir/f.txt\n*** Move to: ${p}\n@@\n-f\n+moved`),
        },
      );
    }
    if (/glob/i.test(tool.name) && props.pattern?.type === 'string') {
      out.push({ tool: tool.name, slot: '/pattern', mutates: false, pattern: true, args: (p) => ({ pattern: p }) });
    }
  }
  return out;
}

function benign(use: PathUse): string {
  return /patch|pattern/.test(use.slot) ? 'inside.txt' : '.';
}

/**
 * Try every generated path with every path-taking slot of every toolset on one world. Checks per call:
 * no storage operation outside the root (audited and blocked), nothing beside the root changed or
 * read, a well-formed envelope with a closed-list code, the refusal the oracle expects, no host
 * path or outside content in the envelope, and a refused call leaves the root as it was.
 */
export async function fuzzPaths(
  world: World,
  toolsets: NamedToolset[],
  rng: Rng,
  count: number,
  make: WorkspaceMaker,
): Promise<PathFuzzReport> {
  const report: PathFuzzReport = {
    paths: 0,
    calls: 0,
    escapes: 0,
    uncaught: 0,
    partial: 0,
    broken: [],
    unsupported: [],
    uses: 0,
    known: 0,
  };
  const note = (line: string) => {
    if (report.broken.length < 300) report.broken.push(line);
  };
  const audit = auditedFs(world.fs, world.root);
  const sessions: Array<{ set: string; ws: Workspace; cwd: string; uses: PathUse[]; programs: Set<string> }> = [];
  for (const set of toolsets) {
    for (const [cwd, snapshots] of [
      ['', true],
      ['a/b', false],
    ] as const) {
      const ws = make({ fs: audit.fs, root: world.root, cwd, tools: set.tools, snapshots });
      const uses: PathUse[] = [];
      // the schemas the workspace really offers (a host may swap in its own run_command)
      const offered = ws.listTools().map((t) => ({
        ...(set.tools.find((d) => d.name === t.name) ?? { mutates: true, run: async () => null }),
        name: t.name,
        description: t.description,
        schema: t.input_schema,
      }));
      const unsupported = new Set<string>();
      for (const use of [...pathUses(offered), ...textSlots(set)]) {
        if (unsupported.has(use.tool)) continue;
        const probe = await ws.call(use.tool, use.args(benign(use)));
        if (!probe.ok && probe.error.code === 'NOT_SUPPORTED') {
          unsupported.add(use.tool);
          report.unsupported.push(`${set.name}:${use.tool}`);
          continue;
        }
        uses.push(use);
      }
      const kept = uses.filter((u) => !unsupported.has(u.tool));
      uses.length = 0;
      uses.push(...kept);
      // the tools that may change files without asking `fs`: those that run programs, and those the
      // host added (its run_command, its task tools), which the toolset does not describe
      const programs = new Set(
        offered.filter((t) => !set.tools.some((d) => d.name === t.name && !d.programs)).map((t) => t.name),
      );
      sessions.push({ set: set.name, ws, cwd, uses, programs });
    }
  }
  report.uses = sessions.filter((s) => s.cwd === '').reduce((n, s) => n + s.uses.length, 0);
  report.unsupported = [...new Set(report.unsupported)];
  await world.reset();

  const known = knownHostilePaths(world);
  // Where the world counts the writes asked of its storage, the root and the outside are read again
  // only once one has been asked for since they were last read: until then neither can differ.
  // Each mark is taken before its read, so a write landing during the read is looked at next time.
  const writes = world.writes;
  const changedSince = (mark: number | undefined) => writes === undefined || writes() !== mark;
  // The host's world counts only for the root, and only what its tools ask of `fs`: a child that
  // a program-running tool started writes with its own system calls.
  const rootWrites = writes ?? world.rootWrites;
  const rootChangedSince = (mark: number | undefined, tool: string, programs: Set<string>) =>
    rootWrites === undefined || rootWrites() !== mark || (writes === undefined && programs.has(tool));
  let outsideReadAt = writes?.();
  let outsideBefore = await world.outsideState();
  // compared as text after every call that needs it: made once per state, not once per comparison
  let outsideBeforeText = JSON.stringify(outsideBefore);
  let rootReadAt = rootWrites?.();
  let rootBefore = await rootState(world);
  let dirty = false;
  for (let i = 0; i < count; i++) {
    const path = i < known.length ? known[i]! : hostilePath(rng, world);
    report.paths++;
    for (const session of sessions) {
      if (session.cwd !== '' && !rng.chance(0.3)) continue;
      for (const use of session.uses) {
        if (dirty) {
          await world.reset();
          rootReadAt = rootWrites?.();
          rootBefore = await rootState(world);
          dirty = false;
        }
        const label = `${session.set} cwd='${session.cwd}' ${use.tool}${use.slot} ${JSON.stringify(path).slice(0, 300)}`;
        // a patch names its paths on header lines, which the parser trims
        const named = /^\/patch/.test(use.slot) ? path.trim() : path;
        let cls = await classify(named, session.cwd, world.fs, world.root);
        // a toolset may take a path relative to another argument (fs_process: `file` under `path`,
        // the current folder by default): then the path may also be read from the current folder,
        // where a climb such as `../b/x` from `a/b` ends inside (found by the IndexedDB slice)
        if (session.set !== 'canonical' && session.cwd !== '' && (cls !== 'lexical' || !lexicallyOutside(named))) {
          const fromCwd = await classify(`./${named}`, session.cwd, world.fs, world.root);
          if (fromCwd !== cls) cls = 'inside';
        }
        const escapesBefore = audit.escapes.length;
        report.calls++;
        let env: Envelope;
        try {
          env = await session.ws.call(use.tool, use.args(path));
        } catch (error) {
          report.uncaught++;
          note(`${label}: call threw ${String(error).slice(0, 200)}`);
          dirty = true;
          continue;
        }
        const problem = envelopeProblem(env, use.tool);
        if (problem) {
          report.uncaught++;
          note(`${label}: ${problem}`);
        }
        if (audit.escapes.length > escapesBefore) {
          report.escapes++;
          note(
            `${label}: reached outside the root: ${JSON.stringify(audit.escapes.slice(escapesBefore, escapesBefore + 3))}`,
          );
        }
        const codes = refusalCodes(env as never);
        const waived = knownDefect(session.set, session.cwd, use, cls, env);
        if (waived) report.known++;
        // a snapshot tool's path names a place in the history, where links are plain entries: only the lexical rules apply
        let expected = use.pattern ? null : /snapshot/.test(use.tool) && cls !== 'lexical' ? null : expectedCodes(cls);
        // a move checks (and may refuse) its source before it looks at the target
        if (expected && /move to|\/to$/.test(use.slot)) expected = [...expected, 'NOT_READ', 'STALE_FILE', 'NOT_FOUND'];
        if (!waived && expected && (codes.length === 0 || !codes.every((c) => expected.includes(c)))) {
          note(
            `${label}: class ${cls} expects ${expected.join('|')}, got ${env.ok ? `ok ${JSON.stringify(env.result).slice(0, 160)}` : `${env.error.code}: ${env.error.message.slice(0, 160)}`}`,
          );
          if (env.ok) report.escapes++;
        }
        const extra = textBeyondInputs(env, [path]);
        if (!waived)
          for (const s of world.hostStrings)
            if (extra.includes(s)) note(`${label}: the envelope names the host path ${s}: ${extra.slice(0, 300)}`);
        if (extra.includes(world.canary)) {
          report.escapes++;
          note(`${label}: outside content leaked into the envelope`);
        }
        if (changedSince(outsideReadAt)) {
          outsideReadAt = writes?.();
          const outsideAfter = await world.outsideState();
          const outsideAfterText = JSON.stringify(outsideAfter);
          if (outsideAfterText !== outsideBeforeText) {
            report.escapes++;
            note(`${label}: changed or read something outside the root: ${diffKeys(outsideBefore, outsideAfter)}`);
            outsideBefore = outsideAfter;
            outsideBeforeText = outsideAfterText;
          }
        }
        const refused = !env.ok || codes.length > 0;
        if (use.mutates && !refused) dirty = true;
        // only a tool that may change files is checked for leftovers: reading the whole root after
        // every read-only call would double the cost of the run
        else if (!env.ok && use.mutates && rootChangedSince(rootReadAt, use.tool, session.programs)) {
          rootReadAt = rootWrites?.();
          const rootAfter = await rootState(world);
          if (rootAfter !== rootBefore) {
            report.partial++;
            note(`${label}: refused with ${env.error.code} but changed the workspace`);
            dirty = true;
          }
        }
      }
    }
  }
  for (const s of sessions) await s.ws.close();
  return report;
}

function diffKeys(a: Record<string, string>, b: Record<string, string>): string {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys]
    .filter((k) => a[k] !== b[k])
    .map((k) => `${k}: ${a[k]} -> ${b[k]}`)
    .join('; ')
    .slice(0, 400);
}

/** The root's files, folders and links (not the shadow repository), as one comparable string. */
async function rootState(world: World): Promise<string> {
  if (world.rootState) return world.rootState();
  const out: string[] = [];
  const walk = async (abs: string, rel: string) => {
    for (const name of (await world.fs.readdir(abs)).sort()) {
      if (rel === '' && name === '.sandpit') continue;
      const st = await world.fs.lstat(`${abs}/${name}`);
      const r = rel ? `${rel}/${name}` : name;
      if (st.type === 'dir') {
        out.push(`${r}/`);
        await walk(`${abs}/${name}`, r);
      } else if (st.type === 'symlink') out.push(`${r} -> ${await world.fs.readlink(`${abs}/${name}`)}`);
      // bytes, not mtimes: a rolled-back change may rewrite a file with its old bytes
      else out.push(`${r} ${Buffer.from(await world.fs.readFile(`${abs}/${name}`)).toString('base64')}`);
    }
  };
  await walk(world.root, '');
  return out.join('\n');
}
