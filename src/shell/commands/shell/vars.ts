import { UsageError, type CommandFn } from '../../context.js';

/** `name=value` and `name+=value` as one argument. */
export const ASSIGN = /^([A-Za-z_][A-Za-z0-9_]*)(\+?)=(.*)$/s;

/** unset and export (local, declare, typeset and readonly load on first use: see declare.ts). */
export const varBuiltins: Record<string, CommandFn> = {
  unset: async (ctx) => {
    const s = ctx.shell.state;
    let functions = false;
    for (const a of ctx.args) {
      if (a === '-f') functions = true;
      else if (a === '-v') functions = false;
      else if (functions) s.functions.delete(a);
      else {
        const el = /^([A-Za-z_][A-Za-z0-9_]*)\[(.*)\]$/.exec(a);
        if (el) {
          s.arrays.get(el[1]!)?.delete(el[2]!);
          continue;
        }
        s.vars.delete(a);
        s.arrays.delete(a);
        s.assoc.delete(a);
        s.exported.delete(a);
      }
    }
    return 0;
  },
  export: async (ctx) => {
    const s = ctx.shell.state;
    for (const a of ctx.args) {
      if (a === '-n' || a === '-p') throw new UsageError(`${a}: this option is not supported by this shell`, 2);
      const m = ASSIGN.exec(a);
      const name = m ? m[1]! : a;
      if (m) ctx.shell.setVar(name, m[2] ? (ctx.shell.getVar(name) ?? '') + m[3]! : m[3]!);
      s.exported.add(name);
    }
    return 0;
  },
};
