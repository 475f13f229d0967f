import type {
  Experimental_SandboxDirectoryEntry as SandboxDirectoryEntry,
  Experimental_SandboxFileStat as SandboxFileStat,
  Experimental_SandboxProcess as SandboxProcess,
  Experimental_SandboxSession as SandboxSession,
} from 'ai';
import type { Envelope } from '../../contract/index.js';
import type { ImportedFile, ImportResult } from '../../tools/import-files.js';
import { SandpitToolCallError, type ToolHost } from '../shared/tool-host.js';
import { spawnTask } from './sandbox-process.js';

/** What the sandbox needs of a workspace: its tools, and (for bytes that are not UTF-8 text) importFiles. */
export interface SandboxHost extends ToolHost {
  /** Write raw bytes as one change (a createWorkspace or Node workspace has it; a worker proxy may not). */
  importFiles?(files: ImportedFile[]): Promise<Envelope<ImportResult>>;
}

/** Options of {@link sandpitSandbox}. */
export interface SandpitSandboxOptions {
  /** seconds `run` lets a command go before it is killed (default 600: the SDK's run has no limit of its own) */
  timeoutSeconds?: number;
  /** words added to the description (what the agent should know about this project) */
  about?: string;
}

/** Where commands start and paths resolve, as the workspace's tools name it. */
const BASE = '.';

/**
 * The AI SDK's `Experimental_SandboxSession` over a Sandpit workspace, for `experimental_sandbox`
 * of `generateText`, `streamText` and `ToolLoopAgent`. Everything goes through the workspace's
 * canonical tools, so it is confined, validated, logged and snapshotted as a model's own calls:
 * `run` and `spawn` through `run_command` (the OS sandbox in Node, the built-in shell in a browser;
 * `spawn` as a background task read with `task_wait`), text reads through `read_file` (line ends
 * read as `\n`), writes through `write_file` (UTF-8 text) or the workspace's `importFiles` (other
 * bytes), `stat` through `exists` and `file_bytes`, listings through `list_directory`, deletes
 * through `delete_path`. Paths are the workspace's: relative ones from its root, absolute ones
 * inside it. A refused call rejects with SandpitToolCallError; a missing path is null, as the
 * interface says.
 */
