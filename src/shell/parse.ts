import {
  ShellSyntaxError,
  type AndOr,
  type Assignment,
  type Command,
  type List,
  type Pipeline,
  type Redirect,
  type Word,
} from './ast.js';
import { tokenize, type Token } from './lex.js';

const RESERVED_ENDS = new Set(['then', 'do', 'done', 'fi', 'else', 'elif', '}', 'esac']);
const ASSIGN = /^([A-Za-z_][A-Za-z0-9_]*)(?:\[([^\]]*)\])?(\+?)=/;
const DECLARES = new Set(['local', 'declare', 'typeset', 'readonly']);
const FUNCTION_NAME = /^[A-Za-z_][A-Za-z0-9_.:-]*$/;

/** Parse a command line into its syntax tree; throws ShellSyntaxError on what bash would reject. */
export function parseCommandLine(src: string): List {
  const p = new Parser(tokenize(src));
  const list = p.list(new Set());
  if (!p.done()) throw new ShellSyntaxError(`syntax error near unexpected token '${p.describe()}'`);
  return list;
}

/** The word a piece of raw command text stands for (an assignment's value). */
function wordOf(raw: string): Word {
  if (raw === '') return [];
  const tokens = tokenize(raw);
  const t = tokens[0];
  return t?.k === 'w' ? t.word : [{ t: 'lit', v: raw, q: true }];
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
    if (!t) return 'end of input';
    if (t.k === 'w') return t.raw;
    if (t.k === 'op') return t.v;
    if (t.k === 'nl') return 'newline';
    if (t.k === 'arith') return '((';
    if (t.k === 'cond') return '[[';
    return t.op;
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
    if (kw === 'case') return this.caseCommand();
    if (kw === 'function') {
      this.i++;
      const name = bare(this.peek());
      if (!name || !FUNCTION_NAME.test(name)) throw new ShellSyntaxError(`syntax error near '${this.describe()}'`);
      this.i++;
      if (this.isOp('(')) {
        this.i++;
        if (!this.isOp(')')) throw new ShellSyntaxError(`syntax error near unexpected token '${this.describe()}'`);
        this.i++;
      }
      return this.functionBody(name);
    }
    if (t?.k === 'arith') {
      this.i++;
      return { type: 'arith', src: t.src, redirects: this.redirects() };
    }
    if (t?.k === 'cond') {
      this.i++;
      return { type: 'cond', words: t.words, redirects: this.redirects() };
    }
    const next = this.tokens[this.i + 1];
    if (kw !== null && FUNCTION_NAME.test(kw) && next?.k === 'op' && next.v === '(') {
      const close = this.tokens[this.i + 2];
      if (close?.k === 'op' && close.v === ')') {
        this.i += 3;
        return this.functionBody(kw);
      }
    }
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

  private functionBody(name: string): Command {
    this.skipNewlines();
    const body = this.command();
    if (body.type === 'simple')
      throw new ShellSyntaxError(`syntax error: the body of function '${name}' must be a compound command`);
    return { type: 'func', name, body, redirects: [] };
  }

  private caseCommand(): Command {
    this.i++;
    const t = this.peek();
    if (t?.k !== 'w') throw new ShellSyntaxError(`syntax error near unexpected token '${this.describe()}'`);
    this.i++;
    this.expectWord('in');
    const items: Extract<Command, { type: 'case' }>['items'] = [];
    for (;;) {
      this.skipNewlines();
      if (bare(this.peek()) === 'esac') {
        this.i++;
        break;
      }
      if (this.isOp('(')) this.i++;
      const patterns: Word[] = [];
      for (;;) {
        const p = this.peek();
        if (p?.k !== 'w') throw new ShellSyntaxError(`syntax error near unexpected token '${this.describe()}'`);
        patterns.push(p.word);
        this.i++;
        if (this.isOp('|')) this.i++;
        else break;
      }
      if (!this.isOp(')')) throw new ShellSyntaxError(`syntax error near unexpected token '${this.describe()}'`);
      this.i++;
      const body = this.list(new Set(['esac']));
      let end: ';;' | ';&' | ';;&' = ';;';
      const op = this.peek();
      if (op?.k === 'op' && (op.v === ';;' || op.v === ';&' || op.v === ';;&')) {
        end = op.v;
        this.i++;
      } else if (bare(op) !== 'esac') throw new ShellSyntaxError("syntax error: 'case' is not closed by 'esac'");
      items.push({ patterns, body, end });
    }
    return { type: 'case', word: t.word, items, redirects: this.redirects() };
  }

  private forCommand(): Command {
    this.i++;
    const arith = this.peek();
    if (arith?.k === 'arith') {
      this.i++;
      const parts = arith.src.split(';');
      if (parts.length !== 3)
        throw new ShellSyntaxError(`syntax error: 'for ((${arith.src}))' needs three expressions`);
      this.skipNewlines();
      if (this.isOp(';')) this.i++;
      this.skipNewlines();
      const opener = bare(this.peek());
      const brace = opener === '{';
      this.expectWord(brace ? '{' : 'do');
      const body = this.list(new Set([brace ? '}' : 'done']));
      this.expectWord(brace ? '}' : 'done');
      return { type: 'cfor', init: parts[0]!, cond: parts[1]!, step: parts[2]!, body, redirects: this.redirects() };
    }
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
      const m = cmd.words.length === 0 && first?.t === 'lit' && !first.q ? ASSIGN.exec(t.raw) : null;
      if (m) {
        const a: Assignment = { name: m[1]!, value: wordOf(t.raw.slice(m[0].length)) };
        if (m[2] !== undefined) a.index = m[2];
        if (m[3]) a.append = true;
        const open = this.tokens[this.i + 1];
        if (t.raw.length === m[0].length && open?.k === 'op' && open.v === '(') {
          this.i += 2;
          a.list = [];
          for (;;) {
            this.skipNewlines();
            const el = this.peek();
            if (el?.k !== 'w') break;
            a.list.push(el.word);
            this.i++;
          }
          if (!this.isOp(')')) throw new ShellSyntaxError(`syntax error near unexpected token '${this.describe()}'`);
        }
        cmd.assigns.push(a);
      } else if (
        DECLARES.has(bare(this.tokens[this.i - cmd.words.length]) ?? '') &&
        cmd.words.length > 0 &&
        /^[A-Za-z_][A-Za-z0-9_]*\+?=$/.test(t.raw) &&
        this.tokens[this.i + 1]?.k === 'op' &&
        (this.tokens[this.i + 1] as { v: string }).v === '('
      ) {
        // `local a=(x y)`: the list reaches the builtin as one word, `a=(x y)`.
        const raws: string[] = [];
        this.i += 2;
        while (this.peek()?.k === 'w') raws.push((this.tokens[this.i++] as { raw: string }).raw);
        if (!this.isOp(')')) throw new ShellSyntaxError(`syntax error near unexpected token '${this.describe()}'`);
        cmd.words.push([{ t: 'lit', v: `${t.raw}(${raws.join(' ')})`, q: true }]);
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
