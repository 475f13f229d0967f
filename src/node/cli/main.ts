import { readFileSync } from 'node:fs';
import type { Envelope } from '../../workspace-core.js';
import { cliApprover } from './approve.js';
import { parseArgs, UsageError, workspaceSource, type ParsedArgs } from './args.js';
import { HELP, USAGE } from './help.js';
import type { OpenReport } from './open.js';

// The workspace modules load only once a command needs them, so --help and usage errors answer fast.
const loadOpen = () => import('./open.js');

/** Write without outrunning a slow pipe, so a long replay neither buffers nor loses output. */
function out(text: string): Promise<void> {
  return new Promise((resolve) => {
    if (process.stdout.write(text)) resolve();
    else process.stdout.once('drain', resolve);
  });
}

const json = (value: unknown, pretty: boolean) => `${JSON.stringify(value, null, pretty ? 2 : undefined)}\n`;

function expectPositionals(args: ParsedArgs, min: number, max: number, shape: string): void {
  const count = args.positionals.length - 1;
  if (count < min || count > max) throw new UsageError(`${args.positionals[0]} takes ${shape}`);
}

function tellSkipped(report: OpenReport): void {
  if (report.skipped > 0)
    process.stderr.write(`sandpit: ${report.skipped} entries under --from could not be copied and were left out\n`);
}

const toolsetOptions = (args: ParsedArgs) => {
  const confirm = cliApprover(args);
  return {
    toolset: args.options.get('toolset'),
    artifactDir: args.options.get('artifacts'),
    ...(confirm ? { confirm } : {}),
  };
};

async function callCommand(args: ParsedArgs): Promise<void> {
  expectPositionals(args, 1, 2, 'TOOL and optionally its JSON arguments');
  if (!args.options.has('root') && !args.options.has('from')) {
    throw new UsageError('call needs --root DIR (or --from DIR to work on an in-memory copy)');
  }
  const source = workspaceSource(args);
  const [, tool, rawArgs] = args.positionals as [string, string, string | undefined];
  const { ws, report, set } = await (await loadOpen()).openCliWorkspace(source, {
    ...toolsetOptions(args),
    oneCall: true,
  });
  tellSkipped(report);
  let envelope: Envelope;
  try {
    envelope = await ws.call(tool, rawArgs === undefined ? {} : JSON.parse(rawArgs));
  } catch (error) {
    // Bad argument JSON is the caller's mistake about the tool, so it gets an envelope like any other.
    envelope = {
      ok: false,
      tool,
      error: {
        code: 'INVALID_ARGUMENTS',
        message: `the arguments are not valid JSON (${(error as Error).message})`,
        hint: `Pass one JSON object, e.g. sandpit call ${tool} '{"path": "README.md"}' --root DIR.`,
        problems: [{ path: '', message: 'must be valid JSON' }],
      },
    };
  }
  await ws.close();
  await out(json(set.present(envelope), args.flags.has('pretty')));
}

async function replayCommand(args: ParsedArgs): Promise<void> {
  expectPositionals(args, 1, 1, 'one FILE (or - for stdin)');
  if (args.flags.has('pretty')) throw new UsageError('replay prints one envelope per line; --pretty would break that');
  const source = workspaceSource(args);
  const { openTranscript, replay } = await import('./replay.js');
  const { ws, report, set } = await (await loadOpen()).openCliWorkspace(source, toolsetOptions(args));
  const input = await openTranscript(args.positionals[1]!, process.stdin);
  tellSkipped(report);
  try {
    await replay(ws, input, (envelope) => out(json(set.present(envelope), false)));
  } finally {
    await ws.close();
  }
}

/**
 * `sandpit doctor --tools DIR`: every manifest with OK or its exact problem. `sandpit doctor
 * --root DIR [--repair]`: check the snapshot history, and with --repair reset a damaged branch to
 * its newest intact commit. Exit 1 when anything is still broken.
 */
async function doctorCommand(args: ParsedArgs): Promise<number> {
  expectPositionals(args, 0, 0, 'no arguments, only --tools DIR or --root DIR [--repair]');
  const toolsDir = args.options.get('tools');
  const root = args.options.get('root');
  if (toolsDir === undefined && root === undefined) throw new UsageError('doctor needs --tools DIR or --root DIR');
  if (args.flags.has('repair') && root === undefined) throw new UsageError('--repair needs --root DIR');
  let healthy = true;
  if (toolsDir !== undefined) {
    const { doctorReport } = await import('../manifests/doctor.js');
    const { BUILTIN_TOOL_NAMES } = await import('../node-tools.js');
    const report = doctorReport(toolsDir, BUILTIN_TOOL_NAMES);
    await out(report.text.endsWith('\n') ? report.text : `${report.text}\n`);
    healthy = report.healthy;
  }
  if (root !== undefined) {
    const { doctorHistory } = await import('./doctor.js');
    const report = await doctorHistory(root, args.flags.has('repair'));
    await out(report.text);
    healthy &&= report.healthy;
  }
  return healthy ? 0 : 1;
}

