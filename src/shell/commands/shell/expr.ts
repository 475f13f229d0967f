import { UsageError, type CommandFn } from '../../context.js';
import { posixRegex } from '../text/regex.js';

const isInt = (s: string) => /^-?\d+$/.test(s);
const toInt = (s: string, op: string) => {
  if (!isInt(s)) throw new UsageError('non-integer argument', 2);
  void op;
  return BigInt(s);
};

/** expr: GNU expr's operators (| & comparisons + - * / % :) and match, substr, index, length. */
export const expr: CommandFn = async (ctx) => {
  const args = ctx.args[0] === '--' ? ctx.args.slice(1) : ctx.args;
  if (!args.length) throw new UsageError('missing operand', 2);
  let i = 0;
  const match = (s: string, re: string) => {
    const m = posixRegex(re, false).exec(s);
    if (!m || m.index !== 0) return re.includes('\\(') ? '' : '0';
    return m[1] !== undefined || re.includes('\\(') ? (m[1] ?? '') : String(m[0].length);
  };
  const primary = (): string => {
    const t = args[i++];
    if (t === undefined) throw new UsageError(`syntax error: missing argument after '${args[i - 2]}'`, 2);
    if (t === '(') {
      const v = or();
      if (args[i++] !== ')') throw new UsageError("syntax error: expecting ')'", 2);
      return v;
    }
    if (t === 'length') return String([...primary()].length);
    if (t === 'match') return match(primary(), primary());
    if (t === 'index') {
      const s = primary();
      const chars = primary();
      const k = [...s].findIndex((c) => chars.includes(c));
      return String(k + 1);
    }
    if (t === 'substr') {
      const s = [...primary()];
      const pos = Number(toInt(primary(), 'substr'));
      const len = Number(toInt(primary(), 'substr'));
      return pos < 1 || len < 1 ? '' : s.slice(pos - 1, pos - 1 + len).join('');
    }
    if (t === '+') return args[i++] ?? '';
    return t;
  };
  const colon = (): string => {
    let v = primary();
    while (args[i] === ':') {
      i++;
      v = match(v, primary());
    }
    return v;
  };
  const binary = (next: () => string, ops: string[], apply: (a: string, b: string, op: string) => string) => () => {
    let v = next();
    while (ops.includes(args[i]!)) {
      const op = args[i++]!;
      v = apply(v, next(), op);
    }
    return v;
  };
  const mul = binary(colon, ['*', '/', '%'], (a, b, op) => {
    const [x, y] = [toInt(a, op), toInt(b, op)];
    if (op !== '*' && y === 0n) throw new UsageError('division by zero', 2);
    return String(op === '*' ? x * y : op === '/' ? x / y : x % y);
  });
  const add = binary(mul, ['+', '-'], (a, b, op) =>
    String(op === '+' ? toInt(a, op) + toInt(b, op) : toInt(a, op) - toInt(b, op)),
  );
  const cmp = binary(add, ['<', '<=', '=', '==', '!=', '>=', '>'], (a, b, op) => {
    const c = isInt(a) && isInt(b) ? Number(BigInt(a) - BigInt(b)) : a < b ? -1 : a > b ? 1 : 0;
    const ok = { '<': c < 0, '<=': c <= 0, '=': c === 0, '==': c === 0, '!=': c !== 0, '>=': c >= 0, '>': c > 0 }[op];
    return ok ? '1' : '0';
  });
  const truthy = (v: string) => v !== '' && v !== '0' && !/^-?0+$/.test(v);
  const and = binary(cmp, ['&'], (a, b) => (truthy(a) && truthy(b) ? a : '0'));
  const or = binary(and, ['|'], (a, b) => (truthy(a) ? a : truthy(b) ? b : '0'));
  const result = or();
  if (i < args.length) throw new UsageError(`syntax error: unexpected argument '${args[i]}'`, 2);
  ctx.out(`${result}\n`);
  return truthy(result) ? 0 : 1;
};
