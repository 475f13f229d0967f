import { UsageError, type ParsedArgs } from '../cli/args.js';
import type { EarlyHttp } from './http-early.js';
import { cliSecret } from '../process/sandbox-relaunch.js';
import { toolsetInstructions } from '../../toolsets/instructions.js';

// What `sandpit mcp --http` needs before anything heavy loads: where to listen and the token.

/** --http [HOST:]PORT: where to listen (HOST default 127.0.0.1; PORT 0 picks a free one). */
export function httpOption(value: string): { host: string; port: number } {
  const match = /^(?:\[([0-9a-fA-F:]+)\]|([^:]+)):(\d+)$|^(\d+)$/.exec(value);
  const port = Number(match?.[3] ?? match?.[4]);
  if (!match || !Number.isInteger(port) || port > 65535)
    throw new UsageError('--http takes [HOST:]PORT, e.g. 8080 or 127.0.0.1:8080');
  return { host: match[1] ?? match[2] ?? '127.0.0.1', port };
}

/** The bearer token from the variable --auth-token-env names (never the token itself on the command line). */
export function authToken(name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  // the relaunched CLI keeps credentials in memory, not in its environment
  const token = cliSecret(name);
  if (!token) throw new UsageError(`--auth-token-env names ${name.slice(0, 60)}, which is not set or empty`);
  return token;
}

/**
 * Who may use an HTTP server: the token --auth-token-env names, or anyone who reaches the port
 * when --no-auth says so. Neither is refused: any local user or process could otherwise run the
 * tools (and run_command) as the user who started the server.
 */
export function httpAuth(args: ParsedArgs): { authToken?: string } {
  const open = args.flags.has('no-auth');
  const named = args.options.get('auth-token-env');
  if (!args.options.has('http')) {
    if (open || named !== undefined) throw new UsageError(`--${open ? 'no-auth' : 'auth-token-env'} goes with --http`);
    return {};
  }
  if (open && named !== undefined)
    throw new UsageError('--no-auth and --auth-token-env contradict each other: pick one');
  if (open) return {};
  if (named === undefined)
    throw new UsageError(
      '--http needs a token: put a long random secret in an environment variable and pass --auth-token-env NAME ' +
        '(clients then send "Authorization: Bearer <secret>"), or pass --no-auth if every local user and process may use these tools',
    );
  return { authToken: authToken(named)! };
}

/** A whole-number option at least `min`, or undefined when not given. */
function count(args: ParsedArgs, name: string, min: number, unit: string): number | undefined {
  const value = args.options.get(name);
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < min)
    throw new UsageError(`--${name} takes a whole number of ${unit}, at least ${min}`);
  return n;
}

/**
 * --max-sessions N, --replay-bytes N (each session's replay buffer), --replay-total-bytes N (all
 * sessions' together): the HTTP server's memory bounds (defaults 256, 32 MiB, 128 MiB).
 */
export function httpLimits(args: ParsedArgs): {
  maxSessions?: number;
  replayBytesPerSession?: number;
  replayBytesTotal?: number;
} {
  const limits = {
    maxSessions: count(args, 'max-sessions', 1, 'sessions'),
    replayBytesPerSession: count(args, 'replay-bytes', 0, 'bytes'),
    replayBytesTotal: count(args, 'replay-total-bytes', 0, 'bytes'),
  };
  const given = Object.entries(limits).filter(([, v]) => v !== undefined);
  if (given.length > 0 && !args.options.has('http'))
    throw new UsageError('--max-sessions, --replay-bytes and --replay-total-bytes go with --http');
  return Object.fromEntries(given);
}

/**
 * Listen where --http says, with --auth-token-env's token, answering initialize while the rest
 * of the server loads, and tell the person where (the line clients and scripts wait for).
 */
export async function listenForCli(args: ParsedArgs): Promise<EarlyHttp> {
  const where = httpOption(args.options.get('http')!);
  const auth = httpAuth(args);
  // The HTTP modules load only for --http; stdio starts without them.
  const { listenEarly } = await import('./http-early.js');
  const early = await listenEarly(
    where,
    auth,
    toolsetInstructions(args.options.get('toolset') ?? 'canonical'),
    httpLimits(args).maxSessions,
  );
  if (auth.authToken === undefined)
    process.stderr.write(
      'sandpit: --no-auth: anyone who can reach this port can use every tool, run_command included\n',
    );
  process.stderr.write(`sandpit: MCP over HTTP at ${early.url}\n`);
  return early;
}
