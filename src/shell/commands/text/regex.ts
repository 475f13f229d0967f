import { UsageError } from '../../context.js';

const CLASSES: Record<string, string> = {
  alpha: 'a-zA-Z',
  digit: '0-9',
  alnum: 'a-zA-Z0-9',
  upper: 'A-Z',
  lower: 'a-z',
  space: ' \\t\\n\\r\\f\\v',
  blank: ' \\t',
  punct: '!-\\/:-@\\[-`{-~',
  xdigit: '0-9A-Fa-f',
  word: 'A-Za-z0-9_',
};

/**
 * A POSIX regular expression (basic, or extended with `extended`) as a JavaScript one: in a basic
 * one `\(`, `\)`, `\{`, `\}`, `\|`, `\+`, `\?` are the operators and the bare characters literal.
 */
export function posixRegex(src: string, extended: boolean, flags = '', sedEscapes = false): RegExp {
  let out = '';
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    if (c === '[') {
      let j = i + 1;
      let body = '';
      if (src[j] === '^') {
        body += '^';
        j++;
      }
      if (src[j] === ']') {
        body += '\\]';
        j++;
      }
      for (; j < src.length && src[j] !== ']'; j++) {
        const cls = /^\[:([a-z]+):\]/.exec(src.slice(j));
        if (cls) {
          body += CLASSES[cls[1]!] ?? '';
          j += cls[0].length - 1;
        } else body += src[j] === '\\' ? '\\\\' : src[j];
      }
      if (j >= src.length) throw new UsageError('Unmatched [, [^, [:, [., or [=', 2);
      out += `[${body}]`;
      i = j;
    } else if (c === '\\' && i + 1 < src.length) {
      const n = src[++i]!;
      if (!extended && '(){}|+?'.includes(n)) out += n;
      else if (/[1-9wWsSbB]/.test(n)) out += `\\${n}`;
      else if (n === '<' || n === '>') out += '\\b';
      else if (n === 'n') out += '\\n';
      else if (sedEscapes && (n === 't' || n === 'r')) out += `\\${n}`;
      else if (n === 't') out += 't';
      else out += /[A-Za-z0-9]/.test(n) ? n : `\\${n}`;
    } else if (!extended && '(){}|+?'.includes(c)) out += `\\${c}`;
    else if (!extended && c === '*' && (out === '' || out.endsWith('^'))) out += '\\*';
    else if (c === '/') out += '\\/';
    else out += c;
  }
  try {
    return new RegExp(out, flags);
  } catch {
    throw new UsageError(`invalid regular expression '${src}'`, 2);
  }
}

export const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
