// Over 400 lines: the interpreter is one state machine (lists, pipelines, compound commands, functions, errexit); splitting it would scatter that state.
import type { AndOr, Command, List, Pipeline, SimpleCommand, Word } from './ast.js';
import { ShellSyntaxError } from './ast.js';
import { evalArithmetic } from './arith.js';
import { decodeLossy, encodeUtf8 } from './bytes.js';
import { shellPath } from './overlay.js';
import {
  errorText,
  ExitSignal,
  LoopSignal,
  ReturnSignal,
  TimeoutSignal,
  UsageError,
  type CommandContext,
  type ShellHandle,
  type ShellIo,
  type ShellState,
} from './context.js';
import { expandString, expandWord, type ExpandHost } from './expand.js';
import { globPattern } from './glob.js';
import { parseCommandLine } from './parse.js';
import { ExpansionError, patternOf } from './params.js';
import { applyRedirects } from './redirect.js';

export { ExitSignal, TimeoutSignal };

/** A fresh shell state's own parts (what a new process does not inherit). */
export function freshParts(): Pick<ShellState, 'arrays' | 'assoc' | 'functions' | 'options' | 'traps' | 'frames'> {
  return {
    arrays: new Map(),
    assoc: new Set(),
    functions: new Map(),
    options: { errexit: false, nounset: false, xtrace: false, pipefail: false },
    traps: new Map(),
    frames: [],
  };
}

