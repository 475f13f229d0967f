import { writeFile } from 'node:fs/promises';
import { createProvider, guessApi, type ApiKind } from '../../agent/provider.js';
import { runAgent } from '../../agent/loop.js';
import { TranscriptRecorder } from '../../agent/transcript.js';
import type { AgentEvent } from '../../agent/events.js';
import { cliApprover } from './approve.js';
import { UsageError, workspaceSource } from './args.js';
import { taskInbox } from '../../agent/task-inbox.js';
import { parseAgentArgs, positiveInt } from './agent-args.js';
import { openCliWorkspace } from './open.js';
import { cliSecret } from '../process/sandbox-relaunch.js';

/** Exit codes: the model answered, a model error, a limit ended the run, or Ctrl-C stopped it. */
const EXIT = { answered: 0, error: 1, step_limit: 3, token_budget: 3, stopped: 130 } as const;

const clip = (text: string, max = 160) => (text.length > max ? `${text.slice(0, max)}…` : text);

/** The key from the environment, never the command line (where other users could read it). */
function apiKey(api: ApiKind): string | undefined {
  return (
    cliSecret('SANDPIT_API_KEY') || cliSecret(api === 'anthropic' ? 'ANTHROPIC_API_KEY' : 'OPENAI_API_KEY') || undefined
  );
}

/** How one event reads in a terminal: text streams as it comes, each call and result on its own line. */
function render(event: AgentEvent, write: (text: string) => void, state: { midLine: boolean }): void {
  const line = (text: string) => {
    write(`${state.midLine ? '\n' : ''}${text}\n`);
    state.midLine = false;
  };
  if (event.type === 'start') line(`agent: ${event.model} over the ${event.api} API, ${event.tools.length} tools`);
  else if (event.type === 'text') {
    write(event.delta);
    state.midLine = !event.delta.endsWith('\n');
  } else if (event.type === 'tool_call')
    line(`  -> ${event.call.name} ${clip(event.call.parse_error ? event.call.raw : JSON.stringify(event.call.args))}`);
  else if (event.type === 'tool_result') {
    const e = event.envelope;
    line(
      e.ok
        ? `  ok ${e.tool} ${clip(JSON.stringify(e.result))}`
        : `  failed ${e.tool} ${e.error.code}: ${clip(e.error.message)}`,
    );
  } else if (event.type === 'notes') for (const note of event.notes) line(`  [info: ${clip(note)}]`);
  else if (event.type === 'waiting')
    line(`  (waiting for ${event.tasks} background task${event.tasks === 1 ? '' : 's'})`);
  else if (event.type === 'retry')
    line(`  (the endpoint answered ${event.status}; retrying in ${Math.round(event.delay_ms / 100) / 10} s)`);
  else if (event.type === 'done') {
    line(
      `done: ${event.reason.replace('_', ' ')} after ${event.steps} step${event.steps === 1 ? '' : 's'}, ${event.usage.input_tokens} input and ${event.usage.output_tokens} output tokens`,
    );
  }
}

/**
 * `sandpit agent --root DIR --endpoint URL --model NAME [--toolset NAME] "task"`: run the agent
 * loop on the folder, print each step as it happens, and exit when the run ends.
 */
export async function agentCommand(argv: readonly string[]): Promise<number> {
  const args = parseAgentArgs(argv);
  const task = args.positionals.slice(1).join(' ').trim();
  if (task === '')
    throw new UsageError(
      'agent needs a task, e.g. sandpit agent --root . --endpoint URL --model NAME "fix the failing test"',
    );
  const endpoint = args.options.get('endpoint');
  const model = args.options.get('model');
  if (endpoint === undefined || model === undefined)
    throw new UsageError('agent needs --endpoint URL and --model NAME');
  if (!/^https?:\/\//i.test(endpoint)) throw new UsageError('--endpoint must be an http:// or https:// URL');
  const apiOption = args.options.get('api');
  if (apiOption !== undefined && apiOption !== 'openai' && apiOption !== 'anthropic')
    throw new UsageError('--api must be openai or anthropic');
  if (!args.options.has('root') && !args.options.has('from'))
    throw new UsageError('agent needs --root DIR (or --from DIR to work on an in-memory copy)');
  const maxSteps = positiveInt(args, 'max-steps');
  const tokenBudget = positiveInt(args, 'token-budget');
  const maxTokens = positiveInt(args, 'max-tokens');
  const transcriptFile = args.options.get('transcript');
  const waitMinutes = args.options.get('max-background-wait');
  const maxBackgroundWaitMinutes = waitMinutes === undefined ? undefined : Number(waitMinutes);
  if (
    maxBackgroundWaitMinutes !== undefined &&
    !(Number.isFinite(maxBackgroundWaitMinutes) && maxBackgroundWaitMinutes >= 0)
  ) {
    throw new UsageError('--max-background-wait must be a number of minutes, 0 or more');
  }
  const approver = cliApprover(args);
  const vision = args.flags.has('vision');

  if (transcriptFile !== undefined) {
    // Found out now, not after a run whose transcript could then not be kept.
    await writeFile(transcriptFile, '').catch((error: { code?: string }) => {
      throw new UsageError(`the --transcript file cannot be written (${error.code ?? 'unknown error'})`);
    });
  }
  const api = apiOption ?? guessApi(endpoint);
  const key = apiKey(api);
  const provider = createProvider({
    endpoint,
    model,
    api,
    vision,
    ...(maxTokens ? { maxTokens } : {}),
    ...(key ? { apiKey: key } : {}),
  });
  // runAgent tells the tools (ZAGENT_CAPS) what this provider's model takes, from --vision.
  const { ws, set, tasks } = await openCliWorkspace(workspaceSource(args), {
    toolset: args.options.get('toolset'),
    artifactDir: args.options.get('artifacts'),
    ...(approver ? { confirm: approver } : {}),
  });
  const inbox = tasks ? taskInbox(tasks) : undefined;
  const stop = new AbortController();
  const onSigint = () => stop.abort();
  process.once('SIGINT', onSigint);
  const recorder = new TranscriptRecorder();
  const state = { midLine: false };
  const json = args.flags.has('json');
  try {
    const outcome = await runAgent({
      workspace: ws,
      provider,
      task,
      signal: stop.signal,
      toolset: set,
      ...(inbox ? { inbox } : {}),
      ...(maxBackgroundWaitMinutes !== undefined ? { maxBackgroundWaitMinutes } : {}),
      ...(maxSteps ? { maxSteps } : {}),
      ...(tokenBudget ? { tokenBudget } : {}),
      ...(args.options.has('instructions') ? { instructions: args.options.get('instructions')! } : {}),
      onEvent: (event) => {
        recorder.listen(event);
        if (json) process.stdout.write(`${JSON.stringify(event)}\n`);
        else render(event, (text) => process.stdout.write(text), state);
      },
    });
    if (outcome.error) process.stderr.write(`sandpit agent: ${outcome.error.code}: ${outcome.error.message}\n`);
    if (transcriptFile !== undefined) await writeFile(transcriptFile, recorder.toJsonl());
    return EXIT[outcome.reason];
  } finally {
    process.off('SIGINT', onSigint);
    inbox?.close();
    await ws.close();
  }
}
