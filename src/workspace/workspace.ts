import type { WorkspaceFs } from '../fs/types.js';
import type { ToolDefinition, ToolInfo } from '../tools/define.js';
import { validateArgs } from '../tools/validate.js';
import { ChangeLog } from './change-log.js';
import { ToolContext } from './context.js';
import { ToolError, toToolError, type ToolErrorBody } from './errors.js';
import { ReadLedger } from './ledger.js';
import { PathLocks } from './locks.js';
import { lexicalPath, PathResolver } from './paths.js';
import { resolvePolicy, type ResolvedPolicy, type WorkspacePolicy } from './policy.js';

/** The one shape every tool call returns. */
export type Envelope<R = unknown> =
  | { ok: true; tool: string; result: R }
  | { ok: false; tool: string; error: ToolErrorBody };

export interface WorkspaceOptions {
  fs: WorkspaceFs;
  /** the backend folder that is the workspace root (default `/`) */
  root?: string;
  /** the current folder, relative to the root, where bare names resolve (default the root) */
  cwd?: string;
  policy?: WorkspacePolicy;
  /** the tools `call` offers (default: the canonical toolset) */
  tools?: ToolDefinition[];
}

export interface Workspace {
  readonly fs: WorkspaceFs;
  readonly root: string;
  readonly cwd: string;
  readonly policy: ResolvedPolicy;
  /** every change's summary and full diff, for a reviewer */
  readonly changes: ChangeLog;
  readonly ledger: ReadLedger;
  /** Run a tool. Never throws: every outcome is an envelope. */
  call(tool: string, args?: unknown): Promise<Envelope>;
  listTools(): ToolInfo[];
}

/** Create a workspace over a backend with the given tools (see createWorkspace for the default set). */
export function createWorkspaceCore(options: WorkspaceOptions & { tools: ToolDefinition[] }): Workspace {
  const root = options.root ?? '/';
  const cwd = options.cwd ? lexicalPath(options.cwd.startsWith('./') ? options.cwd : `./${options.cwd}`, '') : '';
  const policy = resolvePolicy(options.policy);
  const paths = new PathResolver(options.fs, root);
  const ledger = new ReadLedger();
  const changes = new ChangeLog();
  const locks = new PathLocks();
  const byName = new Map(options.tools.map((t) => [t.name, t]));

  async function call(name: string, args: unknown = {}): Promise<Envelope> {
    const toolName = typeof name === 'string' ? name : String(name);
    try {
      const tool = byName.get(toolName);
      if (!tool) throw unknownTool(toolName, [...byName.keys()]);
      const problems = validateArgs(tool.schema, args ?? {});
      if (problems.length > 0) {
        throw new ToolError('INVALID_ARGUMENTS', `${tool.name} got invalid arguments: ${problems.map((p) => `${p.path || '(arguments)'} ${p.message}`).join('; ')}`, {
          hint: `Arguments must match the schema of ${tool.name}; allowed: ${Object.keys(tool.schema.properties ?? {}).join(', ')}.`,
          problems,
        });
      }
      const ctx = new ToolContext(options.fs, paths, cwd, policy, ledger, changes, locks, tool.name);
      const result = await tool.run(args ?? {}, ctx);
      return { ok: true, tool: tool.name, result };
    } catch (error) {
      return { ok: false, tool: toolName, error: toToolError(error).toJSON() };
    }
  }

  return {
    fs: options.fs,
    root,
    cwd,
    policy,
    changes,
    ledger,
    call,
    listTools: () => options.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.schema })),
  };
}

function unknownTool(name: string, known: string[]): ToolError {
  const near = known.filter((k) => k.includes(name) || name.includes(k) || name.split('.').pop() === k);
  return new ToolError('UNKNOWN_TOOL', `there is no tool named '${name.slice(0, 100)}'`, {
    hint: near.length ? `Did you mean ${near.map((n) => `'${n}'`).join(' or ')}? Tools: ${known.join(', ')}.` : `Tools: ${known.join(', ')}.`,
  });
}