const quoteTrace = (a: string) => (/^[A-Za-z0-9_./=:,@%+-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`);

/** Runs parsed command lines against one state (cwd, variables) over one overlay. */
export class Interpreter implements ShellHandle {
  /** set while a condition runs (if, while, `&&`, `!`): `set -e` does not stop there */
  private errexitOff = 0;

  constructor(readonly state: ShellState) {}

  checkTime(): void {
    if (Date.now() > this.state.deadline || this.state.stop?.aborted) throw new TimeoutSignal();
  }

  /** Parse and run a command line; a syntax error prints bash's message and gives status 2. */
  async runLine(src: string, io: ShellIo): Promise<number> {
    let list: List;
    try {
      list = parseCommandLine(src);
    } catch (error) {
      if (!(error instanceof ShellSyntaxError)) throw error;
      io.err(`sh: ${error.message}\n`);
      return (this.state.status = 2);
    }
    return this.runList(list, io);
  }

  /** Run a script as its own process: `exit` ends it, then the EXIT trap runs. */
  async runMain(src: string, io: ShellIo): Promise<number> {
    let code: number;
    try {
      code = await this.runLine(src, io);
    } catch (e) {
      if (e instanceof ExitSignal) code = e.code;
      else if (e instanceof ReturnSignal) code = e.code;
      else throw e;
    }
    const trap = this.state.traps.get('EXIT');
    if (trap !== undefined) {
      this.state.traps.delete('EXIT');
      this.state.status = code;
      try {
        await this.runLine(trap, io);
      } catch (e) {
        if (e instanceof ExitSignal) return e.code;
        throw e;
      }
    }
    return code;
  }

  child(env: Map<string, string>): Interpreter {
    const s = this.state;
    return new Interpreter({
      ...s,
      ...freshParts(),
      vars: new Map(env),
      exported: new Set(env.keys()),
      args: [],
      status: 0,
    });
  }

  getVar(name: string): string | undefined {
    const s = this.state;
    if (name === '?') return String(s.status);
    if (name === '#') return String(s.args.length);
    if (name === '$') return '1';
    if (name === '@' || name === '*') return s.args.join(' ');
    if (/^[1-9][0-9]*$/.test(name)) return s.args[Number(name) - 1];
    if (name === '0') return s.vars.get('0') ?? 'sh';
    if (name === 'RANDOM') return String(Math.floor(Math.random() * 32768));
    const arr = s.arrays.get(name);
    if (arr) return arr.get('0');
    return s.vars.get(name);
  }

  setVar(name: string, value: string, index?: string): void {
    const s = this.state;
    if (index === undefined && !s.arrays.has(name)) {
      s.vars.set(name, value);
      return;
    }
    let arr = s.arrays.get(name);
    if (!arr) {
      arr = new Map();
      const old = s.vars.get(name);
      if (old !== undefined && !s.assoc.has(name)) arr.set('0', old);
      s.vars.delete(name);
      s.arrays.set(name, arr);
    }
    const key = index === undefined ? '0' : s.assoc.has(name) ? index : String(evalArithmetic(index, this.host()));
    arr.set(key, value);
    if (!s.assoc.has(name)) s.arrays.set(name, new Map([...arr].sort((a, b) => Number(a[0]) - Number(b[0]))));
  }

  async runList(list: List, io: ShellIo): Promise<number> {
    for (const item of list) this.state.status = await this.runAndOr(item, io);
    return this.state.status;
  }

  private async runAndOr(item: AndOr, io: ShellIo): Promise<number> {
    const last = item.rest.length;
    let status: number;
    this.errexitOff += last > 0 ? 1 : 0;
    try {
      status = await this.runPipeline(item.first, io);
    } finally {
      this.errexitOff -= last > 0 ? 1 : 0;
    }
    let ranLast = last === 0;
    for (const [n, { op, pipeline }] of item.rest.entries()) {
      if ((op === '&&') !== (status === 0)) continue;
      const final = n === last - 1;
      if (!final) this.errexitOff++;
      try {
        status = await this.runPipeline(pipeline, io);
      } finally {
        if (!final) this.errexitOff--;
      }
      ranLast = final;
    }
    const negated = (ranLast ? (item.rest[last - 1]?.pipeline ?? item.first) : item.first).negate;
    if (status !== 0 && ranLast && !negated && this.state.options.errexit && this.errexitOff === 0)
      throw new ExitSignal(status);
    return status;
  }

  private async runPipeline(p: Pipeline, io: ShellIo): Promise<number> {
    let stdin: string | null = null;
    let status = 0;
    let failed = 0;
    if (p.negate) this.errexitOff++;
    try {
      for (const [n, cmd] of p.commands.entries()) {
        const last = n === p.commands.length - 1;
        let captured = '';
        const stageIo: ShellIo =
          stdin === null
            ? { ...io, out: last ? io.out : (s) => void (captured += s) }
            : { stdin, input: { text: stdin, pos: 0 }, out: last ? io.out : (s) => void (captured += s), err: io.err };
        if (p.commands.length > 1) {
          const sub = this.sub();
          try {
            status = await sub.runCommand(cmd, stageIo);
          } catch (e) {
            if (!(e instanceof ExitSignal)) throw e;
            status = e.code;
          }
        } else status = await this.runCommand(cmd, stageIo);
        if (status !== 0) failed = status;
        stdin = captured;
      }
    } finally {
      if (p.negate) this.errexitOff--;
    }
    if (this.state.options.pipefail && failed !== 0) status = failed;
    return p.negate ? Number(status === 0) : status;
  }

  /** A copy of the state for a subshell: same files, own folder and variables. */
  sub(): Interpreter {
    const s = this.state;
    const arrays = new Map([...s.arrays].map(([k, v]) => [k, new Map(v)]));
    const child = new Interpreter({
      ...s,
      vars: new Map(s.vars),
      exported: new Set(s.exported),
      args: [...s.args],
      arrays,
      assoc: new Set(s.assoc),
      functions: new Map(s.functions),
      options: { ...s.options },
      traps: new Map(),
      frames: [],
    });
    child.errexitOff = this.errexitOff;
    return child;
  }

  host(): ExpandHost {
    const s = this.state;
    const host: ExpandHost = {
      fs: s.fs,
      cwd: s.cwd,
      args: s.args,
      getVar: (name) => this.getVar(name),
      setVar: (name, value) => this.setVar(name, value),
      getArray: (name) => s.arrays.get(name) ?? (s.vars.has(name) ? new Map([['0', s.vars.get(name)!]]) : undefined),
      isAssoc: (name) => s.assoc.has(name),
      setArray: (name, value) => {
        s.vars.delete(name);
        s.arrays.set(name, value);
      },
      nounset: () => s.options.nounset,
      partText: async (part) => expandString(host, [part]),
      wordText: async (word) => expandString(host, word),
      substitute: async (src) => {
        const only = /^\s*<\s*([^\s;|&<>]+)\s*$/.exec(src);
        if (only) {
          // `$(< file)`: the file's text, without running anything
          const path = await expandString(host, [{ t: 'lit', v: only[1]!, q: false }]);
          try {
            return decodeLossy(await s.fs.readFile(shellPath(s.cwd, path)));
          } catch (error) {
            this.currentErr(`sh: ${path}: ${errorText(error)}\n`);
            s.status = 1;
            return '';
          }
        }
        let out = '';
        const sub = this.sub();
        try {
          await sub.runLine(src, { stdin: '', out: (t) => void (out += t), err: this.currentErr });
        } catch (e) {
          if (!(e instanceof ExitSignal)) throw e;
          sub.state.status = e.code;
        }
        s.status = sub.state.status;
        return out;
      },
      procsub: async (src) => {
        let out = '';
        try {
          await this.sub().runLine(src, { stdin: '', out: (t) => void (out += t), err: this.currentErr });
        } catch (e) {
          if (!(e instanceof ExitSignal)) throw e;
        }
        return s.fs.addPipe(encodeUtf8(out));
      },
    };
    return host;
  }

  private currentErr: (s: string) => void = () => {};

  async runCommand(cmd: Command, io: ShellIo): Promise<number> {
    this.checkTime();
    this.currentErr = io.err;
    try {
      const redirected = await applyRedirects(this.state, this.host(), cmd.redirects, io);
      if (typeof redirected === 'number') return redirected;
      const [rio, finish] = redirected;
      try {
        return await this.runBody(cmd, rio);
      } finally {
        await finish();
      }
    } catch (error) {
      if (error instanceof ExpansionError) {
        io.err(`sh: ${error.message}\n`);
        throw new ExitSignal(127);
      }
      if (error instanceof ShellSyntaxError) {
        io.err(`sh: ${error.message}\n`);
        return 1;
      }
      throw error;
    }
  }

  private async condition(list: List, io: ShellIo): Promise<number> {
    this.errexitOff++;
    try {
      return await this.runList(list, io);
    } finally {
      this.errexitOff--;
    }
  }

  /** Run a loop body; false when a `break` ends the loop. */
  private async loopBody(body: List, io: ShellIo): Promise<boolean> {
    try {
      await this.runList(body, io);
      return true;
    } catch (e) {
      if (!(e instanceof LoopSignal)) throw e;
      if (e.levels > 1) {
        e.levels--;
        throw e;
      }
      return e.kind === 'continue';
    }
  }

  private async runBody(cmd: Command, io: ShellIo): Promise<number> {
    const s = this.state;
    switch (cmd.type) {
      case 'simple':
        return this.runSimple(cmd, io);
      case 'group':
        return this.runList(cmd.body, io);
      case 'subshell': {
        try {
          return await this.sub().runList(cmd.body, io);
        } catch (e) {
          if (e instanceof ExitSignal) return e.code;
          throw e;
        }
      }
      case 'if': {
        for (const clause of cmd.clauses)
          if ((await this.condition(clause.cond, io)) === 0) return this.runList(clause.body, io);
        return cmd.otherwise ? this.runList(cmd.otherwise, io) : 0;
      }
      case 'for': {
        const items: string[] = [];
        if (cmd.items) for (const w of cmd.items) items.push(...(await expandWord(this.host(), w)));
        else items.push(...s.args);
        s.status = 0;
        for (const item of items) {
          this.checkTime();
          this.setVar(cmd.name, item);
          if (!(await this.loopBody(cmd.body, io))) break;
        }
        return s.status;
      }
      case 'cfor': {
        const arith = (src: string) => (src.trim() ? evalArithmetic(src, this.host()) : 1);
        arith(cmd.init);
        s.status = 0;
        while (arith(cmd.cond) !== 0) {
          this.checkTime();
          if (!(await this.loopBody(cmd.body, io))) break;
          arith(cmd.step);
        }
        return s.status;
      }
      case 'while': {
        let status = 0;
        for (;;) {
          this.checkTime();
          const c = await this.condition(cmd.cond, io);
          if ((c === 0) === cmd.until) break;
          const going = await this.loopBody(cmd.body, io);
          status = s.status;
          if (!going) break;
        }
        return status;
      }
      case 'arith': {
        const host = this.host();
        return evalArithmetic(await expandString(host, [{ t: 'lit', v: cmd.src, q: false }]), host) !== 0 ? 0 : 1;
      }
      case 'cond': {
        // `[[ ]]` loads with its first use
        const { evalCond } = await import('./cond.js');
        return (await evalCond(this.host(), cmd.words)) ? 0 : 1;
      }
      case 'case': {
        const host = this.host();
        const value = await expandString(host, cmd.word);
        let matched = false;
        for (const item of cmd.items) {
          if (!matched) {
            for (const p of item.patterns) if (globPattern(await patternOf(host, p)).test(value)) matched = true;
            if (!matched) continue;
          }
          await this.runList(item.body, io);
          if (item.end === ';;') return s.status;
          if (item.end === ';;&') matched = false;
        }
        return matched ? s.status : 0;
      }
      case 'func':
        s.functions.set(cmd.name, cmd);
        return 0;
    }
  }

  /** Call a shell function: its own positional parameters and `local` frame. */
  private async callFunction(fn: Extract<Command, { type: 'func' }>, args: string[], io: ShellIo): Promise<number> {
    const s = this.state;
    const saved = s.args.splice(0, s.args.length, ...args);
    s.frames.push(new Map());
    try {
      return await this.runCommand(fn.body, io);
    } catch (e) {
      if (e instanceof ReturnSignal) return (s.status = e.code);
      throw e;
    } finally {
      s.args.splice(0, s.args.length, ...saved);
      for (const [name, old] of s.frames.pop()!) {
        s.vars.delete(name);
        s.arrays.delete(name);
        if (old.assoc) s.assoc.add(name);
        else s.assoc.delete(name);
        if (old.array) s.arrays.set(name, old.array);
        else if (old.value !== undefined) s.vars.set(name, old.value);
      }
    }
  }

  /** Assign `name=value`, `name+=value`, `name[i]=value` and `name=(...)`. */
  private async assign(a: SimpleCommand['assigns'][number]): Promise<void> {
    const s = this.state;
    const host = this.host();
    if (a.list) {
      const items: string[] = [];
      const keyed: Array<[string, string]> = [];
      for (const w of a.list) {
        const m = /^\[([^\]]*)\]=/.exec(w[0]?.t === 'lit' ? w[0].v : '');
        if (m && w[0]?.t === 'lit') {
          keyed.push([m[1]!, await expandString(host, [{ ...w[0], v: w[0].v.slice(m[0].length) }, ...w.slice(1)])]);
        } else items.push(...(await expandWord(host, w)));
      }
      const arr = a.append ? (s.arrays.get(a.name) ?? new Map<string, string>()) : new Map<string, string>();
      let next = a.append ? Math.max(-1, ...[...arr.keys()].map(Number).filter((n) => !Number.isNaN(n))) + 1 : 0;
      for (const v of items) arr.set(String(next++), v);
      s.vars.delete(a.name);
      s.arrays.set(a.name, arr);
      for (const [k, v] of keyed) this.setVar(a.name, v, k);
      return;
    }
    let value = await expandString(host, a.value);
    if (a.append) {
      const old =
        a.index !== undefined
          ? await expandString(host, [{ t: 'var', name: a.name, index: a.index, q: true }])
          : this.getVar(a.name);
      value = (old ?? '') + value;
    }
    this.setVar(a.name, value, a.index);
  }

  private async runSimple(cmd: SimpleCommand, io: ShellIo): Promise<number> {
    const s = this.state;
    const host = this.host();
    const argv: string[] = [];
    for (const w of cmd.words) argv.push(...(await expandWord(host, w)));
    if (argv.length === 0) {
      s.status = 0;
      for (const a of cmd.assigns) await this.assign(a);
      return cmd.assigns.some((a) => a.value.some((p) => p.t === 'cmd')) ? s.status : 0;
    }
    const assigns: Array<[string, string]> = [];
    for (const a of cmd.assigns) assigns.push([a.name, await expandString(host, a.value)]);
    if (s.options.xtrace)
      this.currentErr(
        `+ ${[...assigns.map(([k, v]) => `${k}=${quoteTrace(v)}`), ...argv.map(quoteTrace)].join(' ')}\n`,
      );
    const name = argv[0]!;
    const input = io.input;
    const stdin = input ? input.text.slice(input.pos) : io.stdin;
    const fn = s.functions.get(name);
    if (fn) {
      const saved = assigns.map(([k]) => [k, s.vars.get(k)] as const);
      for (const [k, v] of assigns) s.vars.set(k, v);
      try {
        return await this.callFunction(fn, argv.slice(1), { ...io, stdin });
      } finally {
        for (const [k, v] of saved) v === undefined ? s.vars.delete(k) : s.vars.set(k, v);
      }
    }
    const command = s.commands.get(name);
    if (!command) {
      io.err(`sh: ${name}: command not found\n`);
      return 127;
    }
    const env = new Map(
      [...s.exported].filter((k) => s.vars.has(k)).map((k) => [k, s.vars.get(k)!] as [string, string]),
    );
    for (const [k, v] of assigns) env.set(k, v);
    const ctx: CommandContext = { ...io, stdin, name, args: argv.slice(1), env, shell: this };
    try {
      return await command(ctx);
    } catch (error) {
      if (
        error instanceof ExitSignal ||
        error instanceof TimeoutSignal ||
        error instanceof ReturnSignal ||
        error instanceof LoopSignal ||
        error instanceof ExpansionError
      )
        throw error;
      io.err(`${name}: ${errorText(error)}\n`);
      return error instanceof UsageError ? error.status : 1;
    }
  }

  /** Expand words to fields, for commands (declare, local) that take words. */
  async expandWords(words: Word[]): Promise<string[]> {
    const out: string[] = [];
    for (const w of words) out.push(...(await expandWord(this.host(), w)));
    return out;
  }
}
