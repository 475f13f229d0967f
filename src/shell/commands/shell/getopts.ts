import type { CommandFn } from '../../context.js';

/** `getopts SPEC NAME [ARGS]`: the next option of the positional parameters (or ARGS), as POSIX says. */
export const getopts: CommandFn = async (ctx) => {
  const [spec = '', name = 'OPTARG', ...given] = ctx.args;
  const sh = ctx.shell;
  const args = given.length ? given : sh.state.args;
  let index = Number(sh.getVar('OPTIND') ?? 1) || 1;
  let offset = Number(sh.getVar('_OPTPOS') ?? 1) || 1;
  const arg = args[index - 1];
  if (arg === undefined || arg === '--' || !arg.startsWith('-') || arg === '-') {
    if (arg === '--') index++;
    sh.setVar('OPTIND', String(index));
    sh.setVar(name, '?');
    return 1;
  }
  const letter = arg[offset]!;
  const next = () => {
    if (offset + 1 < arg.length) offset++;
    else {
      index++;
      offset = 1;
    }
  };
  const at = spec.indexOf(letter);
  const silent = spec.startsWith(':');
  if (at < 0 || letter === ':') {
    next();
    sh.setVar(name, '?');
    if (silent) sh.setVar('OPTARG', letter);
    else ctx.err(`sh: illegal option -- ${letter}\n`);
  } else if (spec[at + 1] === ':') {
    let value: string | undefined = arg.slice(offset + 1);
    index++;
    offset = 1;
    if (value === '') value = args[index++ - 1];
    if (value === undefined) {
      sh.setVar(name, silent ? ':' : '?');
      if (silent) sh.setVar('OPTARG', letter);
      else ctx.err(`sh: option requires an argument -- ${letter}\n`);
    } else {
      sh.setVar(name, letter);
      sh.setVar('OPTARG', value);
    }
  } else {
    next();
    sh.setVar(name, letter);
  }
  sh.setVar('OPTIND', String(index));
  sh.setVar('_OPTPOS', String(offset));
  return 0;
};
