import { UsageError, type CommandContext, type CommandFn } from '../../context.js';

/** kill's option letters for the flags test; `-9`, `-TERM`, `-s SIG` and `-n NUM` name the signal, checked before anything else. */
export const KILL_FLAGS = 'l' as const;

const NAMES = [
  'HUP',
  'INT',
  'QUIT',
  'ILL',
  'TRAP',
  'ABRT',
  'BUS',
  'FPE',
  'KILL',
  'USR1',
  'SEGV',
  'USR2',
  'PIPE',
  'ALRM',
  'TERM',
  'STKFLT',
  'CHLD',
  'CONT',
  'STOP',
  'TSTP',
  'TTIN',
  'TTOU',
  'URG',
  'XCPU',
  'XFSZ',
  'VTALRM',
  'PROF',
  'WINCH',
  'IO',
  'PWR',
  'SYS',
];

/** Linux's signals by number, real-time ones named as bash names them. */
function signalName(n: number): string | undefined {
  if (n >= 1 && n <= 31) return NAMES[n - 1];
  if (n === 34) return 'RTMIN';
  if (n > 34 && n <= 49) return `RTMIN+${n - 34}`;
  if (n >= 50 && n < 64) return `RTMAX-${64 - n}`;
  if (n === 64) return 'RTMAX';
  return undefined;
}

function signalNumber(spec: string): number | undefined {
  if (/^\d+$/.test(spec)) return signalName(Number(spec)) ? Number(spec) : spec === '0' ? 0 : undefined;
  const name = spec.toUpperCase().replace(/^SIG/, '');
  for (let n = 1; n <= 64; n++) if (signalName(n) === name) return n;
  return undefined;
}

/** `kill -l`: every signal as bash lays them out, five to a line; with operands, name <-> number. */
function list(ctx: CommandContext, specs: string[]): number {
  if (specs.length === 0) {
    const cells: string[] = [];
    for (let n = 1; n <= 64; n++) {
      const name = signalName(n);
      if (name) cells.push(`${String(n).padStart(2)}) SIG${name}`);
    }
    for (let i = 0; i < cells.length; i += 5)
      ctx.out(`${cells.slice(i, i + 5).join('\t')}${i + 5 >= cells.length && cells.length % 5 ? '\t' : ''}\n`);
    return 0;
  }
  let status = 0;
  for (const spec of specs) {
    // An exit status above 128 names the signal that ended a process.
    const n = /^\d+$/.test(spec) ? Number(spec) % (Number(spec) > 128 ? 128 : 256) : undefined;
    const answer = n !== undefined ? signalName(n) : signalNumber(spec)?.toString();
    if (answer === undefined) {
      ctx.err(`${ctx.name}: ${spec}: invalid signal specification\n`);
      status = 1;
    } else ctx.out(`${answer}\n`);
  }
  return status;
}

/**
 * kill: this shell runs a `cmd &` to its end before the next command, so by the time `kill` runs
 * no job of its own is alive and no other process exists: every target is answered as bash
 * answers one that has already ended. `kill -l` lists Linux's signals.
 */
export const kill: CommandFn = async (ctx) => {
  const args = [...ctx.args];
  if (args[0] === '-l' || args[0] === '-L') return list(ctx, args.slice(1));
  let signal = 'TERM';
  if (args[0] === '-s' || args[0] === '-n') {
    args.shift();
    signal = args.shift() ?? '';
  } else if (args[0]?.startsWith('-') && args[0] !== '--' && args[0].length > 1) signal = args.shift()!.slice(1);
  if (args[0] === '--') args.shift();
  if (signalNumber(signal) === undefined) {
    ctx.err(`${ctx.name}: ${signal}: invalid signal specification\n`);
    return 1;
  }
  if (args.length === 0)
    throw new UsageError('usage: kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]', 2);
  for (const target of args) {
    if (target.startsWith('%')) ctx.err(`${ctx.name}: ${target}: no such job\n`);
    else if (/^-?\d+$/.test(target)) ctx.err(`${ctx.name}: (${target}) - No such process\n`);
    else ctx.err(`${ctx.name}: ${target}: arguments must be process or job IDs\n`);
  }
  return 1;
};

/** jobs: no job outlives the command that started it here (see kill), so the list is empty. */
export const jobs: CommandFn = async (ctx) => {
  for (const a of ctx.args) {
    if (a.startsWith('-') && !/^-[lnprs]+$/.test(a)) throw new UsageError(`${a}: invalid option`, 2);
    if (!a.startsWith('-')) {
      ctx.err(`${ctx.name}: ${a}: no such job\n`);
      return 1;
    }
  }
  return 0;
};

/** wait: every background command has already ended, so there is nothing to wait for. */
export const wait: CommandFn = async (ctx) => {
  let status = 0;
  for (const a of ctx.args) {
    if (a === '-n' || a === '-f') continue;
    if (a.startsWith('%')) ctx.err(`${ctx.name}: ${a}: no such job\n`);
    else if (/^\d+$/.test(a)) ctx.err(`${ctx.name}: pid ${a} is not a child of this shell\n`);
    else ctx.err(`${ctx.name}: \`${a}': not a pid or valid job spec\n`);
    status = 127;
  }
  return status;
};
