/** A JSON value as jq sees it. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A parsed jq filter. */
export type JqNode =
  | { k: 'identity' }
  | { k: 'recurse' }
  | { k: 'literal'; value: Json }
  | { k: 'string'; parts: Array<string | JqNode> }
  | { k: 'index'; of: JqNode; key: JqNode }
  | { k: 'slice'; of: JqNode; from: JqNode | null; to: JqNode | null }
  | { k: 'iterate'; of: JqNode }
  | { k: 'try'; body: JqNode }
  | { k: 'array'; body: JqNode | null }
  | { k: 'object'; entries: Array<{ key: JqNode; value: JqNode }> }
  | { k: 'pipe' | 'comma' | 'alt' | 'and' | 'or'; left: JqNode; right: JqNode }
  | { k: 'binary'; op: string; left: JqNode; right: JqNode }
  | { k: 'neg'; of: JqNode }
  | { k: 'if'; cond: JqNode; then: JqNode; else: JqNode | null }
  | { k: 'call'; name: string; args: JqNode[] };

/** A filter jq would not compile: status 3, as jq's compile errors have. */
export class JqSyntaxError extends Error {}

type Token = { t: 'punct' | 'ident' | 'field' | 'num' | 'str' | 'end'; v: string; parts?: Array<string | JqNode> };

const PUNCT = [
  '..',
  '==',
  '!=',
  '<=',
  '>=',
  '//',
  '.',
  '[',
  ']',
  '{',
  '}',
  '(',
  ')',
  '|',
  ',',
  ':',
  '?',
  '<',
  '>',
  '+',
  '-',
  '*',
  '/',
  '%',
  ';',
];
const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '"': '"', '\\': '\\', '/': '/' };

function lex(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '#') {
      while (i < src.length && src[i] !== '\n') i++;
      continue;
    }
    const rest = src.slice(i);
    const field = /^\.([A-Za-z_][A-Za-z0-9_]*)/.exec(rest);
    const ident = /^[A-Za-z_][A-Za-z0-9_]*/.exec(rest);
    const num = /^(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?/.exec(rest);
    if (field) {
      out.push({ t: 'field', v: field[1]! });
      i += field[0].length;
      continue;
    }
    if (ident) {
      out.push({ t: 'ident', v: ident[0] });
      i += ident[0].length;
      continue;
    }
    if (num) {
      out.push({ t: 'num', v: num[0] });
      i += num[0].length;
      continue;
    }
    if (c === '"') {
      i = lexString(src, i + 1, out);
      continue;
    }
    const p = PUNCT.find((q) => rest.startsWith(q));
    if (!p) throw new JqSyntaxError(`syntax error, unexpected INVALID_CHARACTER '${c}'`);
    out.push({ t: 'punct', v: p });
    i += p.length;
  }
  out.push({ t: 'end', v: '' });
  return out;
}

/** A string literal from just after its opening quote; `\(...)` holds a filter. Returns the index after the closing quote. */
function lexString(src: string, i: number, out: Token[]): number {
  const parts: Array<string | JqNode> = [];
  let text = '';
  for (;;) {
    if (i >= src.length) throw new JqSyntaxError('syntax error, unterminated string');
    const c = src[i++]!;
    if (c === '"') break;
    if (c !== '\\') {
      text += c;
      continue;
    }
    const e = src[i++] ?? '';
    if (e === 'u') {
      text += String.fromCharCode(parseInt(src.slice(i, i + 4), 16));
      i += 4;
      continue;
    }
    if (e !== '(') {
      if (!(e in ESCAPES)) throw new JqSyntaxError(`syntax error, invalid escape \\${e}`);
      text += ESCAPES[e];
      continue;
    }
    let depth = 1;
    let j = i;
    for (; j < src.length && depth > 0; j++) {
      if (src[j] === '(') depth++;
      else if (src[j] === ')') depth--;
      else if (src[j] === '"') for (j++; j < src.length && src[j] !== '"'; j++) if (src[j] === '\\') j++;
    }
    if (depth > 0) throw new JqSyntaxError('syntax error, unterminated \\( in a string');
    if (text) parts.push(text);
    text = '';
    parts.push(parseJq(src.slice(i, j - 1)));
    i = j;
  }
  if (text || parts.length === 0) parts.push(text);
  out.push({ t: 'str', v: '', parts });
  return i;
}

