import { ShellSyntaxError, type Command, type List, type Pipeline, type Redirect, type SimpleCommand } from './ast.js';
import { expandString, expandWord, type ExpandHost } from './expand.js';
import {
  errorText,
  ExitSignal,
  TimeoutSignal,
  UsageError,
  type CommandContext,
  type ShellHandle,
  type ShellIo,
  type ShellState,
} from './context.js';
import { shellPath } from './overlay.js';
import { parseCommandLine } from './parse.js';
import { readWord } from './lex.js';
import { decodeLossy, encodeUtf8 } from './bytes.js';

export { ExitSignal, TimeoutSignal };

/** Runs parsed command lines against one state (cwd, variables) over one overlay. */
export class Interpreter implements ShellHandle {
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

  async runList(list: List, io: ShellIo): Promise<number> {
    for (const item of list) {
      let status = await this.runPipeline(item.first, io);
      for (const { op, pipeline } of item.rest) {
        if ((op === '&&') === (status === 0)) status = await this.runPipeline(pipeline, io);
      }
      this.state.status = status;
    }
    return this.state.status;
  }

  private async runPipeline(p: Pipeline, io: ShellIo): Promise<number> {
    let stdin = io.stdin;
    let status = 0;
    for (const [n, cmd] of p.commands.entries()) {
      const last = n === p.commands.length - 1;
      let captured = '';
      const stageIo: ShellIo = {
        stdin,
        out: last
          ? io.out
          : (s) => {
              captured += s;
            },
        err: io.err,
      };
      status = p.commands.length > 1 ? await this.sub().runCommand(cmd, stageIo) : await this.runCommand(cmd, stageIo);
      stdin = captured;
    }
    return p.negate ? Number(status === 0) : status;
  }

  /** A copy of the state for a subshell: same files, own folder and variables. */
  sub(): Interpreter {
    const s = this.state;
    return new Interpreter({ ...s, vars: new Map(s.vars), exported: new Set(s.exported), args: [...s.args] });
  }

  host(): ExpandHost {
    const s = this.state;
    return {
      fs: s.fs,
      cwd: s.cwd,
      args: s.args,
      getVar: (name) =>
        name === '?'
          ? String(s.status)
          : name === '#'
            ? String(s.args.length)
            : name === '$'
              ? '1'
              : /^[1-9]$/.test(name)
                ? s.args[Number(name) - 1]
                : name === '0'
                  ? (s.vars.get('0') ?? 'sh')
                  : s.vars.get(name),
      setVar: (name, value) => {
        s.vars.set(name, value);
      },
      substitute: async (src) => {
        let out = '';
        const sub = this.sub();
        try {
          await sub.runLine(src, {
            stdin: '',
            out: (t) => {
              out += t;
            },
            err: this.currentErr,
          });
        } catch (e) {
          if (!(e instanceof ExitSignal)) throw e;
          sub.state.status = e.code;
        }
        s.status = sub.state.status;
        return out;
      },
    };
  }

  private currentErr: (s: string) => void = () => {};

