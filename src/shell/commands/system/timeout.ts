import { TimeoutSignal, UsageError, type CommandFn } from '../../context.js';
import { runArgv } from '../util.js';

/** timeout's options: the table the flags test reads. */
export const TIMEOUT_FLAGS = 'sk' as const;

const UNITS: Record<string, number> = { '': 1, s: 1, m: 60, h: 3600, d: 86400 };

/** timeout: run a command with a time limit; past it the command is stopped and the status is 124, as GNU's. */
export const timeout: CommandFn = async (ctx) => {
  let k = 0;
  let signal = 'TERM';
  let preserve = false;
  while (ctx.args[k]?.startsWith('-') && ctx.args[k] !== '--') {
    const a = ctx.args[k]!;
    if (a === '-s') signal = ctx.args[k + 1] ?? '';
    else if (a.startsWith('--signal=')) signal = a.slice(9);
    else if (a === '--preserve-status') preserve = true;
    if (/^-(s|k)$/.test(a)) k += 2;
    else if (/^--(signal|kill-after)=/.test(a) || a === '--preserve-status' || a === '--foreground') k++;
    else throw new UsageError(`invalid option -- '${a.replace(/^-+/, '')}'`, 125);
  }
  if (ctx.args[k] === '--') k++;
  const [duration, ...argv] = ctx.args.slice(k);
  const m = /^(\d+(?:\.\d*)?|\.\d+)([smhd]?)$/.exec(duration ?? '');
  if (!m) throw new UsageError(duration === undefined ? 'missing operand' : `invalid time interval '${duration}'`, 125);
  if (!argv.length) throw new UsageError(`missing operand after '${duration}'`, 125);
  const state = ctx.shell.state;
  const outer = state.deadline;
  const seconds = Number(m[1]) * UNITS[m[2]!]!;
  const limit = seconds === 0 ? outer : Math.min(outer, Date.now() + seconds * 1000);
  state.deadline = limit;
  try {
    return await runArgv(ctx, argv, 'timeout');
  } catch (error) {
    // The command line's own limit (or a kill) still ends everything; only ours gives 124.
    // GNU answers 124, or 128+9 when the signal was KILL (and 128+N under --preserve-status)
    if (error instanceof TimeoutSignal && limit < outer && Date.now() <= outer && !state.stop?.aborted) {
      const kill = /^(SIG)?KILL$|^9$/i.test(signal);
      return kill ? 137 : preserve ? 128 + 15 : 124;
    }
    throw error;
  } finally {
    state.deadline = outer;
  }
};
