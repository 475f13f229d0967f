import { parseArgs as parseNodeArgs, type ParseArgsConfig } from 'node:util';

/**
 * Node's own option parser for a verb with options of its own (strict, positionals allowed), its
 * refusal as a UsageError naming the verb on one line.
 */
export function parseVerbArgs<O extends NonNullable<ParseArgsConfig['options']>>(
  verb: string,
  argv: string[],
  options: O,
): ReturnType<typeof parseNodeArgs<{ args: string[]; options: O; allowPositionals: true; strict: true }>> {
  try {
    return parseNodeArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(`${verb}: ${(error as Error).message.split('\n')[0]!.slice(0, 200)}`);
  }
}

/** A command line the CLI cannot act on; the CLI prints it with the usage line and exits 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** The parsed command line: the words in order, and the `--name value` options by name. */
export interface ParsedArgs {
  positionals: string[];
  options: Map<string, string>;
  flags: Set<string>;
}

/** Which options a command knows: those that take a value, and flags; anything else is refused. */
export interface ArgSpec {
  valueOptions: ReadonlySet<string>;
  flags: ReadonlySet<string>;
  /** the command named in an unknown-option error, when it has options of its own */
  command?: string;
}

const COMMON: ArgSpec = {
  valueOptions: new Set([
    'root',
    'backend',
    'from',
    'tools',
    'toolset',
    'artifacts',
    'snapshots',
    'sandbox',
    'approve',
    'format',
    'http',
    'auth-token-env',
    'max-message-bytes',
    'max-sessions',
    'replay-bytes',
    'replay-total-bytes',
  ]),
  flags: new Set(['help', 'pretty', 'schemas', 'version', 'strict', 'repair', 'git', 'no-auth', 'allow-broad-root']),
};
const SHORT: Record<string, string> = { '-h': '--help', '-v': '--version' };

/**
 * Split argv into positionals, valued options and flags. Options may come anywhere, as
 * `--root DIR` or `--root=DIR`; `--` ends them; a lone `-` is a positional (stdin).
 */
export function parseArgs(argv: readonly string[], spec: ArgSpec = COMMON): ParsedArgs {
  const { valueOptions: VALUE_OPTIONS, flags: FLAGS } = spec;
  const forCommand = spec.command ? ` for ${spec.command}` : '';
  const parsed: ParsedArgs = { positionals: [], options: new Map(), flags: new Set() };
  let onlyPositionals = false;
  for (let i = 0; i < argv.length; i++) {
    const raw = argv[i]!;
    const arg = SHORT[raw] ?? raw;
    if (onlyPositionals || arg === '-' || !arg.startsWith('-')) {
      parsed.positionals.push(arg);
      continue;
    }
    if (arg === '--') {
      onlyPositionals = true;
      continue;
    }
    if (!arg.startsWith('--')) throw new UsageError(`unknown option '${arg.slice(0, 40)}'${forCommand}`);
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    if (FLAGS.has(name)) {
      if (eq !== -1) throw new UsageError(`--${name} takes no value`);
      parsed.flags.add(name);
      continue;
    }
    if (!VALUE_OPTIONS.has(name)) throw new UsageError(`unknown option '--${name.slice(0, 40)}'${forCommand}`);
    let value: string | undefined;
    if (eq !== -1) value = arg.slice(eq + 1);
    else value = argv[++i];
    if (value === undefined || value === '') throw new UsageError(`--${name} needs a value`);
    if (parsed.options.has(name)) throw new UsageError(`--${name} was given twice`);
    parsed.options.set(name, value);
  }
  return parsed;
}

/** Where a command's workspace lives, decided from --backend, --root and --from. */
export type WorkspaceSource =
  | { backend: 'node'; root: string; toolsDir?: string; sandbox?: 'os' | 'none'; allowBroadRoot?: boolean }
  | { backend: 'memory'; from?: string };

/**
 * Pick the backend: node when --root is given, else memory (seeded by --from if given).
 * Contradictions are usage errors rather than silent choices, because a wrong guess could
 * write to a real folder the user meant to keep untouched.
 */
export function workspaceSource(args: ParsedArgs): WorkspaceSource {
  const root = args.options.get('root');
  const from = args.options.get('from');
  const backend = args.options.get('backend') ?? (root !== undefined ? 'node' : 'memory');
  if (backend !== 'node' && backend !== 'memory') {
    throw new UsageError(`unknown backend '${backend.slice(0, 40)}' (use memory or node)`);
  }
  if (backend === 'node') {
    if (from !== undefined)
      throw new UsageError('--from seeds the memory backend; it cannot be used with the node backend');
    if (root === undefined) throw new UsageError('the node backend needs --root DIR');
    const toolsDir = args.options.get('tools');
    const sandbox = sandboxOption(args.options.get('sandbox'));
    return {
      backend,
      root,
      ...(toolsDir === undefined ? {} : { toolsDir }),
      ...(sandbox === undefined ? {} : { sandbox }),
      ...(args.flags.has('allow-broad-root') ? { allowBroadRoot: true } : {}),
    };
  }
  if (root !== undefined) {
    throw new UsageError('--root is a real folder for the node backend; to work on a copy in memory use --from DIR');
  }
  if (args.options.has('tools'))
    throw new UsageError('--tools runs programs in a real folder, so it needs --root DIR (the node backend)');
  if (args.flags.has('allow-broad-root'))
    throw new UsageError('--allow-broad-root is about a real folder given to --root; the memory backend has none');
  if (args.options.has('sandbox'))
    throw new UsageError(
      '--sandbox is about running programs in a real folder, so it needs --root DIR (the node backend)',
    );
  return from === undefined ? { backend } : { backend, from };
}

/** --sandbox os|none: where run_command and manifest tools run (default os where bubblewrap works). */
function sandboxOption(value: string | undefined): 'os' | 'none' | undefined {
  if (value === undefined || value === 'os' || value === 'none') return value;
  throw new UsageError(`--sandbox takes os or none, not '${value.slice(0, 40)}'`);
}
