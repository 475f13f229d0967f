import { UsageError, type CommandContext, type CommandFn } from '../../context.js';
import { ASSIGN } from './vars.js';

/** Split `name=(a b c)` text from an argument (local/declare get it already expanded, as one word). */
function arrayItems(value: string): string[] | null {
  if (!value.startsWith('(') || !value.endsWith(')')) return null;
  return value.slice(1, -1).split(/\s+/).filter(Boolean);
}

/** Remember a variable's value in the running function's frame, once, so the call's end restores it. */
function saveLocal(ctx: CommandContext, name: string): void {
  const s = ctx.shell.state;
  const frame = s.frames[s.frames.length - 1];
  if (!frame) throw new UsageError('can only be used in a function');
  if (frame.has(name)) return;
  const array = s.arrays.get(name);
  frame.set(name, {
    ...(s.vars.has(name) ? { value: s.vars.get(name)! } : {}),
    ...(array ? { array } : {}),
    assoc: s.assoc.has(name),
  });
  s.vars.delete(name);
  s.arrays.delete(name);
  s.assoc.delete(name);
}

/** `local` (true) or `declare`, `typeset` and `readonly` (false). */
export function declare(local: boolean): CommandFn {
  return async (ctx) => {
    const s = ctx.shell.state;
    const flags = new Set<string>();
    let i = 0;
    for (; i < ctx.args.length && /^[-+][a-zA-Z]+$/.test(ctx.args[i]!); i++)
      for (const c of ctx.args[i]!.slice(1)) flags.add(c);
    for (const f of flags)
      if (!'aAxrigp'.includes(f)) throw new UsageError(`-${f}: this option is not supported by this shell`, 2);
    if (flags.has('p')) {
      for (const name of ctx.args.slice(i)) {
        const arr = s.arrays.get(name);
        if (arr)
          ctx.out(
            `declare -${s.assoc.has(name) ? 'A' : 'a'} ${name}=(${[...arr].map(([k, v]) => `[${k}]="${v}"`).join(' ')})\n`,
          );
        else if (s.vars.has(name)) ctx.out(`declare -- ${name}="${s.vars.get(name)}"\n`);
        else {
          ctx.err(`declare: ${name}: not found\n`);
          return 1;
        }
      }
      return 0;
    }
    for (const arg of ctx.args.slice(i)) {
      const m = ASSIGN.exec(arg);
      const name = m ? m[1]! : arg;
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new UsageError(`\`${arg}': not a valid identifier`);
      if (local || (s.frames.length > 0 && !flags.has('g'))) {
        if (s.frames.length > 0) saveLocal(ctx, name);
        else if (local) throw new UsageError('can only be used in a function');
      }
      if (flags.has('A')) s.assoc.add(name);
      if ((flags.has('a') || flags.has('A')) && !s.arrays.has(name)) {
        s.vars.delete(name);
        s.arrays.set(name, new Map());
      }
      if (flags.has('x')) s.exported.add(name);
      if (!m) {
        if (!s.arrays.has(name) && !s.vars.has(name) && !flags.has('a') && !flags.has('A') && local)
          s.vars.set(name, '');
        continue;
      }
      let value = m[3]!;
      const items = arrayItems(value);
      if (items) {
        const arr = new Map<string, string>();
        items.forEach((v, n) => {
          const keyed = /^\[([^\]]*)\]=(.*)$/.exec(v);
          if (keyed) arr.set(keyed[1]!, keyed[2]!.replace(/^"(.*)"$/, '$1'));
          else arr.set(String(n), v.replace(/^"(.*)"$/, '$1'));
        });
        s.vars.delete(name);
        s.arrays.set(name, arr);
        continue;
      }
      if (flags.has('i')) value = String(Number(value) || 0);
      if (m[2]) value = (ctx.shell.getVar(name) ?? '') + value;
      ctx.shell.setVar(name, value);
    }
    return 0;
  };
}
