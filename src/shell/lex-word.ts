import { ShellSyntaxError, type Word, type WordPart } from './ast.js';

/** Find the `)` that closes a `$(` (or `$((`) starting at `i`, skipping quotes and nested parens. */
export function closeParen(src: string, i: number): number {
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

/** The `}` that closes a `${` whose body starts at `i`, past nested `${...}`, `$(...)` and quotes. */
function closeBrace(src: string, i: number): number {
  let depth = 1;
  for (; i < src.length; i++) {
    const c = src[i];
    if (c === '\\') i++;
    else if (c === "'") {
      i = src.indexOf("'", i + 1);
      if (i < 0) break;
    } else if (c === '"') {
      for (i++; i < src.length && src[i] !== '"'; i++) if (src[i] === '\\') i++;
    } else if (c === '$' && src[i + 1] === '(') i = closeParen(src, i + 2);
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i;
  }
  throw new ShellSyntaxError("a '${' is not closed by '}'");
}

/** The index of the first `/` in `s` outside quotes and escapes (the pattern/replacement split). */
function splitSlash(s: string): number {
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '\\') i++;
    else if (s[i] === "'") i = s.indexOf("'", i + 1);
    else if (s[i] === '/') return i;
    if (i < 0) return -1;
  }
  return -1;
}

/** An operand inside `${...}`: quotes are removed, and quoted text stays literal (for patterns). */
export function readOperand(src: string): Word {
  return lexWord(src, 0, () => false, true)[0];
}

