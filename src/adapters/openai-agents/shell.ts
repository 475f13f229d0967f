import type { Shell, ShellAction, ShellResult } from '@openai/agents';
import type { ShellCallOutput } from '../../toolsets/native/openai-shell.js';
import { errorText, type ToolHost } from '../shared/tool-host.js';

/**
 * The Agents SDK's `Shell` (for `shellTool`) over a workspace made with the `openai` toolset:
 * the action's commands run one after another through its `shell` tool (the OS sandbox in Node,
 * the built-in shell in a browser), each answered with stdout, stderr and its exit code or
 * timeout. A refused call reads as one failed command carrying the reason.
 */
export function sandpitShell(workspace: ToolHost): Shell {
  return {
    async run(action: ShellAction): Promise<ShellResult> {
      const envelope = await workspace.call('shell', {
        action: {
          commands: action.commands,
          ...(action.timeoutMs !== undefined ? { timeout_ms: action.timeoutMs } : {}),
          ...(action.maxOutputLength !== undefined ? { max_output_length: action.maxOutputLength } : {}),
        },
      });
      if (!envelope.ok)
        return { output: [{ stdout: '', stderr: errorText(envelope), outcome: { type: 'exit', exitCode: 1 } }] };
      const r = envelope.result as ShellCallOutput;
      return {
        output: r.output.map((c) => ({
          stdout: c.stdout,
          stderr: c.stderr,
          outcome: c.outcome.type === 'timeout' ? { type: 'timeout' } : { type: 'exit', exitCode: c.outcome.exit_code },
        })),
        ...(r.max_output_length !== null ? { maxOutputLength: r.max_output_length } : {}),
      };
    },
  };
}
