import { ShellSyntaxError, type Redirect, type Word, type WordPart } from './ast.js';

export type Token =
  | { k: 'w'; word: Word; raw: string }
  | { k: 'op'; v: string }
  | { k: 'redir'; fd: number; op: Redirect['op']; heredoc?: Redirect['heredoc'] & { delim: string; strip: boolean } }
  | { k: 'nl' };

const OPS = ['&&', '||', ';;', '|', ';', '&', '(', ')'];
const META = new Set([' ', '\t', '\n', ';', '&', '|', '<', '>', '(', ')']);
const NAME = /^[A-Za-z_][A-Za-z0-9_]*/;

/** Find the `)` that closes a `$(` (or `$((`) starting at `i`, skipping quotes and nested parens. */
function closeParen(src: string, i: number): number {
  let depth = 1;
  for (; i < src.length; i++) {
    const c = src[i];
    if (c === '\\') i++;
    else if (c === "'") {
      i = src.indexOf("'", i + 1);
      if (i < 0) break;
    } else if (c === '"') {
      for (i++; i < src.length && src[i] !== '"'; i++) if (src[i] === '\\') i++;
    } else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
  }
  throw new ShellSyntaxError("unexpected end of input: a '$(' is not closed");
}

/** Read a `$...` expansion at `i` (pointing at `$`); returns the part and the index after it. */
export function readDollar(src: string, i: number, q: boolean): [WordPart, number] {
  const next = src[i + 1];
  if (next === '(' && src[i + 2] === '(') {
    const end = closeParen(src, i + 3);
    if (src[end + 1] !== ')') throw new ShellSyntaxError("an arithmetic '$((' is not closed by '))'");
    return [{ t: 'arith', src: src.slice(i + 3, end), q }, end + 2];
  }
  if (next === '(') {
    const end = closeParen(src, i + 2);
    return [{ t: 'cmd', src: src.slice(i + 2, end), q }, end + 1];
  }
  if (next === '{') {
    const end = src.indexOf('}', i + 2);
    if (end < 0) throw new ShellSyntaxError("a '${' is not closed by '}'");
    const body = src.slice(i + 2, end);
    if (body.startsWith('#') && NAME.test(body.slice(1)))
      return [{ t: 'var', name: body.slice(1), op: '#len', q }, end + 1];
    const name = /^([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[?#@*$])/.exec(body)?.[0];
    if (!name) throw new ShellSyntaxError(`\${${body}}: bad substitution`);
    const rest = body.slice(name.length);
    const op = /^(:-|:=|:\+|-|=|\+|##|#|%%|%)/.exec(rest)?.[0];
    if (rest && !op) throw new ShellSyntaxError(`\${${body}}: bad substitution`);
    return [{ t: 'var', name, q, ...(op ? { op, arg: readWord(rest.slice(op.length), true) } : {}) }, end + 1];
  }
  const name = next === undefined ? undefined : /^([A-Za-z_][A-Za-z0-9_]*|[0-9?#@*$!-])/.exec(src.slice(i + 1))?.[0];
  if (!name) return [{ t: 'lit', v: '$', q }, i + 1];
  return [{ t: 'var', name, q }, i + 1 + name.length];
}

/** Parse the inside of a double-quoted string (or an unquoted operand of ${x:-...}) into parts. */
export function readWord(src: string, q: boolean): Word {
  const parts: Word = [];
  let lit = '';
  const flush = () => {
    if (lit) parts.push({ t: 'lit', v: lit, q });
    lit = '';
  };
  for (let i = 0; i < src.length; ) {
    const c = src[i]!;
    if (c === '\\' && i + 1 < src.length && '$`"\\\n'.includes(src[i + 1]!)) {
      lit += src[i + 1] === '\n' ? '' : src[i + 1];
      i += 2;
    } else if (c === '$') {
      flush();
      const [part, end] = readDollar(src, i, q);
      parts.push(part);
      i = end;
    } else if (c === '`') {
      const end = src.indexOf('`', i + 1);
      if (end < 0) throw new ShellSyntaxError('unexpected end of input: a backquote is not closed');
      flush();
      parts.push({ t: 'cmd', src: src.slice(i + 1, end), q });
      i = end + 1;
    } else {
      lit += c;
      i++;
    }
  }
  flush();
  return parts;
}

/** Split a command line into words, operators, redirections and newlines (here-documents read in place). */
export function tokenize(src: string): Token[] {
  const tokens: Token[] = [];
  const pendingHeredocs: Array<NonNullable<Extract<Token, { k: 'redir' }>['heredoc']>> = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (c === ' ' || c === '\t') {
      i++;
      continue;
    }
    if (c === '\\' && src[i + 1] === '\n') {
      i += 2;
      continue;
    }
    if (c === '#') {
      while (i < src.length && src[i] !== '\n') i++;
      continue;
    }
    if (c === '\n') {
      tokens.push({ k: 'nl' });
      i++;
      for (const h of pendingHeredocs.splice(0)) i = readHeredoc(src, i, h);
      continue;
    }
    const redir = /^([0-9]?)(&>|>>|>&|<<-|<<|>\||>|<)/.exec(src.slice(i, i + 4));
    if (redir) {
      const fd = redir[1] ? Number(redir[1]) : redir[2]!.startsWith('<') ? 0 : 1;
      const op = redir[2] === '>|' ? '>' : redir[2] === '<<-' ? '<<' : (redir[2] as Redirect['op']);
      const token: Extract<Token, { k: 'redir' }> = { k: 'redir', fd, op };
      i += redir[0].length;
      if (op === '<<') {
        while (src[i] === ' ' || src[i] === '\t') i++;
        let end = i;
        while (end < src.length && !META.has(src[end]!)) end++;
        const raw = src.slice(i, end);
        if (!raw) throw new ShellSyntaxError("syntax error: a here-document needs a delimiter after '<<'");
        token.heredoc = {
          delim: raw.replace(/["'\\]/g, ''),
          expand: !/["'\\]/.test(raw),
          strip: redir[2] === '<<-',
          body: '',
        };
        pendingHeredocs.push(token.heredoc);
        i = end;
      }
      tokens.push(token);
      continue;
    }
    const op = OPS.find((o) => src.startsWith(o, i));
    if (op) {
      tokens.push({ k: 'op', v: op });
      i += op.length;
      continue;
    }
    const start = i;
    const parts: Word = [];
    let lit = '';
    const flush = () => {
      if (lit) parts.push({ t: 'lit', v: lit, q: false });
      lit = '';
    };
    while (i < src.length && !META.has(src[i]!)) {
      const ch = src[i]!;
      if (ch === '\\') {
        if (src[i + 1] === '\n') {
          i += 2;
          continue;
        }
        flush();
        parts.push({ t: 'lit', v: src[i + 1] ?? '', q: true });
        i += 2;
      } else if (ch === "'") {
        const end = src.indexOf("'", i + 1);
        if (end < 0) throw new ShellSyntaxError('unexpected end of input: a single quote is not closed');
        flush();
        parts.push({ t: 'lit', v: src.slice(i + 1, end), q: true });
        i = end + 1;
      } else if (ch === '"') {
        let end = i + 1;
        for (; end < src.length && src[end] !== '"'; end++) {
          if (src[end] === '\\') end++;
          else if (src[end] === '$' && src[end + 1] === '(') end = closeParen(src, end + 2);
          else if (src[end] === '`') end = src.indexOf('`', end + 1);
          if (end < 0) break;
        }
        if (end < 0 || end >= src.length)
          throw new ShellSyntaxError('unexpected end of input: a double quote is not closed');
        flush();
        const inner = readWord(src.slice(i + 1, end), true);
        parts.push(...(inner.length ? inner : [{ t: 'lit' as const, v: '', q: true }]));
        i = end + 1;
      } else if (ch === '$' || ch === '`') {
        flush();
        if (ch === '$') {
          const [part, end] = readDollar(src, i, false);
          parts.push(part);
          i = end;
        } else {
          const end = src.indexOf('`', i + 1);
          if (end < 0) throw new ShellSyntaxError('unexpected end of input: a backquote is not closed');
          parts.push({ t: 'cmd', src: src.slice(i + 1, end), q: false });
          i = end + 1;
        }
      } else {
        lit += ch;
        i++;
      }
    }
    flush();
    tokens.push({ k: 'w', word: parts, raw: src.slice(start, i) });
  }
  if (pendingHeredocs.length) for (const h of pendingHeredocs) readHeredoc(src, src.length, h);
  return tokens;
}

function readHeredoc(src: string, i: number, h: { delim: string; strip: boolean; body: string }): number {
  const lines: string[] = [];
  while (i < src.length) {
    let end = src.indexOf('\n', i);
    if (end < 0) end = src.length;
    let line = src.slice(i, end);
    i = end + 1;
    if (h.strip) line = line.replace(/^\t+/, '');
    if (line === h.delim) {
      h.body = lines.map((l) => `${l}\n`).join('');
      return i;
    }
    lines.push(line);
  }
  h.body = lines.map((l) => `${l}\n`).join('');
  return src.length;
}
