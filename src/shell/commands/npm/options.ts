import { UsageError } from '../../context.js';

/** The flags an npm subcommand understood, and its other words. */
export interface NpmArgs {
  words: string[];
  registry?: string;
  saveDev: boolean;
  saveOptional: boolean;
}

/**
 * Read npm's flags: `--registry URL`, `-D`/`--save-dev`, `-O`/`--save-optional`, and
 * `--ignore-scripts` (scripts never run here, so it changes nothing). Any other flag is refused,
 * since an honoured-looking flag that does nothing would mislead.
 */
export function parseNpmArgs(args: string[], allowSave: boolean): NpmArgs {
  const out: NpmArgs = { words: [], saveDev: false, saveOptional: false };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--registry') {
      const value = args[++i];
      if (!value) throw new UsageError('npm error --registry needs a URL');
      out.registry = value;
    } else if (arg.startsWith('--registry=')) out.registry = arg.slice('--registry='.length);
    else if (allowSave && (arg === '-D' || arg === '--save-dev')) out.saveDev = true;
    else if (allowSave && (arg === '-O' || arg === '--save-optional')) out.saveOptional = true;
    else if (arg === '--ignore-scripts' || arg === '--no-audit' || arg === '--no-fund') continue;
    else if (arg.startsWith('-'))
      throw new UsageError(`npm error option '${arg}' is not supported by this shell's npm`);
    else out.words.push(arg);
  }
  return out;
}
