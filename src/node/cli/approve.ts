import { nodeBuiltin } from '../../fs/node-builtin.js';
import type { Approver, ApprovalRequest } from '../../workspace/policy.js';
import { UsageError, type ParsedArgs } from './args.js';

/** Where a terminal prompt reads and writes. */
export interface PromptIo {
  input: NodeJS.ReadableStream & { isTTY?: boolean };
  output: NodeJS.WritableStream;
}

// readline loads with the first question, not with the CLI's first module: every command starts without it.
const readline = () => nodeBuiltin<typeof import('node:readline')>('node:readline');

const clip = (text: string, max = 300) => (text.length > max ? `${text.slice(0, max)}…` : text);

/** What the person is asked, with the paths or the call it is about. */
export function approvalQuestion(request: ApprovalRequest): string {
  if (request.action === 'run') {
    const args = request.args === undefined ? '' : ` ${clip(JSON.stringify(request.args))}`;
    return `Allow the tool ${request.paths[0] ?? request.tool} to run with${args || ' no arguments'}?`;
  }
  const verb = { delete: 'delete', overwrite: 'change', move: 'move' }[request.action];
  return `Allow ${request.tool} to ${verb}:\n${request.paths.map((p) => `  ${p}`).join('\n')}\n?`;
}

/**
 * Ask on the terminal, one question at a time (parallel calls queue up): only `y` or `yes`
 * allows; anything else, or the input closing, refuses.
 */
export function terminalApprover(io: PromptIo): Approver {
  let queue: Promise<unknown> = Promise.resolve();
  const ask = (request: ApprovalRequest) =>
    new Promise<boolean>((resolve) => {
      const rl = readline().createInterface({ input: io.input, output: io.output, terminal: false });
      let answered = false;
      rl.once('line', (line) => {
        answered = true;
        rl.close();
        resolve(/^\s*y(es)?\s*$/i.test(line));
      });
      rl.once('close', () => {
        if (!answered) resolve(false);
      });
      io.output.write(`${approvalQuestion(request)} [y/N] `);
    });
  return (paths, action, request) => {
    const turn = queue.then(() => ask(request ?? { action, paths, tool: '' }));
    queue = turn.catch(() => false);
    return turn;
  };
}

/**
 * The approver `--approve` and the terminal give: `--approve all` allows every confirmation;
 * otherwise a terminal on stdin is asked, and with no terminal there is no approver, so the
 * confirmations a toolset promises are refused (CONFIRMATION_DENIED).
 */
export function cliApprover(
  args: ParsedArgs,
  io: PromptIo = { input: process.stdin, output: process.stderr },
): Approver | undefined {
  const mode = args.options.get('approve');
  if (mode !== undefined && mode !== 'all')
    throw new UsageError('--approve takes only all (allow every confirmation without asking)');
  if (mode === 'all') return () => true;
  return io.input.isTTY ? terminalApprover(io) : undefined;
}