export function sandpitSandbox(workspace: SandboxHost, options: SandpitSandboxOptions = {}): SandboxSession {
  const call = async (tool: string, args: Record<string, unknown>, signal?: AbortSignal) => {
    const envelope = await workspace.call(tool, args, signal ? { signal } : {});
    if (!envelope.ok) throw new SandpitToolCallError(envelope);
    return envelope.result as Record<string, unknown>;
  };
  // null for a path that is not there, as the interface answers it; any other refusal rejects.
  const orNull = async <T>(run: () => Promise<T>): Promise<T | null> => {
    try {
      return await run();
    } catch (error) {
      if (error instanceof SandpitToolCallError && error.code === 'NOT_FOUND') return null;
      throw error;
    }
  };
  let shellLines: Promise<boolean> | undefined;
  // The built-in shell reads a command line itself; Node's runner runs programs, so lines go to bash.
  const command = async (line: string): Promise<string | string[]> => {
    shellLines ??= Promise.resolve(workspace.listTools()).then((tools) => {
      const about = tools.find((t) => t.name === 'run_command')?.input_schema.properties?.command?.description;
      return typeof about === 'string' && about.startsWith('A bash command line');
    });
    return (await shellLines) ? line : ['bash', '-c', line];
  };
  const commandArgs = async (o: { command: string; workingDirectory?: string; env?: Record<string, string> }) => ({
    command: await command(o.command),
    cwd: o.workingDirectory ?? BASE,
    ...(o.env ? { env: o.env } : {}),
  });

  const readText = async (path: string, range: { startLine?: number; endLine?: number; encoding?: string } = {}) =>
    orNull(async () => {
      let text = '';
      let start = range.startLine ?? 1;
      // read_file pages a long file: follow next_start_line to the end (or to endLine).
      for (;;) {
        const r = await call('read_file', {
          path,
          start_line: start,
          ...(range.endLine !== undefined ? { end_line: range.endLine } : {}),
          ...(range.encoding && range.encoding !== 'utf-8' ? { encoding: range.encoding } : {}),
        });
        text += String(r.content);
        if (r.has_more !== true || typeof r.next_start_line !== 'number' || r.next_start_line <= start) return text;
        if (range.endLine !== undefined && r.next_start_line > range.endLine) return text;
        start = r.next_start_line;
      }
    }).catch((error) => {
      // An end line past the end reads through the end; a start past it is an empty read.
      if (
        error instanceof SandpitToolCallError &&
        error.code === 'INVALID_ARGUMENTS' &&
        /past the end/.test(error.message)
      )
        return '';
      throw error;
    });

  const writeBytes = async (path: string, bytes: Uint8Array) => {
    let text: string | null = null;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      text = null;
    }
    if (text !== null) {
      await call('write_file', { path, content: text });
      return;
    }
    if (!workspace.importFiles)
      throw new Error(`'${path}' is not UTF-8 text, and this workspace takes only text through write_file`);
    const envelope = await workspace.importFiles([{ path: path.replace(/^\/+/, ''), bytes }]);
    if (!envelope.ok) throw new SandpitToolCallError(envelope);
    const skipped = envelope.result.skipped[0];
    if (skipped) throw new Error(`${skipped.code}: ${skipped.message}`);
  };

  const readBytes = async (path: string) => {
    const text = await readText(path);
    return text === null ? null : new TextEncoder().encode(text);
  };

  const spawn = async (o: Parameters<SandboxSession['run']>[0] & { stdin?: boolean }): Promise<SandboxProcess> => {
    // Background tasks take no input: refused before anything starts, as the interface asks.
    if (o.stdin) throw new Error('spawn with stdin: true is not supported: Sandpit tasks read no input');
    const started = await call('run_command', { ...(await commandArgs(o)), background: true }, o.abortSignal);
    return spawnTask(call, String(started.task_id), o.abortSignal);
  };
  const spawnLike: (o: Parameters<typeof spawn>[0]) => PromiseLike<SandboxProcess> = spawn;

  const session: SandboxSession = {
    description: [
      'A Sandpit workspace. Paths are relative to its root (an absolute path is taken inside it); ',
      'commands start at its root and run in the OS sandbox in Node (the root shows as /workspace there) ',
      "or in Sandpit's built-in bash-compatible shell in a browser. Every write is logged and can be undone.",
      options.about ? ` ${options.about}` : '',
    ].join(''),
    readFile: async ({ path }) => {
      const bytes = await readBytes(path);
      return bytes === null ? null : new Blob([bytes as Uint8Array<ArrayBuffer>]).stream();
    },
    readBinaryFile: ({ path }) => readBytes(path),
    readTextFile: ({ path, startLine, endLine, encoding }) =>
      readText(path, {
        ...(startLine !== undefined ? { startLine } : {}),
        ...(endLine !== undefined ? { endLine } : {}),
        ...(encoding !== undefined ? { encoding } : {}),
      }),
    writeFile: async ({ path, content }) => writeBytes(path, new Uint8Array(await new Response(content).arrayBuffer())),
    writeBinaryFile: ({ path, content }) => writeBytes(path, content),
    writeTextFile: async ({ path, content, encoding }) => {
      await call('write_file', { path, content, ...(encoding && encoding !== 'utf-8' ? { encoding } : {}) });
    },
    stat: ({ path }) =>
      orNull(async (): Promise<SandboxFileStat | null> => {
        const r = await call('exists', { path });
        if (r.exists !== true) return null;
        if (r.type === 'directory') return { type: 'directory', size: 0 };
        if (r.type !== 'file') return { type: 'other', size: 0 };
        return { type: 'file', size: Number((await call('file_bytes', { path })).size_bytes) };
      }),
    listDirectory: ({ path }) =>
      orNull(async () => {
        const r = await call('list_directory', { path, include_hidden: true, max_entries: 10_000 });
        return (r.entries as Array<{ name: string; type: SandboxDirectoryEntry['type'] }>).map((e) => ({
          name: e.name,
          type: e.type,
        }));
      }),
    deleteFile: async ({ path }) => {
      const r = await orNull(() => call('delete_path', { path }));
      return r !== null && r.deleted === true;
    },
    run: async (o) => {
      const r = await call(
        'run_command',
        { ...(await commandArgs(o)), timeout_seconds: options.timeoutSeconds ?? 600 },
        o.abortSignal,
      );
      return { exitCode: Number(r.exit_code ?? -1), stdout: String(r.stdout ?? ''), stderr: String(r.stderr ?? '') };
    },
    // The interface's overloads only add the writable stdin this one refuses.
    spawn: spawnLike as SandboxSession['spawn'],
  };
  return session;
}
