import {
  ShellSyntaxError,
  type AndOr,
  type Command,
  type List,
  type Pipeline,
  type Redirect,
  type Word,
} from './ast.js';
import { tokenize, type Token } from './lex.js';

const RESERVED_ENDS = new Set(['then', 'do', 'done', 'fi', 'else', 'elif', '}']);
const ASSIGN = /^([A-Za-z_][A-Za-z0-9_]*)=/;

/** Parse a command line into its syntax tree; throws ShellSyntaxError on what bash would reject. */
export function parseCommandLine(src: string): List {
  const p = new Parser(tokenize(src));
  const list = p.list(new Set());
  if (!p.done()) throw new ShellSyntaxError(`syntax error near unexpected token '${p.describe()}'`);
  return list;
}

/** The word as plain text, when it is one unquoted literal (a keyword candidate). */
function bare(t: Token | undefined): string | null {
  if (t?.k !== 'w' || t.word.length !== 1) return null;
  const part = t.word[0]!;
  return part.t === 'lit' && !part.q ? part.v : null;
}

class Parser {
  private i = 0;
  constructor(private readonly tokens: Token[]) {}

  done(): boolean {
    this.skipNewlines();
    return this.i >= this.tokens.length;
  }
  describe(): string {
    const t = this.tokens[this.i];
    return !t ? 'end of input' : t.k === 'w' ? t.raw : t.k === 'op' ? t.v : t.k === 'nl' ? 'newline' : t.op;
  }
  private peek(): Token | undefined {
    return this.tokens[this.i];
  }
  private isOp(v: string): boolean {
    const t = this.peek();
    return t?.k === 'op' && t.v === v;
  }
  private skipNewlines(): void {
    while (this.peek()?.k === 'nl') this.i++;
  }

  private expectWord(word: string): void {
    this.skipNewlines();
    if (bare(this.peek()) !== word)
      throw new ShellSyntaxError(`syntax error near unexpected token '${this.describe()}' (expected '${word}')`);
    this.i++;
  }

  /** Commands separated by `;`, `&` or newlines, up to one of the `ends` keywords. */
  list(ends: Set<string>): List {
    const list: List = [];
    for (;;) {
      this.skipNewlines();
      const t = this.peek();
      if (!t || this.isOp(')') || (bare(t) !== null && ends.has(bare(t)!))) break;
      list.push(this.andOr());
      if (this.isOp(';') || this.isOp('&')) this.i++;
      else if (this.peek()?.k !== 'nl') break;
    }
    return list;
  }

  private andOr(): AndOr {
    const first = this.pipeline();
    const rest: AndOr['rest'] = [];
    while (this.isOp('&&') || this.isOp('||')) {
      const op = (this.tokens[this.i++] as { v: '&&' | '||' }).v;
      this.skipNewlines();
      rest.push({ op, pipeline: this.pipeline() });
    }
    return { first, rest };
  }

  private pipeline(): Pipeline {
    let negate = false;
    if (bare(this.peek()) === '!') {
      negate = true;
      this.i++;
    }
    const commands = [this.command()];
    while (this.isOp('|')) {
      this.i++;
      this.skipNewlines();
      commands.push(this.command());
    }
    return { negate, commands };
  }

  private command(): Command {
    const t = this.peek();
    const kw = bare(t);
    if (this.isOp('(')) {
      this.i++;
      const body = this.list(new Set());
      if (!this.isOp(')')) throw new ShellSyntaxError("syntax error: '(' is not closed by ')'");
      this.i++;
      return { type: 'subshell', body, redirects: this.redirects() };
    }
    if (kw === '{') {
      this.i++;
      const body = this.list(new Set(['}']));
      this.expectWord('}');
      return { type: 'group', body, redirects: this.redirects() };
    }
    if (kw === 'if') return this.ifCommand();
    if (kw === 'while' || kw === 'until') {
      this.i++;
      const cond = this.list(new Set(['do']));
      this.expectWord('do');
      const body = this.list(new Set(['done']));
      this.expectWord('done');
      return { type: 'while', until: kw === 'until', cond, body, redirects: this.redirects() };
    }
    if (kw === 'for') return this.forCommand();
    if (kw !== null && RESERVED_ENDS.has(kw)) throw new ShellSyntaxError(`syntax error near unexpected token '${kw}'`);
    return this.simple();
  }

  private ifCommand(): Command {
    this.i++;
    const clauses: Array<{ cond: List; body: List }> = [];
    let otherwise: List | undefined;
    for (;;) {
      const cond = this.list(new Set(['then']));
      this.expectWord('then');
      clauses.push({ cond, body: this.list(new Set(['elif', 'else', 'fi'])) });
      this.skipNewlines();
      const next = bare(this.peek());
      this.i++;
      if (next === 'elif') continue;
      if (next === 'else') {
        otherwise = this.list(new Set(['fi']));
        this.expectWord('fi');
      } else if (next !== 'fi') throw new ShellSyntaxError("syntax error: 'if' is not closed by 'fi'");
      break;
    }
    return { type: 'if', clauses, ...(otherwise ? { otherwise } : {}), redirects: this.redirects() };
  }

  private forCommand(): Command {
    this.i++;
    const name = bare(this.peek());
    if (!name || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
      throw new ShellSyntaxError(`syntax error: '${this.describe()}' is not a valid loop variable`);
    this.i++;
    let items: Word[] | null = null;
    this.skipNewlines();
    if (bare(this.peek()) === 'in') {
      this.i++;
      items = [];
      while (this.peek()?.k === 'w') items.push((this.tokens[this.i++] as { word: Word }).word);
    }
    if (this.isOp(';')) this.i++;
    this.expectWord('do');
    const body = this.list(new Set(['done']));
    this.expectWord('done');
    return { type: 'for', name, items, body, redirects: this.redirects() };
  }

  private redirects(): Redirect[] {
    const out: Redirect[] = [];
    while (this.peek()?.k === 'redir') out.push(this.redirect());
    return out;
  }

  private redirect(): Redirect {
    const r = this.tokens[this.i++] as Extract<Token, { k: 'redir' }>;
    if (r.heredoc) return { fd: r.fd, op: '<<', target: [], heredoc: r.heredoc };
    const target = this.peek();
    if (target?.k !== 'w') throw new ShellSyntaxError(`syntax error near unexpected token '${this.describe()}'`);
    this.i++;
    return { fd: r.fd, op: r.op, target: target.word };
  }

  private simple(): Command {
    const cmd: Extract<Command, { type: 'simple' }> = { type: 'simple', assigns: [], words: [], redirects: [] };
    for (;;) {
      const t = this.peek();
      if (t?.k === 'redir') {
        cmd.redirects.push(this.redirect());
        continue;
      }
      if (t?.k !== 'w') break;
      const first = t.word[0];
      const m = cmd.words.length === 0 && first?.t === 'lit' && !first.q ? ASSIGN.exec(first.v) : null;
      if (m) {
        const value: Word = [
          { ...(first as { t: 'lit'; v: string; q: boolean }), v: (first as { v: string }).v.slice(m[0].length) },
          ...t.word.slice(1),
        ];
        cmd.assigns.push({ name: m[1]!, value });
      } else {
        cmd.words.push(t.word);
      }
      this.i++;
    }
    if (cmd.words.length === 0 && cmd.assigns.length === 0 && cmd.redirects.length === 0) {
      throw new ShellSyntaxError(`syntax error near unexpected token '${this.describe()}'`);
    }
    return cmd;
  }
}