/** Parse the body of `${...}` into a parameter part. */
function readBrace(body: string, q: boolean): WordPart {
  let rest = body;
  let indirect = false;
  let length = false;
  if (rest.startsWith('#') && rest.length > 1 && !/^#[#%:]/.test(rest)) {
    length = true;
    rest = rest.slice(1);
  } else if (rest.startsWith('!') && rest.length > 1) {
    indirect = true;
    rest = rest.slice(1);
  }
  const name = /^([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[?#@*$!-])/.exec(rest)?.[0];
  if (!name) throw new ShellSyntaxError(`\${${body}}: bad substitution`);
  rest = rest.slice(name.length);
  let index: string | undefined;
  if (rest.startsWith('[')) {
    const end = rest.indexOf(']');
    if (end < 0) throw new ShellSyntaxError(`\${${body}}: bad substitution`);
    index = rest.slice(1, end);
    rest = rest.slice(end + 1);
  }
  const base = { t: 'var' as const, name, q, ...(index !== undefined ? { index } : {}) };
  if (length) {
    if (rest) throw new ShellSyntaxError(`\${${body}}: bad substitution`);
    return { ...base, op: '#len' };
  }
  if (indirect && !rest) return { ...base, indirect: true };
  if (!rest) return base;
  const op = /^(:-|:=|:\+|:\?|-|=|\+|\?|##|#|%%|%|\/\/|\/#|\/%|\/|\^\^|\^|,,|,|:|@)/.exec(rest)?.[0];
  if (!op) throw new ShellSyntaxError(`\${${body}}: bad substitution`);
  const operand = rest.slice(op.length);
  const part = { ...base, ...(indirect ? { indirect: true } : {}), op };
  if (op.startsWith('/')) {
    const cut = splitSlash(operand);
    const pattern = cut < 0 ? operand : operand.slice(0, cut);
    const replacement = cut < 0 ? '' : operand.slice(cut + 1);
    return { ...part, arg: readOperand(pattern), arg2: readOperand(replacement) };
  }
  if (op === ':') {
    const colon = operand.indexOf(':');
    const offset = colon < 0 ? operand : operand.slice(0, colon);
    return {
      ...part,
      arg: [{ t: 'lit', v: offset, q: true }],
      ...(colon < 0 ? {} : { arg2: [{ t: 'lit' as const, v: operand.slice(colon + 1), q: true }] }),
    };
  }
  return { ...part, arg: readOperand(operand) };
}

/** Read a `$...` expansion at `i` (pointing at `$`); returns the part and the index after it. */
export function readDollar(src: string, i: number, q: boolean): [WordPart, number] {
  const next = src[i + 1];
  if (next === '(' && src[i + 2] === '(') {
    const end = closeParen(src, i + 3);
    if (src[end + 1] === ')') return [{ t: 'arith', src: src.slice(i + 3, end), q }, end + 2];
  }
  if (next === '(') {
    const end = closeParen(src, i + 2);
    return [{ t: 'cmd', src: src.slice(i + 2, end), q }, end + 1];
  }
  if (next === '{') {
    const end = closeBrace(src, i + 2);
    return [readBrace(src.slice(i + 2, end), q), end + 1];
  }
  if (next === "'" && !q) {
    const [text, end] = ansiC(src, i + 2);
    return [{ t: 'lit', v: text, q: true }, end];
  }
  const name = next === undefined ? undefined : /^([A-Za-z_][A-Za-z0-9_]*|[0-9?#@*$!-])/.exec(src.slice(i + 1))?.[0];
  if (!name) return [{ t: 'lit', v: '$', q }, i + 1];
  return [{ t: 'var', name, q }, i + 1 + name.length];
}

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', e: '\x1b', f: '\f', v: '\v' };

/** `$'...'`: the text up to the closing quote with C escapes decoded. */
function ansiC(src: string, i: number): [string, number] {
  let out = '';
  for (; i < src.length && src[i] !== "'"; i++) {
    if (src[i] !== '\\') {
      out += src[i];
      continue;
    }
    const c = src[++i] ?? '';
    if (c in ESCAPES) out += ESCAPES[c];
    else if (c === 'x') {
      const hex = /^[0-9a-fA-F]{1,2}/.exec(src.slice(i + 1))?.[0] ?? '';
      out += String.fromCharCode(Number.parseInt(hex || '0', 16));
      i += hex.length;
    } else if (/[0-7]/.test(c)) {
      const oct = /^[0-7]{1,3}/.exec(src.slice(i))![0];
      out += String.fromCharCode(Number.parseInt(oct, 8));
      i += oct.length - 1;
    } else out += c;
  }
  if (i >= src.length) throw new ShellSyntaxError("unexpected end of input: a $' quote is not closed");
  return [out, i + 1];
}

/** Parse the inside of a double-quoted string (or a here-document) into parts. */
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

/**
 * Read one word from `i` until `stop` says a character ends it (outside quotes). With `operand`,
 * a backslash keeps the next character as quoted text, as inside `${v/pattern/...}`.
 */
export function lexWord(
  src: string,
  i: number,
  stop: (c: string, i: number) => boolean,
  _operand = false,
): [Word, number] {
  const parts: Word = [];
  let lit = '';
  const flush = () => {
    if (lit) parts.push({ t: 'lit', v: lit, q: false });
    lit = '';
  };
  while (i < src.length && !stop(src[i]!, i)) {
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
        else if (src[end] === '$' && src[end + 1] === '{') end = closeBrace(src, end + 2);
        else if (src[end] === '`') end = src.indexOf('`', end + 1);
        if (end < 0) break;
      }
      if (end < 0 || end >= src.length)
        throw new ShellSyntaxError('unexpected end of input: a double quote is not closed');
      flush();
      const inner = readWord(src.slice(i + 1, end), true);
      parts.push(...(inner.length ? inner : [{ t: 'lit' as const, v: '', q: true }]));
      i = end + 1;
    } else if (ch === '$') {
      flush();
      const [part, end] = readDollar(src, i, false);
      parts.push(part);
      i = end;
    } else if (ch === '`') {
      flush();
      const end = src.indexOf('`', i + 1);
      if (end < 0) throw new ShellSyntaxError('unexpected end of input: a backquote is not closed');
      parts.push({ t: 'cmd', src: src.slice(i + 1, end), q: false });
      i = end + 1;
    } else if ((ch === '<' || ch === '>') && src[i + 1] === '(') {
      flush();
      if (ch === '>') throw new ShellSyntaxError('process substitution >(...) is not supported by this shell');
      const end = closeParen(src, i + 2);
      parts.push({ t: 'procsub', src: src.slice(i + 2, end), q: false });
      i = end + 1;
    } else {
      lit += ch;
      i++;
    }
  }
  flush();
  return [parts, i];
}
