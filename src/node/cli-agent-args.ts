import { UsageError, type ParsedArgs } from './cli-args.js';

// The workspace options every command shares, plus the agent's own; flags take no value.
const VALUE_OPTIONS = new Set([
  'root', 'backend', 'from', 'tools', 'toolset', 'artifacts',
  'endpoint', 'model', 'api', 'max-steps', 'token-budget', 'max-tokens', 'transcript', 'instructions',
]);
const FLAGS = new Set(['json']);

/**
 * Parse `sandpit agent`'s arguments (everything after the word `agent`) into the same shape
 * the other commands use, so the workspace is chosen by the same rules.
 */
export function parseAgentArgs(argv: readonly string[]): ParsedArgs {
  const parsed: ParsedArgs = { positionals: ['agent'], options: new Map(), flags: new Set() };
  let onlyPositionals = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (onlyPositionals || !arg.startsWith('--')) {
      if (!onlyPositionals && arg.startsWith('-') && arg !== '-') throw new UsageError(`unknown option '${arg.slice(0, 40)}'`);
      parsed.positionals.push(arg);
      continue;
    }
    if (arg === '--') {
      onlyPositionals = true;
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    if (FLAGS.has(name)) {
      if (eq !== -1) throw new UsageError(`--${name} takes no value`);
      parsed.flags.add(name);
      continue;
    }
    if (!VALUE_OPTIONS.has(name)) throw new UsageError(`unknown option '--${name.slice(0, 40)}' for agent`);
    const value = eq !== -1 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined || value === '') throw new UsageError(`--${name} needs a value`);
    if (parsed.options.has(name)) throw new UsageError(`--${name} was given twice`);
    parsed.options.set(name, value);
  }
  return parsed;
}

/** A whole number option, or undefined when absent; anything else is a UsageError. */
export function positiveInt(args: ParsedArgs, name: string): number | undefined {
  const raw = args.options.get(name);
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new UsageError(`--${name} must be a whole number above 0`);
  return value;
}