/** Parse a jq filter (the subset the shell's `jq` runs). */
export function parseJq(src: string): JqNode {
  const tokens = lex(src);
  let pos = 0;
  const peek = () => tokens[pos]!;
  const is = (v: string, t: Token['t'] = 'punct') => peek().t === t && peek().v === v;
  const take = (v: string, t: Token['t'] = 'punct') => {
    if (!is(v, t))
      throw new JqSyntaxError(
        `syntax error, unexpected ${peek().t === 'end' ? '$end' : `'${peek().v}'`}, expecting '${v}'`,
      );
    pos++;
  };
  const accept = (v: string, t: Token['t'] = 'punct') => (is(v, t) ? (pos++, true) : false);

  const pipe = (): JqNode => {
    const left = comma();
    return accept('|') ? { k: 'pipe', left, right: pipe() } : left;
  };
  const comma = (): JqNode => {
    let left = alt();
    while (accept(',')) left = { k: 'comma', left, right: alt() };
    return left;
  };
  // An object's value: a pipe of terms without a comma at the top.
  const objectValue = (): JqNode => {
    const left = alt();
    return accept('|') ? { k: 'pipe', left, right: objectValue() } : left;
  };
  const alt = (): JqNode => {
    const left = or();
    return accept('//') ? { k: 'alt', left, right: alt() } : left;
  };
  const or = (): JqNode => {
    let left = and();
    while (accept('or', 'ident')) left = { k: 'or', left, right: and() };
    return left;
  };
  const and = (): JqNode => {
    let left = compare();
    while (accept('and', 'ident')) left = { k: 'and', left, right: compare() };
    return left;
  };
  const compare = (): JqNode => {
    const left = additive();
    const op = ['==', '!=', '<=', '>=', '<', '>'].find((o) => is(o));
    if (!op) return left;
    pos++;
    return { k: 'binary', op, left, right: additive() };
  };
  const additive = (): JqNode => {
    let left = multiplicative();
    for (let op = ['+', '-'].find((o) => is(o)); op; op = ['+', '-'].find((o) => is(o))) {
      pos++;
      left = { k: 'binary', op, left, right: multiplicative() };
    }
    return left;
  };
  const multiplicative = (): JqNode => {
    let left = unary();
    for (let op = ['*', '/', '%'].find((o) => is(o)); op; op = ['*', '/', '%'].find((o) => is(o))) {
      pos++;
      left = { k: 'binary', op, left, right: unary() };
    }
    return left;
  };
  const unary = (): JqNode => (accept('-') ? { k: 'neg', of: postfix() } : postfix());

  const postfix = (): JqNode => {
    let node = term();
    for (;;) {
      if (peek().t === 'field') node = { k: 'index', of: node, key: { k: 'literal', value: tokens[pos++]!.v } };
      else if (is('.') && tokens[pos + 1]?.t === 'str') {
        pos++;
        node = { k: 'index', of: node, key: { k: 'string', parts: tokens[pos++]!.parts! } };
      } else if (is('[') || (is('.') && tokens[pos + 1]?.v === '[')) {
        accept('.');
        node = bracket(node);
      } else if (accept('?')) node = { k: 'try', body: node };
      else return node;
    }
  };
  const bracket = (of: JqNode): JqNode => {
    take('[');
    if (accept(']')) return { k: 'iterate', of };
    const from = is(':') ? null : pipe();
    if (accept(':')) {
      const to = is(']') ? null : pipe();
      take(']');
      return { k: 'slice', of, from, to };
    }
    take(']');
    return { k: 'index', of, key: from! };
  };

  const term = (): JqNode => {
    const tok = peek();
    if (tok.t === 'field') return { k: 'identity' };
    if (tok.t === 'num') {
      pos++;
      return { k: 'literal', value: Number(tok.v) };
    }
    if (tok.t === 'str') {
      pos++;
      return { k: 'string', parts: tok.parts! };
    }
    if (accept('..')) return { k: 'recurse' };
    if (accept('.')) {
      if (peek().t === 'str' || is('[')) pos--;
      return { k: 'identity' };
    }
    if (accept('(')) {
      const body = pipe();
      take(')');
      return body;
    }
    if (accept('[')) {
      if (accept(']')) return { k: 'array', body: null };
      const body = pipe();
      take(']');
      return { k: 'array', body };
    }
    if (accept('{')) return object();
    if (tok.t === 'ident') return word(tok.v);
    throw new JqSyntaxError(`syntax error, unexpected ${tok.t === 'end' ? '$end' : `'${tok.v}'`}`);
  };
  const object = (): JqNode => {
    const entries: Array<{ key: JqNode; value: JqNode }> = [];
    while (!accept('}')) {
      if (entries.length > 0) take(',');
      const tok = peek();
      let key: JqNode;
      if (tok.t === 'ident') {
        pos++;
        key = { k: 'literal', value: tok.v };
      } else if (tok.t === 'str') {
        pos++;
        key = { k: 'string', parts: tok.parts! };
      } else if (accept('(')) {
        key = pipe();
        take(')');
      } else throw new JqSyntaxError(`syntax error, unexpected '${tok.v || '$end'}' in an object`);
      // `{a}` is `{a: .a}`
      const value: JqNode = accept(':') ? objectValue() : { k: 'index', of: { k: 'identity' }, key };
      entries.push({ key, value });
    }
    return { k: 'object', entries };
  };
  const word = (name: string): JqNode => {
    pos++;
    if (name === 'true' || name === 'false') return { k: 'literal', value: name === 'true' };
    if (name === 'null') return { k: 'literal', value: null };
    if (name === 'if') return conditional();
    if (name === 'try') return { k: 'try', body: postfix() };
    const args: JqNode[] = [];
    if (accept('(')) {
      do args.push(pipe());
      while (accept(';'));
      take(')');
    }
    return { k: 'call', name, args };
  };
  const conditional = (): JqNode => {
    const cond = pipe();
    take('then', 'ident');
    const then = pipe();
    if (accept('elif', 'ident')) return { k: 'if', cond, then, else: conditional() };
    const otherwise = accept('else', 'ident') ? pipe() : null;
    take('end', 'ident');
    return { k: 'if', cond, then, else: otherwise };
  };

  const node = pipe();
  if (peek().t !== 'end') throw new JqSyntaxError(`syntax error, unexpected '${peek().v}'`);
  return node;
}
