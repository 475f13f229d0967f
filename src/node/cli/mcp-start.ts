import { answerInitializeEarly } from '../mcp/fast-start.js';
import { toolsetInstructions } from '../../toolsets/instructions.js';
import type { ParsedArgs } from './args.js';
import { refuseBroadRoot } from './broad-root.js';

// One module, loaded by main for `sandpit mcp` alone: what answers initialize early comes with it
// in one step (each dynamic import of a module is a file read and a module job before the answer).

/**
 * Answer initialize while the server loads, over stdio (see mcp-fast-start.ts) or HTTP (see
 * mcp-http-early.ts); the rest of the command, most of its usage errors included, runs once loaded.
 */
export async function mcpStart(args: ParsedArgs): Promise<void> {
  // A broad --root is refused before the early initialize answer, so a client never sees it ready.
  const root = args.options.get('root');
  if (root !== undefined && !args.flags.has('help'))
    refuseBroadRoot(root, '--root', args.flags.has('allow-broad-root'));
  const http = args.options.has('http') && !args.flags.has('help');
  // Over HTTP the port is open (and initialize answered) before the heavy modules start loading.
  const earlyHttp = http ? await (await import('../mcp/cli-http.js')).listenForCli(args) : undefined;
  const instructions = toolsetInstructions(args.options.get('toolset') ?? 'canonical');
  const early =
    http || args.flags.has('help')
      ? undefined
      : answerInitializeEarly(process.stdin, process.stdout, instructions, {
          toolsComing: root !== undefined,
        });
  // Only now: the bundled CLI (scripts/build-cli.mjs) reads the rest as one chunk, whose compiling
  // would otherwise come before the early answer was listening.
  const loading = import('../mcp/cli.js');
  try {
    await (await loading).mcpCommand(args, early, earlyHttp);
  } catch (error) {
    early?.abandon();
    await earlyHttp?.close();
    throw error;
  }
}
