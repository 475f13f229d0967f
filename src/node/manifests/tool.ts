import { existsSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { relativeBelow } from '../process/below.js';
import { confirmOrRefuse } from '../../tools/confirm.js';
import { defineTool, RUNS_PROGRAMS, type ToolDefinition } from '../../tools/schema/define.js';
import { recordExternalChanges, type FindExternalChanges } from '../../tools/external-changes.js';
import { DEFAULT_COMMAND_TIMEOUT_SECONDS } from '../../tools/run-command.js';
import type { ToolRunContext as ToolContext } from '../../tools/schema/define.js';
import { s, type Schema } from '../../contract/index.js';
import { externalChangeResults } from '../../tools/schema/result-schemas.js';
import { DEFAULT_OUTPUT_CAP } from '../process/output-cap.js';
import { startProcess } from '../process/spawn.js';
import { chooseSandbox, sandboxChoice } from '../process/sandbox.js';
import { execRequest, workspacePathInside } from '../process/sandbox-exec.js';
import type { NodeProcessOptions } from '../process/run-command.js';
import type { ProcessTaskRegistry } from '../process/tasks.js';
import type { LoadedManifest } from './load.js';
import { NotifyTail, type NotifyNote } from './notify.js';
import { failureOf, toolResult, type ModelCaps } from './output.js';

/** What every manifest tool of a workspace shares. */
export interface ManifestDeps {
  tasks: ProcessTaskRegistry;
  process: NodeProcessOptions;
  /** the agent home ({home}) and its scratch folder ({scratch}; per-call output folders go here) */
  home: string;
  scratch: string;
  session: string;
  caps: ModelCaps;
  /** the workspace's rescan after a foreground call */
  findChanges: FindExternalChanges;
  /** the same after a background call ends (its changes are logged under the tool's name) */
  afterExit: (tool: string) => Promise<void>;
}

interface CallFolders {
  outputDir: string;
  notifyFile: string;
}

/** What a manifest tool answers: its output (seed 003's text or JSON reply), or a task for a background tool. */
export const manifestResultSchema = s.object({
  output: s.optional(s.string()),
  is_error: s.optional(s.boolean({ description: 'The tool reported a failure (or exited nonzero in text mode).' })),
  exit_code: s.optional(s.nullable(s.integer())),
  timed_out: s.optional(s.boolean()),
  truncated: s.optional(s.boolean()),
  duration_ms: s.optional(s.number()),
  files: s.optional(
    s.array(s.object({ name: s.string(), size_bytes: s.integer() }), {
      description: 'Files the call wrote to its output folder.',
    }),
  ),
  media: s.optional(
    s.array(
      s.object({
        name: s.string(),
        mime: s.string(),
        size_bytes: s.integer(),
        data_base64: s.optional(
          s.string({
            description: 'The bytes (an MCP client gets images and audio as their own content blocks instead).',
          }),
        ),
        sent_as: s.optional(
          s.enum(['image', 'audio'], { description: 'Over MCP: the content block that carries the bytes.' }),
        ),
      }),
    ),
  ),
  media_dropped: s.optional(s.array(s.object({ name: s.string(), reason: s.string() }))),
  notes: s.optional(s.array(s.string(), { description: 'Progress notes the tool wrote.' })),
  ...externalChangeResults,
  task_id: s.optional(
    s.string({ description: 'For a background tool: the task to follow with task_output, task_wait, task_kill.' }),
  ),
  status: s.optional(s.string({ description: "For a background tool: 'running'." })),
});

/** A manifest's name as a person reads it: `word_count` is "Word count". */
function titleOf(name: string): string {
  const words = name.replace(/_+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A manifest as a tool: its parameters are the schema every call is validated against. */
export function manifestTool(loaded: LoadedManifest, deps: ManifestDeps): ToolDefinition {
  const { manifest, name } = loaded;
  return defineTool({
    name,
    title: titleOf(name),
    description: manifest.description,
    // The manifest's own parameters, checked when it was loaded: arbitrary JSON arguments.
    schema: loaded.parameters as Schema<Record<string, unknown>>,
    resultSchema: manifestResultSchema,
    // A program of the user's: it may change anything, and reach the network.
    annotations: RUNS_PROGRAMS,
    mutates: true,
    async run(args, ctx) {
      if (manifest.permission === 'ask') await confirmOrRefuse(ctx, [name], 'run', { required: true, args });
      const choice = sandboxChoice(deps.process.sandbox, deps.process.sandboxPolicy);
      const mode = await chooseSandbox(choice);
      const folders = await callFolders(deps.scratch, name);
      const root = ctx.paths.toAbs('');
      // In the OS sandbox the workspace is at /workspace; the tool, home and scratch folders keep their paths.
      const shownRoot = mode === 'os' ? workspacePathInside(root, root) : root;
      const fill = (s: string) =>
        expand(s, {
          dir: loaded.dir,
          workspace: shownRoot,
          home: deps.home,
          scratch: deps.scratch,
          output_dir: folders.outputDir,
        });
      const argv = manifest.command.map((a) => inToolDir(fill(a), loaded.dir));
      const input = manifest.input ?? 'stdin_json';
      if (input === 'args_json') argv.push(JSON.stringify(args));
      const extra: Record<string, string> = {};
      for (const [k, v] of Object.entries(manifest.env ?? {})) extra[k] = fill(v);
      Object.assign(
        extra,
        engineVars({
          WORKSPACE: shownRoot,
          HOME: deps.home,
          SCRATCH: deps.scratch,
          SESSION: deps.session,
          TOOL_NAME: name,
          TOOL_DIR: loaded.dir,
          OUTPUT_DIR: folders.outputDir,
          NOTIFY_FILE: folders.notifyFile,
          CAPS: capsText(deps.caps),
        }),
      );
      if (input === 'env') Object.assign(extra, engineVars(argumentVars(args)));
      const seconds = manifest.timeout_seconds ?? (manifest.background ? -1 : 0);
      const running = await startProcess(
        await execRequest(
          {
            argv,
            hostRoot: root,
            hostCwd: manifest.cwd === 'tool_dir' ? loaded.dir : await workingFolder(ctx),
            extra,
            parentEnv: deps.process.baseEnv ?? process.env,
            scrubEnv: deps.process.scrubEnv,
            gitWritable: ctx.policy.allowGitWrites,
            mounts: [
              { host: deps.home, writable: false },
              { host: deps.scratch, writable: true },
              { host: loaded.dir, writable: false },
            ],
            displayName: manifest.command[0],
          },
          mode,
          choice.policy,
          {
            timeoutMs: seconds === -1 ? null : (seconds === 0 ? DEFAULT_COMMAND_TIMEOUT_SECONDS : seconds) * 1000,
            stdin: input === 'stdin_json' ? JSON.stringify(args) : undefined,
            maxOutputBytes: deps.process.maxOutputBytes ?? DEFAULT_OUTPUT_CAP,
          },
        ),
      );
      const notes: NotifyNote[] = [];
      let taskId = '';
      const tail = new NotifyTail(folders.notifyFile, (note) => {
        if (manifest.background) deps.tasks.emit({ type: 'task_note', task_id: taskId, ...note });
        else notes.push(note);
      });
      tail.start();
      const finish = async (outcome: Parameters<typeof toolResult>[0]) => {
        await tail.stop();
        return toolResult(
          outcome,
          manifest.output ?? 'text',
          { outputDir: folders.outputDir, workspaceRoot: root },
          {
            attach: manifest.attach_outputs === true,
            caps: deps.caps,
            notes,
          },
        );
      };
      if (manifest.background) {
        taskId = deps.tasks.add(running, name, { finish, afterExit: () => deps.afterExit(name) }).task_id;
        return { task_id: taskId, status: 'running' };
      }
      const outcome = await running.done;
      const changes = await recordExternalChanges(ctx, deps.findChanges);
      const result = { ...(await finish(outcome)), ...changes };
      const failure = failureOf(name, result);
      if (failure) throw failure;
      return result;
    },
  });
}

async function callFolders(scratch: string, name: string): Promise<CallFolders> {
  await mkdir(join(scratch, 'calls'), { recursive: true });
  const base = await mkdtemp(join(scratch, 'calls', `${name}-`));
  const outputDir = join(base, 'out');
  await mkdir(outputDir);
  const notifyFile = join(base, 'notify.log');
  await writeFile(notifyFile, '');
  return { outputDir, notifyFile };
}

// The workspace's current folder, so a bare name in a tool argument means what it means to the tools.
async function workingFolder(ctx: ToolContext): Promise<string> {
  return (await ctx.resolve('.', 'read')).abs;
}

function expand(text: string, values: Record<string, string>): string {
  return text.replace(/\{(dir|workspace|home|scratch|output_dir)\}/g, (_, key: string) => values[key]!);
}

// A relative argument naming a file in the tool folder means that file, wherever the process runs.
function inToolDir(arg: string, dir: string): string {
  if (arg === '' || isAbsolute(arg) || arg.startsWith('-')) return arg;
  const candidate = join(dir, arg);
  if (relativeBelow(dir, candidate) === null) return arg;
  try {
    return existsSync(candidate) && statSync(candidate).isFile() ? candidate : arg;
  } catch {
    return arg;
  }
}

// input: env gives one variable per argument (strings as they are, anything else as JSON) and all of them as JSON.
function argumentVars(args: Record<string, unknown>): Record<string, string> {
  const vars: Record<string, string> = { ARGS_JSON: JSON.stringify(args) };
  for (const [k, v] of Object.entries(args))
    vars[`ARG_${k.toUpperCase()}`] = typeof v === 'string' ? v : JSON.stringify(v);
  return vars;
}

// Seed 003's tools read ZAGENT_*; Sandpit's own name is SANDPIT_*. Both are set.
function engineVars(values: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(values)) {
    out[`SANDPIT_${k}`] = v;
    out[`ZAGENT_${k}`] = v;
  }
  return out;
}

function capsText(caps: ModelCaps): string {
  return Object.entries(caps)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
}
