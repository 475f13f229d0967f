import { ShellSyntaxError, type Redirect, type Word } from './ast.js';
import { lexWord } from './lex-word.js';

export { readDollar, readWord } from './lex-word.js';

export type Token =
  | { k: 'w'; word: Word; raw: string }
  | { k: 'op'; v: string }
  | { k: 'redir'; fd: number; op: Redirect['op']; heredoc?: Redirect['heredoc'] & { delim: string; strip: boolean } }
  | { k: 'nl' }
  /** `(( ... ))` */
  | { k: 'arith'; src: string }
  /** `[[ ... ]]`: its words */
  | { k: 'cond'; words: Word[] };

const OPS = ['&&', '||', ';;&', ';;', ';&', '|', ';', '&', '(', ')'];
const META = new Set([' ', '\t', '\n', ';', '&', '|', '<', '>', '(', ')']);
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
    if (src.startsWith('((', i)) {
      const inner = arithAt(src, i);
      if (inner) {
        tokens.push({ k: 'arith', src: inner.src });
        i = inner.end;
        continue;
      }
    }
    if (src.startsWith('[[', i) && /[ \t\n]/.test(src[i + 2] ?? '')) {
      const words: Word[] = [];
      i += 2;
      for (;;) {
        while (src[i] === ' ' || src[i] === '\t' || src[i] === '\n') i++;
        if (i >= src.length) throw new ShellSyntaxError("unexpected end of input: '[[' is not closed by ']]'");
        if (src.startsWith(']]', i) && (i + 2 >= src.length || META.has(src[i + 2]!))) break;
        const [word, end] = lexWord(src, i, (c) => c === ' ' || c === '\t' || c === '\n');
        words.push(word);
        i = end;
      }
      tokens.push({ k: 'cond', words });
      i += 2;
      continue;
    }
    if ((src[i] === '<' || src[i] === '>') && src[i + 1] === '(') {
      const [word, end] = lexWord(src, i, (c, at) => META.has(c) && !(at === i && (c === '<' || c === '>')));
      tokens.push({ k: 'w', word, raw: src.slice(i, end) });
      i = end;
      continue;
    }
    const redir = /^([0-9]?)(&>>|&>|>>|>&|<<<|<<-|<<|>\||>|<)/.exec(src.slice(i, i + 4));
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
    const [word, end] = lexWord(src, i, (c) => META.has(c));
    i = end;
    tokens.push({ k: 'w', word, raw: src.slice(start, i) });
  }
  if (pendingHeredocs.length) for (const h of pendingHeredocs) readHeredoc(src, src.length, h);
  return tokens;
}

/** `((expr))` at `i`: its inside and the index after it, or null when the parens are two subshells. */
function arithAt(src: string, i: number): { src: string; end: number } | null {
  let depth = 0;
  for (let j = i + 2; j < src.length; j++) {
    const c = src[j];
    if (c === '(') depth++;
    else if (c === ')') {
      if (depth > 0) depth--;
      else return src[j + 1] === ')' ? { src: src.slice(i + 2, j), end: j + 2 } : null;
    } else if (c === '\n') return null;
  }
  return null;
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
