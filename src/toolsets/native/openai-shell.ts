import { s, type Envelope } from '../../contract/index.js';
import { defineTool, RUNS_PROGRAMS, type ToolDefinition } from '../../tools/schema/define.js';
import type { RunLine } from './shell-line.js';

/** Seconds a shell_call's command may run when the call names no timeout_ms. */
export const SHELL_DEFAULT_TIMEOUT_SECONDS = 30;

/** One command's answer in a `shell_call_output`. */
export interface ShellCommandOutput {
  /** what it printed */
  stdout: string;
  /** what it printed on stderr */
  stderr: string;
  /** how it ended */
  outcome: ShellOutcome;
}

/** How a shell command ended: with an exit code, or cut off by its timeout. */
export type ShellOutcome = ShellExit | ShellTimeout;

/** A command that ended by itself. */
export interface ShellExit {
  /** always `exit` */
  type: 'exit';
  /** its exit code */
  exit_code: number;
}

/** A command its timeout ended. */
export interface ShellTimeout {
  /** always `timeout` */
  type: 'timeout';
}

/** A shell call's answer as the Responses API's `shell_call_output` item carries it. */
export type ShellCallOutput = {
  /** one entry per command, in order */
  output: ShellCommandOutput[];
  /** the output cap the call asked for, or null */
  max_output_length: number | null;
};

const outcomeSchema = s.object({
  type: s.enum(['exit', 'timeout']),
  exit_code: s.optional(s.integer()),
});

/** Head and tail of a stream cut to `max` characters, as the shell tool's max_output_length asks. */
export function capOutput(text: string, max: number | null | undefined): string {
  if (max === null || max === undefined || text.length <= max) return text;
  const head = Math.ceil(max / 2);
  return `${text.slice(0, head)}${text.slice(text.length - (max - head))}`;
}

/**
 * OpenAI's built-in shell tool (Responses API `{ type: 'shell' }`): a `shell_call`'s commands run
 * one after another in the workspace (the OS sandbox in Node, the built-in shell in a browser),
 * in one session when the runner has them (as Codex's shell keeps its folder and variables), each
 * answered with its stdout, stderr and outcome as `shell_call_output` expects.
 */
export function openaiShell(run: RunLine): ToolDefinition {
  return defineTool({
    name: 'shell',
    title: 'Shell (OpenAI)',
    description:
      'Run shell commands in the workspace, one after another: action.commands, each with timeout_ms and max_output_length. A nonzero exit or a timeout is a normal result.',
    mutates: true,
    annotations: RUNS_PROGRAMS,
    schema: s.object({
      action: s.object({
        commands: s.array(s.string({ minLength: 1 }), { minItems: 1 }),
        timeout_ms: s.optional(s.nullable(s.integer({ minimum: 1 }))),
        max_output_length: s.optional(s.nullable(s.integer({ minimum: 0 }))),
      }),
    }),
    resultSchema: s.object({
      output: s.array(s.object({ stdout: s.string(), stderr: s.string(), outcome: outcomeSchema })),
      max_output_length: s.nullable(s.integer()),
      change_ids: s.array(s.string(), { description: 'The changes the commands made, for undo.' }),
    }),
    async run(args, ctx) {
      const { commands, timeout_ms, max_output_length } = args.action;
      const seconds = timeout_ms ? timeout_ms / 1000 : SHELL_DEFAULT_TIMEOUT_SECONDS;
      const output: ShellCommandOutput[] = [];
      const change_ids: string[] = [];
      for (const command of commands) {
        const r = await run(command, seconds, ctx);
        if (r.change_id) change_ids.push(r.change_id);
        output.push({
          stdout: capOutput(r.stdout, max_output_length),
          stderr: capOutput(r.stderr, max_output_length),
          outcome: r.timed_out ? { type: 'timeout' } : { type: 'exit', exit_code: r.exit_code },
        });
      }
      return { output, max_output_length: max_output_length ?? null, change_ids };
    },
    present: presentShell,
  });
}

/** The envelope as a `shell_call_output`'s output list (a refused call reads as one failed command). */
export function presentShell(envelope: Envelope): ShellCallOutput {
  if (envelope.ok) {
    const r = envelope.result as { output: ShellCommandOutput[]; max_output_length: number | null };
    return { output: r.output, max_output_length: r.max_output_length };
  }
  const { code, message, hint } = envelope.error;
  return {
    output: [
      { stdout: '', stderr: `${code}: ${message}${hint ? `\n${hint}` : ''}`, outcome: { type: 'exit', exit_code: 1 } },
    ],
    max_output_length: null,
  };
}
