import { encodeUtf8 } from '../../bytes.js';
import { UsageError, type CommandFn } from '../../context.js';
import { getopts, inputs, lines, resolve } from '../util.js';
import { lineRegexNow, loadLinearRegex, type LineMatch, type LineRegex } from './line-regex.js';
import { posixRegex } from './regex.js';

type Address =
  | { line: number }
  | { last: true }
  | { re: LineRegex }
  | { first: number; step: number }
  | { plus: number };
interface SedCommand {
  from?: Address;
  to?: Address;
  negate: boolean;
  name: string;
  re?: LineRegex;
  replacement?: string;
  global?: boolean;
  print?: boolean;
  nth?: number;
  text?: string;
  inRange?: boolean;
  /** where an `addr,+N` range ends, once it has started */
  rangeEnd?: number;
}

const ESCAPED: Record<string, string> = {
  '\\': '\\\\',
  '\x07': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
};

/** sed's `l`: the line with escapes and octal for what does not print, wrapped at 70 columns, ending in `$`. */
function unambiguous(line: string): string {
  let body = '';
  for (const byte of new TextEncoder().encode(line)) {
    const ch = String.fromCharCode(byte);
    body += ESCAPED[ch] ?? (byte >= 0x20 && byte < 0x7f ? ch : `\\${byte.toString(8).padStart(3, '0')}`);
  }
  let out = '';
  while (body.length > 69) {
    let cut = 69;
    // An escape is never split across lines.
    const esc = body.lastIndexOf('\\', cut - 1);
    if (esc > cut - 4 && esc >= 0) cut = esc;
    out += `${body.slice(0, cut)}\\\n`;
    body = body.slice(cut);
  }
  return `${out}${body}$\n`;
}

/** Read one sed script into commands: addresses (N, $, /re/, ranges, !), and s p d q a i c y = commands. */
function parseScript(script: string, extended: boolean): SedCommand[] {
  const cmds: SedCommand[] = [];
  let i = 0;
  const delimited = (delim: string): string => {
    let out = '';
    for (; i < script.length && script[i] !== delim; i++) {
      if (script[i] === '\\' && script[i + 1] === delim) {
        out += delim;
        i++;
      } else if (script[i] === '\\') {
        out += script[i]! + (script[i + 1] ?? '');
        i++;
      } else out += script[i];
    }
    if (script[i] !== delim) throw new UsageError(`-e expression #1, char ${i}: unterminated \`s' command`);
    i++;
    return out;
  };
  const address = (): Address | undefined => {
    const stepped = /^(\d+)~(\d+)/.exec(script.slice(i));
    if (stepped) {
      i += stepped[0].length;
      return { first: Number(stepped[1]), step: Number(stepped[2]) };
    }
    const plus = /^\+(\d+)/.exec(script.slice(i));
    if (plus) {
      i += plus[0].length;
      return { plus: Number(plus[1]) };
    }
    if (/\d/.test(script[i] ?? '')) {
      const m = /^\d+/.exec(script.slice(i))![0];
      i += m.length;
      return { line: Number(m) };
    }
    if (script[i] === '$') {
      i++;
      return { last: true };
    }
    if (script[i] === '/' || script[i] === '\\') {
      const delim = script[i] === '\\' ? script[++i]! : '/';
      i++;
      return { re: sedRegex(delimited(delim), extended, false) };
    }
    return undefined;
  };
  while (i < script.length) {
    while (/[\s;]/.test(script[i] ?? '')) i++;
    if (i >= script.length) break;
    const cmd: SedCommand = { negate: false, name: '' };
    cmd.from = address();
    if (cmd.from && script[i] === ',') {
      i++;
      cmd.to = address();
    }
    while (script[i] === ' ') i++;
    if (script[i] === '!') {
      cmd.negate = true;
      i++;
    }
    cmd.name = script[i++] ?? '';
    if (cmd.name === 's' || cmd.name === 'y') {
      const delim = script[i++]!;
      const pattern = delimited(delim);
      cmd.replacement = delimited(delim);
      if (cmd.name === 'y') {
        cmd.text = pattern;
      } else {
        const fl = /^[gpiI0-9]*/.exec(script.slice(i))![0];
        i += fl.length;
        cmd.global = fl.includes('g');
        cmd.print = fl.includes('p');
        cmd.nth = Number(fl.replace(/\D/g, '')) || 1;
        cmd.re = sedRegex(pattern, extended, /[iI]/.test(fl));
      }
    } else if ('aic'.includes(cmd.name)) {
      const m = /^\\?\n?\s*((?:[^\n\\]|\\.)*)/.exec(script.slice(i))!;
      cmd.text = m[1]!.replace(/\\(.)/g, '$1');
      i += m[0].length;
    } else if (!'pdq=l'.includes(cmd.name) || cmd.name === '') {
      throw new UsageError(`-e expression #1, char ${i}: unknown command: \`${cmd.name}'`);
    }
    cmds.push(cmd);
  }
  return cmds;
}

