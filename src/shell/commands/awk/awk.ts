import { encodeUtf8 } from '../../bytes.js';
import { UsageError, type CommandFn } from '../../context.js';
import { lexAwk } from './awk-lex.js';
import { parseAwk, type Expr, type Rule, type Stmt } from './awk-parse.js';
import { formatPrintf } from '../text/printf.js';
import { posixRegex } from '../text/regex.js';
import { getopts, inputs, lines, readText, resolve } from '../util.js';

type Value = string | number;
const NUMERIC = /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/;
const num = (v: Value): number => (typeof v === 'number' ? v : parseFloat(v) || 0);
const str = (v: Value): string =>
  typeof v === 'string' ? v : Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(6)));
const truthy = (v: Value) => (typeof v === 'number' ? v !== 0 : v !== '');
class Next {}
class Exit {
  constructor(readonly code: number) {}
}
class Break {}
class Continue {}

/** awk's options: the table the flags test reads. */
export const AWK_FLAGS = 'Fvf' as const;

/** awk: patterns and actions, fields, arrays, printf and the common string functions. */
export const awk: CommandFn = async (ctx) => {
  const { operands, values } = getopts(ctx.args, '', 'Fvf');
  // -f FILE: the program is read from the files named, the operands are all input
  const program = values.has('f')
    ? (await Promise.all(values.get('f')!.map((f) => readText(ctx, f)))).join('\n')
    : operands.shift();
  if (program === undefined) throw new UsageError('usage: awk [-F fs][-v var=value][prog | -f progfile][file ...]', 2);
  const rules: Rule[] = parseAwk(lexAwk(program));
  const vars = new Map<string, Value>([
    ['FS', ' '],
    ['OFS', ' '],
    ['ORS', '\n'],
    ['NR', 0],
    ['NF', 0],
    ['FNR', 0],
    ['SUBSEP', '\x1c'],
    ['RSTART', 0],
    ['RLENGTH', -1],
  ]);
  const arrays = new Map<string, Map<string, Value>>();
  const files = new Map<string, string>();
  if (values.has('F')) vars.set('FS', values.get('F')![0]!.replace(/^t$/, '\t').replace(/\\t/g, '\t'));
  for (const a of values.get('v') ?? []) vars.set(a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1));
  let fields: string[] = [''];
  const regexCache = new Map<string, RegExp>();
  const re = (src: string, g = '') => {
    const key = g + src;
    let r = regexCache.get(key);
    if (!r) {
      r = posixRegex(src, true, g);
      regexCache.set(key, r);
    }
    return r;
  };
  const split = (text: string, fs: string): string[] => {
    if (fs === ' ') return text.split(/[ \t\n]+/).filter((x) => x !== '');
    if (text === '') return [];
    return text.split(fs.length === 1 && fs !== '\\' ? fs : re(fs));
  };
  const setRecord = (line: string) => {
    fields = [line, ...split(line, str(vars.get('FS')!))];
    vars.set('NF', fields.length - 1);
  };
  const rebuild = () => {
    fields[0] = fields.slice(1).join(str(vars.get('OFS')!));
  };
  const arr = (name: string) => {
    let a = arrays.get(name);
    if (!a) {
      a = new Map();
      arrays.set(name, a);
    }
    return a;
  };
  const fieldValue = (n: number): Value => {
    const f = fields[n] ?? '';
    return NUMERIC.test(f) ? f : f;
  };
  const key = (idx: Expr[]) => idx.map((e) => str(ev(e))).join(str(vars.get('SUBSEP')!));
  const asRegex = (e: Expr) => (e.k === 're' ? re(e.v) : re(str(ev(e))));

  function get(e: Expr): Value {
    if (e.k === 'var') return vars.get(e.name) ?? '';
    if (e.k === 'index') return arr(e.name).get(key(e.idx)) ?? '';
    if (e.k === 'field') return fieldValue(num(ev(e.e)));
    return ev(e);
  }
  function set(e: Expr, v: Value): Value {
    if (e.k === 'var') {
      vars.set(e.name, v);
      if (e.name === 'NF') {
        fields.length = num(v) + 1;
        for (let n = 0; n < fields.length; n++) fields[n] ??= '';
        rebuild();
      }
    } else if (e.k === 'index') arr(e.name).set(key(e.idx), v);
    else if (e.k === 'field') {
      const n = num(ev(e.e));
      if (n === 0) setRecord(str(v));
      else {
        while (fields.length <= n) fields.push('');
        fields[n] = str(v);
        vars.set('NF', fields.length - 1);
        rebuild();
      }
    }
    return v;
  }
  function compare(op: string, a: Value, b: Value, ea: Expr, eb: Expr): boolean {
    const looksNum = (v: Value, e: Expr) => typeof v === 'number' || (e.k !== 'str' && NUMERIC.test(v));
    const c = looksNum(a, ea) && looksNum(b, eb) ? num(a) - num(b) : str(a) < str(b) ? -1 : str(a) > str(b) ? 1 : 0;
    return op === '<'
      ? c < 0
      : op === '<='
        ? c <= 0
        : op === '>'
          ? c > 0
          : op === '>='
            ? c >= 0
            : op === '=='
              ? c === 0
              : c !== 0;
  }
  function ev(e: Expr): Value {
    switch (e.k) {
      case 'num':
      case 'str':
        return e.v;
      case 're':
        return Number(re(e.v).test(fields[0]!));
      case 'var':
      case 'index':
      case 'field':
        return get(e);
      case 'group':
        return ev(e.e);
      case 'un': {
        const v = ev(e.e);
        return e.op === '!' ? Number(!truthy(v)) : e.op === '-' ? -num(v) : num(v);
      }
      case 'cond':
        return truthy(ev(e.c)) ? ev(e.a) : ev(e.b);
      case 'match': {
        const r = asRegex(e.re).test(str(ev(e.a)));
        return Number(r !== e.neg);
      }
      case 'in':
        return Number(arr(e.name).has(key(e.key)));
      case 'assign': {
        const v = ev(e.e);
        if (e.op === '=') return set(e.target, typeof v === 'string' && e.e.k === 'field' ? v : v);
        const old = num(get(e.target)),
          r = num(v);
        const out =
          e.op === '+='
            ? old + r
            : e.op === '-='
              ? old - r
              : e.op === '*='
                ? old * r
                : e.op === '/='
                  ? old / r
                  : e.op === '%='
                    ? old % r
                    : old ** r;
        return set(e.target, out);
      }
      case 'incr': {
        const old = num(get(e.target));
        set(e.target, e.op === '++' ? old + 1 : old - 1);
        return e.prefix ? (e.op === '++' ? old + 1 : old - 1) : old;
      }
      case 'bin': {
        if (e.op === '&&') return Number(truthy(ev(e.a)) && truthy(ev(e.b)));
        if (e.op === '||') return Number(truthy(ev(e.a)) || truthy(ev(e.b)));
        const a = ev(e.a),
          b = ev(e.b);
        if (e.op === 'cat') return str(a) + str(b);
        if (['<', '<=', '>', '>=', '==', '!='].includes(e.op)) return Number(compare(e.op, a, b, e.a, e.b));
        const x = num(a),
          y = num(b);
        if ((e.op === '/' || e.op === '%') && y === 0) throw new UsageError('division by zero', 2);
        return e.op === '+'
          ? x + y
          : e.op === '-'
            ? x - y
            : e.op === '*'
              ? x * y
              : e.op === '/'
                ? x / y
                : e.op === '%'
                  ? x % y
                  : x ** y;
      }
      case 'call':
        return call(e.name, e.args);
    }
  }
  function call(name: string, args: Expr[]): Value {
    const s = (n: number) => str(args[n] ? ev(args[n]!) : fields[0]!);
    switch (name) {
      case 'length':
        return args[0]?.k === 'var' && arrays.has(args[0].name) ? arrays.get(args[0].name)!.size : s(0).length;
      case 'substr': {
        const t = s(0);
        const start = Math.round(num(ev(args[1]!)));
        const len = args[2] ? Math.round(num(ev(args[2]))) : Infinity;
        const from = Math.max(start, 1);
        const to = Math.min(start + len, t.length + 1);
        return to > from ? t.slice(from - 1, to - 1) : '';
      }
      case 'index':
        return s(0).indexOf(s(1)) + 1;
      case 'toupper':
        return s(0).toUpperCase();
      case 'tolower':
        return s(0).toLowerCase();
      case 'int':
        return Math.trunc(num(ev(args[0]!)));
      case 'sqrt':
        return Math.sqrt(num(ev(args[0]!)));
      case 'sprintf':
        return formatPrintf(
          s(0),
          args.slice(1).map((a) => str(ev(a))),
        ).text;
      case 'split': {
        const parts = split(s(0), args[2] ? (args[2].k === 're' ? args[2].v : str(ev(args[2]))) : str(vars.get('FS')!));
        const target = arr((args[1] as { name: string }).name);
        target.clear();
        parts.forEach((p, n) => target.set(String(n + 1), p));
        return parts.length;
      }
      case 'match': {
        const m = asRegex(args[1]!).exec(s(0));
        vars.set('RSTART', m ? m.index + 1 : 0);
        vars.set('RLENGTH', m ? m[0].length : -1);
        return m ? m.index + 1 : 0;
      }
      case 'sub':
      case 'gsub': {
        const target = args[2] ?? { k: 'field' as const, e: { k: 'num' as const, v: 0 } };
        const r = new RegExp(asRegex(args[0]!).source, name === 'gsub' ? 'g' : '');
        const text = str(get(target));
        let count = 0;
        const repl = s(1);
        const out = text.replace(r, (m) => {
          count++;
          return repl.replace(/\\&|&/g, (x) => (x === '&' ? m : '&'));
        });
        if (count) set(target, out);
        return count;
      }
      default:
        throw new UsageError(`calling undefined function ${name}`, 2);
    }
  }
  const emit = (text: string, dest?: { append: boolean; e: Expr }) => {
    if (!dest) return ctx.out(text);
    const path = str(ev(dest.e));
    files.set(path, (files.get(path) ?? '') + text);
  };
  function exec(st: Stmt): void {
    switch (st.k) {
      case 'print': {
        const text = st.printf
          ? formatPrintf(
              str(ev(st.args[0]!)),
              st.args.slice(1).map((a) => str(ev(a))),
            ).text
          : (st.args.length
              ? st.args
                  .map((a) => {
                    const v = ev(a);
                    return typeof v === 'number' ? str(v) : v;
                  })
                  .join(str(vars.get('OFS')!))
              : fields[0]!) + str(vars.get('ORS')!);
        emit(text, st.dest);
        return;
      }
      case 'if':
        if (truthy(ev(st.c))) exec(st.a);
        else if (st.b) exec(st.b);
        return;
      case 'while':
        if (st.doWhile) {
          do {
            ctx.shell.checkTime();
            if (loopBody(st.body)) break;
          } while (truthy(ev(st.c)));
          return;
        }
        while (truthy(ev(st.c))) {
          ctx.shell.checkTime();
          if (loopBody(st.body)) break;
        }
        return;
      case 'for':
        for (st.init && ev(st.init); !st.c || truthy(ev(st.c)); st.step && ev(st.step)) {
          ctx.shell.checkTime();
          if (loopBody(st.body)) break;
        }
        return;
      case 'forin':
        for (const k of [...arr(st.arr).keys()]) {
          vars.set(st.v, k);
          if (loopBody(st.body)) break;
        }
        return;
      case 'block':
        for (const s of st.body) exec(s);
        return;
      case 'expr':
        ev(st.e);
        return;
      case 'next':
        throw new Next();
      case 'exit':
        throw new Exit(st.e ? num(ev(st.e)) : 0);
      case 'break':
        throw new Break();
      case 'continue':
        throw new Continue();
      case 'delete':
        if (st.idx) arr(st.name).delete(key(st.idx));
        else arr(st.name).clear();
        return;
    }
  }
  function loopBody(body: Stmt): boolean {
    try {
      exec(body);
    } catch (e) {
      if (e instanceof Break) return true;
      if (!(e instanceof Continue)) throw e;
    }
    return false;
  }
  const inRange = new Set<Rule>();
  let code = 0;
  try {
    for (const r of rules) if (r.kind === 'begin') r.body!.forEach(exec);
    if (rules.some((r) => r.kind !== 'begin')) {
      const { texts, failed } = await inputs(
        ctx,
        operands.filter((o) => !/^[A-Za-z_]\w*=/.test(o)),
      );
      if (failed) code = 2;
      for (const { name, text } of texts) {
        vars.set('FILENAME', name === '-' ? '' : name);
        vars.set('FNR', 0);
        for (const line of lines(text)) {
          vars.set('NR', num(vars.get('NR')!) + 1);
          vars.set('FNR', num(vars.get('FNR')!) + 1);
          setRecord(line);
          try {
            for (const r of rules) {
              if (r.kind !== 'main') continue;
              let hit = !r.pattern || truthy(ev(r.pattern));
              if (r.to) {
                if (inRange.has(r)) {
                  hit = true;
                  if (truthy(ev(r.to))) inRange.delete(r);
                } else if (hit && !truthy(ev(r.to))) inRange.add(r);
              }
              if (!hit) continue;
              if (r.body) r.body.forEach(exec);
              else ctx.out(fields[0]! + str(vars.get('ORS')!));
            }
          } catch (e) {
            if (!(e instanceof Next)) throw e;
          }
        }
      }
    }
    for (const r of rules) if (r.kind === 'end') r.body!.forEach(exec);
  } catch (e) {
    if (!(e instanceof Exit)) throw e;
    code = e.code;
    try {
      for (const r of rules) if (r.kind === 'end') r.body!.forEach(exec);
    } catch (e2) {
      if (!(e2 instanceof Exit)) throw e2;
      code = e2.code;
    }
  }
  for (const [path, text] of files) await ctx.shell.state.fs.writeFile(resolve(ctx, path), encodeUtf8(text));
  return code;
};
