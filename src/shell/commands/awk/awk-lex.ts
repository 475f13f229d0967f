import { UsageError } from '../../context.js';

export type AwkToken =
  | { t: 'num'; v: number }
  | { t: 'str'; v: string }
  | { t: 're'; v: string }
  | { t: 'name'; v: string }
  | { t: 'func'; v: string }
  | { t: 'op'; v: string }
  | { t: 'nl' };

const OPS = [
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '^=',
  '==',
  '<=',
  '>=',
  '!=',
  '++',
  '--',
  '&&',
  '||',
  '>>',
  '!~',
  '{',
  '}',
  '(',
  ')',
  '[',
  ']',
  ';',
  ',',
  '+',
  '-',
  '*',
  '/',
  '%',
  '^',
  '!',
  '>',
  '<',
  '|',
  '?',
  ':',
  '~',
  '$',
  '=',
];
const STR_ESC: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  '\\': '\\',
  '"': '"',
  '/': '/',
  a: '\x07',
  b: '\b',
  f: '\f',
  v: '\v',
};

/** Tokens of an awk program; a `/` starts a regex where an operand is expected. */
export function lexAwk(src: string): AwkToken[] {
  const out: AwkToken[] = [];
  let i = 0;
  const operandEnded = () => {
    const last = out[out.length - 1];
    return (
      !!last &&
      (last.t === 'num' ||
        last.t === 'str' ||
        last.t === 'name' ||
        last.t === 're' ||
        (last.t === 'op' && [')', ']', '++', '--', '$'].includes(last.v) && last.v !== '$'))
    );
  };
  while (i < src.length) {
    const c = src[i]!;
    if (c === ' ' || c === '\t' || c === '\r') {
      i++;
      continue;
    }
    if (c === '\\' && src[i + 1] === '\n') {
      i += 2;
      continue;
    }
    if (c === '\n') {
      out.push({ t: 'nl' });
      i++;
      continue;
    }
    if (c === '#') {
      while (i < src.length && src[i] !== '\n') i++;
      continue;
    }
    if (c === '"') {
      let v = '';
      for (i++; i < src.length && src[i] !== '"'; i++) {
        if (src[i] === '\\') {
          const n = src[++i]!;
          v += STR_ESC[n] ?? `\\${n}`;
        } else v += src[i];
      }
      i++;
      out.push({ t: 'str', v });
      continue;
    }
    if (c === '/' && !operandEnded()) {
      let v = '';
      for (i++; i < src.length && src[i] !== '/'; i++) {
        if (src[i] === '\\' && src[i + 1] === '/') {
          v += '/';
          i++;
        } else if (src[i] === '\\') {
          v += src[i]! + src[++i]!;
        } else v += src[i];
      }
      i++;
      out.push({ t: 're', v });
      continue;
    }
    const num = /^(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?/.exec(src.slice(i));
    if (num) {
      out.push({ t: 'num', v: Number(num[0]) });
      i += num[0].length;
      continue;
    }
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i));
    if (name) {
      i += name[0].length;
      out.push(
        src[i] === '(' && !['if', 'while', 'for', 'print', 'printf', 'return', 'in'].includes(name[0])
          ? { t: 'func', v: name[0] }
          : { t: 'name', v: name[0] },
      );
      continue;
    }
    const op = OPS.find((o) => src.startsWith(o, i));
    if (!op) throw new UsageError(`syntax error at source line 1: unexpected character '${c}'`, 2);
    out.push({ t: 'op', v: op });
    i += op.length;
  }
  return out;
}