/** A sed pattern, on RE2 where it repeats anything (see lineRegexNow; the caller loads RE2 first). */
function sedRegex(pattern: string, extended: boolean, ignoreCase: boolean): LineRegex {
  return lineRegexNow(posixRegex(pattern, extended, '', true).source, ignoreCase);
}

/** A replacement with `&`, `\1`-`\9`, `\n` and escaped characters. */
function replace(template: string, m: LineMatch): string {
  return template.replace(/\\(\d)|\\n|\\t|\\r|\\(.)|&/g, (all, d: string | undefined, ch: string | undefined) =>
    d !== undefined
      ? (m.group(Number(d)) ?? '')
      : all === '\\n'
        ? '\n'
        : all === '\\t'
          ? '\t'
          : all === '\\r'
            ? '\r'
            : ch !== undefined
              ? ch
              : (m.group(0) ?? ''),
  );
}

function substitute(line: string, c: SedCommand): [string, boolean] {
  const re = c.re!;
  let out = '';
  let last = 0;
  let n = 0;
  let changed = false;
  let previousEnd = -1;
  for (let m = re.matchFrom(line, 0); m; ) {
    // GNU sed takes no empty match right where the last match ended (`s/b*/-/g` on `abc`: `-a-c-`)
    if (m.end === m.index && m.index === previousEnd) {
      m = m.index + 1 > line.length ? null : re.matchFrom(line, m.index + 1);
      continue;
    }
    previousEnd = m.end;
    n++;
    if (n >= c.nth! && (c.global || n === c.nth)) {
      out += line.slice(last, m.index) + replace(c.replacement!, m);
      last = m.end;
      changed = true;
    }
    if (!c.global && n >= c.nth!) break;
    // after an empty match the next search starts one further on, as JavaScript's and GNU's do
    const next = m.end + (m.end === m.index ? 1 : 0);
    m = next > line.length ? null : re.matchFrom(line, next);
  }
  return [out + line.slice(last), changed];
}

/** sed's options: the table the flags test reads. */
export const SED_FLAGS = 'nErsie' as const;

