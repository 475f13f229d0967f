import { parseArgs, UsageError, type ParsedArgs } from './args.js';

// The workspace options every command shares, plus the agent's own; flags take no value.
const AGENT_ARGS = {
  valueOptions: new Set([
    'root',
    'backend',
    'from',
    'tools',
    'toolset',
    'artifacts',
    'sandbox',
    'endpoint',
    'model',
    'api',
    'max-steps',
    'token-budget',
    'max-tokens',
    'transcript',
    'instructions',
    'approve',
    'max-background-wait',
  ]),
  flags: new Set(['json', 'vision', 'allow-broad-root']),
  command: 'agent',
};

/**
 * Parse `sandpit agent`'s arguments (everything after the word `agent`) into the same shape
 * the other commands use, so the workspace is chosen by the same rules.
 */
export function parseAgentArgs(argv: readonly string[]): ParsedArgs {
  const parsed = parseArgs(argv, AGENT_ARGS);
  parsed.positionals.unshift('agent');
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
