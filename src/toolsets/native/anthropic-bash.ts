import type { AnthropicToolResult } from './anthropic-editor.js';
import { s, type Envelope } from '../../contract/index.js';
import { defineTool, RUNS_PROGRAMS, type ToolDefinition } from '../../tools/schema/define.js';
import { capOutput } from './openai-shell.js';
import type { RunLine } from './shell-line.js';

/** Seconds one bash command may run before it is killed. */
export const BASH_TIMEOUT_SECONDS = 120;
/** Characters of stdout and of stderr the model gets back (head and tail kept). */
export const BASH_OUTPUT_CAP = 30_000;

/**
 * Anthropic's bash tool (`bash_20250124`): commands run in one bash session in the workspace (the
 * OS sandbox in Node, the built-in shell in a browser), so the folder, variables and functions one
 * command leaves are there for the next; `restart` starts a fresh session. A command killed at its
 * timeout ends alone: the session goes on. Output is stdout, then stderr.
 */
export function anthropicBash(run: RunLine, options: { timeoutSeconds?: number } = {}): ToolDefinition {
  const limit = options.timeoutSeconds ?? BASH_TIMEOUT_SECONDS;
  return defineTool({
    name: 'bash',
    title: 'Bash (Anthropic)',
    description: `Run a bash command in the workspace (killed after ${limit} s), or restart: true to restart the session.`,
    mutates: true,
    annotations: RUNS_PROGRAMS,
    schema: s.object({
      command: s.optional(s.string({ description: 'The bash command to run.' })),
      restart: s.optional(s.boolean({ description: 'Restart the bash session.' })),
    }),
    resultSchema: s.object({
      output: s.string(),
      exit_code: s.nullable(s.integer({ description: '-1 after a timeout; null for a restart.' })),
      timed_out: s.boolean(),
      change_id: s.optional(s.string()),
    }),
    async run(args, ctx) {
      if (args.restart) {
        await run.restart?.();
        return { output: 'tool has been restarted.', exit_code: null, timed_out: false };
      }
      if (!args.command?.trim())
        return { output: 'Error: no command given: send command, or restart: true.', exit_code: 2, timed_out: false };
      const r = await run(args.command, limit, ctx);
      const parts = [capOutput(r.stdout, BASH_OUTPUT_CAP), capOutput(r.stderr, BASH_OUTPUT_CAP)].filter(
        (p) => p !== '',
      );
      if (r.timed_out)
        parts.push(
          `Error: the command timed out after ${limit} seconds and was killed.${run.restart ? ' The session goes on.' : ''}`,
        );
      else if (r.exit_code !== 0) parts.push(`(exit code ${r.exit_code})`);
      return {
        output: parts.join('\n'),
        exit_code: r.exit_code,
        timed_out: r.timed_out,
        ...(r.change_id ? { change_id: r.change_id } : {}),
      };
    },
    present: presentBash,
  });
}

/** The envelope as a `tool_result`'s text: the output, or the error. */
export function presentBash(envelope: Envelope): AnthropicToolResult {
  if (!envelope.ok) {
    const { code, message, hint } = envelope.error;
    return { content: `Error: ${code}: ${message}${hint ? `\n${hint}` : ''}`, is_error: true };
  }
  const r = envelope.result as { output: string; exit_code: number | null; timed_out: boolean };
  return { content: r.output === '' ? '(no output)' : r.output, ...(r.timed_out ? { is_error: true as const } : {}) };
}