/** sed: a stream editor for the common scripts (s///, addresses with first~step and addr,+N, p, d, q, a, i, c, y, l, =), `-i[SUFFIX]` in place, -s. */
export const sed: CommandFn = async (ctx) => {
  // `-i.bak` / `--in-place=.bak`: edit in place and keep the original under that suffix.
  let backup: string | undefined;
  const args = ctx.args.map((a) => {
    const m = /^(?:-i|--in-place=)(.+)$/.exec(a);
    if (!m || (a.startsWith('-i') && /^-i[nEr]+$/.test(a))) return a;
    backup = m[1];
    return '-i';
  });
  const { operands, flags, values } = getopts(args, 'nErsi', 'e', {
    quiet: 'n',
    'regexp-extended': 'E',
    'in-place': 'i',
    expression: 'e',
  });
  const scripts = values.get('e') ?? (operands.length ? [operands.shift()!] : []);
  if (scripts.length === 0) throw new UsageError('no script specified', 1);
  await loadLinearRegex();
  const cmds = parseScript(scripts.join('\n'), flags.has('E') || flags.has('r'));
  const run = (text: string): { out: string; quit: boolean } => {
    const all = lines(text);
    const endsWithNewline = text.endsWith('\n');
    let out = '';
    let quit = false;
    const matches = (a: Address, n: number, line: string): boolean =>
      'line' in a
        ? a.line === n
        : 'last' in a
          ? n === all.length
          : 'step' in a
            ? a.step > 0
              ? n >= a.first && (n - a.first) % a.step === 0
              : n === a.first
            : 'plus' in a
              ? false
              : a.re.test(line);
    for (let idx = 0; idx < all.length && !quit; idx++) {
      let line = all[idx]!;
      const n = idx + 1;
      let deleted = false;
      const after: string[] = [];
      for (const c of cmds) {
        let hit = true;
        if (c.from && !c.to) hit = matches(c.from, n, line);
        else if (c.from && c.to) {
          if (!c.inRange) {
            if (matches(c.from, n, line)) {
              c.rangeEnd = 'plus' in c.to ? n + c.to.plus : undefined;
              c.inRange =
                c.rangeEnd !== undefined
                  ? c.rangeEnd > n
                  : !('line' in c.to && c.to.line <= n) && !(c.to && 'last' in c.to && n === all.length);
              hit = true;
            } else hit = false;
          } else {
            hit = true;
            if (
              c.rangeEnd !== undefined ? n >= c.rangeEnd : matches(c.to, n, line) || ('line' in c.to && c.to.line <= n)
            )
              c.inRange = false;
          }
        }
        if (hit === c.negate) continue;
        if (c.name === 's') {
          const [next, changed] = substitute(line, c);
          line = next;
          if (changed && c.print) out += `${line}\n`;
        } else if (c.name === 'y')
          line = [...line]
            .map((ch) => {
              const k = c.text!.indexOf(ch);
              return k < 0 ? ch : (c.replacement![k] ?? ch);
            })
            .join('');
        else if (c.name === 'p') out += `${line}\n`;
        else if (c.name === 'l') out += unambiguous(line);
        else if (c.name === 'd') {
          deleted = true;
          break;
        } else if (c.name === 'q') {
          quit = true;
          break;
        } else if (c.name === '=') out += `${n}\n`;
        else if (c.name === 'a') after.push(c.text!);
        else if (c.name === 'i') out += `${c.text}\n`;
        else if (c.name === 'c') {
          if (!c.to || !c.inRange) out += `${c.text}\n`;
          deleted = true;
          break;
        }
      }
      if (!deleted && !flags.has('n'))
        out += n === all.length && !endsWithNewline && after.length === 0 ? line : `${line}\n`;
      for (const a of after) out += `${a}\n`;
    }
    return { out, quit };
  };
  if (flags.has('i')) {
    if (operands.length === 0) throw new UsageError('no input files');
    const { texts, failed } = await inputs(ctx, operands);
    for (const { name, text } of texts) {
      if (backup !== undefined) {
        const kept = backup.includes('*') ? backup.replaceAll('*', name.split('/').pop()!) : `${name}${backup}`;
        await ctx.shell.state.fs.writeFile(resolve(ctx, kept), encodeUtf8(text));
      }
      await ctx.shell.state.fs.writeFile(resolve(ctx, name), encodeUtf8(run(text).out));
    }
    return failed ? 2 : 0;
  }
  const { texts, failed } = await inputs(ctx, operands);
  // -s: each file on its own (`$` is each file's last line), as -i does.
  if (flags.has('s'))
    for (const t of texts) {
      for (const c of cmds) c.inRange = false;
      const r = run(t.text);
      ctx.out(r.out);
      if (r.quit) break;
    }
  else ctx.out(run(texts.map((t) => t.text).join('')).out);
  return failed ? 2 : 0;
};