  async runCommand(cmd: Command, io: ShellIo): Promise<number> {
    this.checkTime();
    this.currentErr = io.err;
    const redirected = await this.redirect(cmd.redirects, io);
    if (typeof redirected === 'number') return redirected;
    const [rio, finish] = redirected;
    try {
      return await this.runBody(cmd, rio);
    } finally {
      await finish();
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
        const sub = this.sub();
        try {
          return await sub.runList(cmd.body, io);
        } catch (e) {
          if (e instanceof ExitSignal) return e.code;
          throw e;
        }
      }
      case 'if': {
        for (const clause of cmd.clauses)
          if ((await this.runList(clause.cond, io)) === 0) return this.runList(clause.body, io);
        return cmd.otherwise ? this.runList(cmd.otherwise, io) : 0;
      }
      case 'for': {
        const items: string[] = [];
        if (cmd.items) for (const w of cmd.items) items.push(...(await expandWord(this.host(), w)));
        else items.push(...s.args);
        let status = 0;
        for (const item of items) {
          this.checkTime();
          s.vars.set(cmd.name, item);
          status = await this.runList(cmd.body, io);
        }
        return status;
      }
      case 'while': {
        let status = 0;
        for (;;) {
          this.checkTime();
          const c = await this.runList(cmd.cond, io);
          if ((c === 0) === cmd.until) break;
          status = await this.runList(cmd.body, io);
        }
        return status;
      }
    }
  }

  private async runSimple(cmd: SimpleCommand, io: ShellIo): Promise<number> {
    const s = this.state;
    const host = this.host();
    const argv: string[] = [];
    for (const w of cmd.words) argv.push(...(await expandWord(host, w)));
    const assigns: Array<[string, string]> = [];
    for (const a of cmd.assigns) assigns.push([a.name, await expandString(host, a.value)]);
    if (argv.length === 0) {
      for (const [k, v] of assigns) s.vars.set(k, v);
      return s.status === 0 || cmd.assigns.some((a) => a.value.some((p) => p.t === 'cmd')) ? s.status : 0;
    }
    const name = argv[0]!;
    const command = s.commands.get(name);
    if (!command) {
      io.err(`sh: ${name}: command not found\n`);
      return 127;
    }
    const env = new Map(
      [...s.exported].filter((k) => s.vars.has(k)).map((k) => [k, s.vars.get(k)!] as [string, string]),
    );
    for (const [k, v] of assigns) env.set(k, v);
    const ctx: CommandContext = { ...io, name, args: argv.slice(1), env, shell: this };
    try {
      return await command(ctx);
    } catch (error) {
      if (error instanceof ExitSignal || error instanceof TimeoutSignal) throw error;
      io.err(`${name}: ${errorText(error)}\n`);
      return error instanceof UsageError ? error.status : 1;
    }
  }

  /** Apply redirections: the io to use and what to do after the command (write captured output). */
  private async redirect(redirects: Redirect[], io: ShellIo): Promise<[ShellIo, () => Promise<void>] | number> {
    if (redirects.length === 0) return [io, async () => {}];
    const fds: Record<number, (t: string) => void> = { 1: io.out, 2: io.err };
    let stdin = io.stdin;
    const files: Array<{ path: string; text: string; append: boolean }> = [];
    const host = this.host();
    for (const r of redirects) {
      if (r.op === '<<') {
        stdin = r.heredoc!.expand ? await expandString(host, heredocWord(r.heredoc!.body)) : r.heredoc!.body;
        continue;
      }
      const target = await expandString(host, r.target);
      if (r.op === '>&' && /^[0-9]$/.test(target)) {
        fds[r.fd] = fds[Number(target)] ?? (() => {});
        continue;
      }
      // The device files scripts use: no /dev exists in a workspace, so they are named here.
      if (target === '/dev/null') {
        if (r.op === '<') stdin = '';
        else if (r.op === '&>') {
          fds[1] = () => {};
          fds[2] = () => {};
        } else fds[r.fd] = () => {};
        continue;
      }
      if (target === '/dev/stdout' || target === '/dev/stderr') {
        if (r.op !== '<') fds[r.fd] = fds[target === '/dev/stdout' ? 1 : 2]!;
        continue;
      }
      const device = this.state.devices?.get(target);
      if (device) {
        if (r.op === '<') stdin = '';
        else if (r.op === '&>') {
          fds[1] = device;
          fds[2] = device;
        } else fds[r.fd] = device;
        continue;
      }
      const path = shellPath(this.state.cwd, target);
      try {
        if (r.op === '<') {
          stdin = decodeLossy(await this.state.fs.readFile(path));
          continue;
        }
        const append = r.op === '>>';
        if (!append) await this.state.fs.writeFile(path, new Uint8Array());
        else if (!(await this.state.fs.stat(path))) await this.state.fs.writeFile(path, new Uint8Array());
        const sink = { path, text: '', append: true };
        files.push(sink);
        const write = (t: string) => {
          sink.text += t;
        };
        if (r.op === '&>' || r.op === '>&') {
          fds[1] = write;
          fds[2] = write;
        } else fds[r.fd] = write;
      } catch (error) {
        io.err(`sh: ${target}: ${errorText(error)}\n`);
        return 1;
      }
    }
    const finish = async () => {
      for (const f of files) {
        if (!f.text) continue;
        const old = await this.state.fs.readFile(f.path).catch(() => new Uint8Array());
        const add = encodeUtf8(f.text);
        const joined = new Uint8Array(old.length + add.length);
        joined.set(old);
        joined.set(add, old.length);
        await this.state.fs.writeFile(f.path, joined);
      }
    };
    return [{ stdin, out: fds[1]!, err: fds[2]! }, finish];
  }
}

/** A here-document's text as a double-quoted word, so `$x` and `$(...)` expand in it. */
function heredocWord(body: string) {
  return [{ t: 'lit' as const, v: '', q: true }, ...parseHeredoc(body)];
}

const parseHeredoc = (body: string) => readWord(body, true);
