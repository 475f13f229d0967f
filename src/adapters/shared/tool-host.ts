import type { Envelope, ToolInfo } from '../../contract/index.js';
import type { Toolset } from '../../toolsets/index.js';

/**
 * What an adapter needs of a workspace: `call` and `listTools`. A `createWorkspace` workspace,
 * a Node workspace and a worker proxy from `connectWorkspace` (whose listing is async) all fit.
 */
export interface ToolHost {
  /** Run a tool; never throws, answers an envelope. */
  call(tool: string, args?: unknown, options?: { signal?: AbortSignal }): Promise<Envelope>;
  /** The tools `call` offers. */
  listTools(): ToolInfo[] | Promise<ToolInfo[]>;
}

/** Which of a workspace's tools an adapter offers, and how their answers read. */
export interface AdapterOptions {
  /**
   * The toolset the workspace was made with: its `present` shapes each answer as that toolset's
   * clients expect (file_manager's `{ok, tool, results}`, the native tools' outputs); without it
   * a success answers the tool's result.
   */
  toolset?: Pick<Toolset, 'present'>;
  /** Offer only these tools (default: every tool the workspace lists). */
  only?: readonly string[];
}

/**
 * A tool call the workspace refused, raised so the framework reports it the way it reports a
 * failed tool (the AI SDK's `tool-error`, the Agents SDK's error output): the message is written for
 * the model, and `envelope` keeps the code, hint and problems for the host.
 */
export class SandpitToolCallError extends Error {
  /** the error envelope the workspace answered */
  readonly envelope: Extract<Envelope, { ok: false }>;
  /** its error code, from the closed list */
  readonly code: string;

  constructor(envelope: Extract<Envelope, { ok: false }>) {
    super(errorText(envelope));
    this.name = 'SandpitToolCallError';
    this.envelope = envelope;
    this.code = envelope.error.code;
  }

  /** The message alone: frameworks send `String(error)` to the model, which needs no class name. */
  override toString(): string {
    return this.message;
  }
}

/** A refused call as the model reads it: the code, the message, the hint and each problem. */
export function errorText(envelope: Extract<Envelope, { ok: false }>): string {
  const { code, message, hint, problems } = envelope.error;
  const lines = [`${code}: ${message}`];
  for (const p of problems ?? []) lines.push(`- ${p.path || '/'}: ${p.message}`);
  if (hint) lines.push(`Hint: ${hint}`);
  return lines.join('\n');
}

/** The tools the adapter offers: the listing, narrowed to `only` (an unknown name is a mistake, said at once). */
export async function offeredTools(host: ToolHost, options: AdapterOptions): Promise<ToolInfo[]> {
  const listed = await host.listTools();
  if (!options.only) return listed;
  const names = new Set(listed.map((t) => t.name));
  const missing = options.only.filter((n) => !names.has(n));
  if (missing.length > 0)
    throw new Error(`the workspace has no tool named ${missing.join(', ')}; it has ${[...names].join(', ')}`);
  return listed.filter((t) => options.only!.includes(t.name));
}

/** Run one call; a success answers the (presented) result, a refusal throws SandpitToolCallError. */
export async function callOrThrow(
  host: ToolHost,
  options: AdapterOptions,
  name: string,
  args: unknown,
  signal?: AbortSignal,
): Promise<unknown> {
  const envelope = await host.call(name, args, signal ? { signal } : {});
  if (!envelope.ok) throw new SandpitToolCallError(envelope);
  return options.toolset ? options.toolset.present(envelope) : envelope.result;
}