/** What `sandpit tools --format` can print: each API's own tool list. */
const TOOL_FORMATS = ['openai', 'openai-responses', 'anthropic', 'mcp'] as const;

async function toolsCommand(args: ParsedArgs): Promise<void> {
  expectPositionals(args, 0, 0, 'no arguments');
  const { nodeTools } = await import('../node-tools.js');
  const { nodeToolset } = await import('../mcp/workspace.js');
  const name = (await loadOpen()).cliToolsetName(args.options.get('toolset'));
  const node = nodeTools({ toolsDir: args.options.get('tools') });
  const format = args.options.get('format');
  if (format !== undefined && !(TOOL_FORMATS as readonly string[]).includes(format))
    throw new UsageError(`--format takes ${TOOL_FORMATS.join(', ')}`);
  if (args.flags.has('strict') && format !== 'openai' && format !== 'openai-responses')
    throw new UsageError('--strict applies to --format openai or openai-responses');
  const set = nodeToolset(name, node, args.options.get('artifacts'));
  const strict = args.flags.has('strict');
  const tools =
    format === 'openai'
      ? set.toOpenAI({ strict })
      : format === 'openai-responses'
        ? set.toOpenAI({ api: 'responses', strict })
        : format === 'anthropic'
          ? set.toAnthropic()
          : format === 'mcp'
            ? set.toMcp()
            : set.tools.map((t) => ({
                name: t.name,
                title: t.title ?? t.name,
                description: t.description,
                ...(args.flags.has('schemas')
                  ? { input_schema: t.schema, output_schema: t.resultSchema, annotations: t.annotations }
                  : {}),
              }));
  await node.close();
  await out(json(tools, args.flags.has('pretty')));
}

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}

/**
 * Run one command line and answer its exit status. Writes to this process's stdout and stderr; the
 * bin (src/node/cli.ts) adds what belongs to a whole process: the relaunch without credentials and
 * a closed pipe ending it quietly.
 */
export async function main(argv: string[]): Promise<number> {
  try {
    // The agent has options of its own (--endpoint, --model, ...), so it parses its own argv.
    if (argv[0] === 'agent' && !argv.includes('--help') && !argv.includes('-h'))
      return await (await import('./agent.js')).agentCommand(argv.slice(1));
    if (['clone', 'push', 'pull'].includes(argv[0] ?? '') && !argv.includes('--help') && !argv.includes('-h')) {
      return await (await import('./git.js')).gitCommand(argv[0] as 'clone' | 'push' | 'pull', argv.slice(1));
    }
    if (['merge', 'fork'].includes(argv[0] ?? '') && !argv.includes('--help') && !argv.includes('-h'))
      return await (await import('./merge.js')).mergeCommand(argv[0] as 'merge' | 'fork', argv.slice(1));
    if (['review', 'blame'].includes(argv[0] ?? '') && !argv.includes('--help') && !argv.includes('-h'))
      return await (await import('./review.js')).reviewCommand(argv[0] as 'review' | 'blame', argv.slice(1));
    const args = parseArgs(argv);
    const command = args.positionals[0];
    if (args.flags.has('help') || command === 'help') await out(HELP);
    else if (args.flags.has('version')) await out(`${version()}\n`);
    else if (command === 'call') await callCommand(args);
    else if (command === 'replay') await replayCommand(args);
    else if (command === 'tools') await toolsCommand(args);
    else if (command === 'doctor') return await doctorCommand(args);
    else if (command === 'mcp') await (await import('./mcp-start.js')).mcpStart(args);
    else throw new UsageError(command === undefined ? 'no command given' : `unknown command '${command.slice(0, 40)}'`);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`sandpit: ${error.message}\n${USAGE}\n`);
      return 2;
    }
    // Unexpected: the message could hold a host path, so only its kind is shown unless debugging.
    process.stderr.write(`sandpit: internal error (${(error as Error)?.name ?? 'unknown'})\n`);
    if (process.env.SANDPIT_DEBUG) process.stderr.write(`${(error as Error)?.stack ?? String(error)}\n`);
    return 1;
  }
}
