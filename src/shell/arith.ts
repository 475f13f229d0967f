import { ShellSyntaxError } from './ast.js';

interface VarHost {
  getVar(name: string): string | undefined;
  setVar(name: string, value: string): void;
}

const BINARY: Array<[string[], (a: number, b: number) => number]> = [
  [['||'], (a, b) => Number(a !== 0 || b !== 0)],
  [['&&'], (a, b) => Number(a !== 0 && b !== 0)],
  [['|'], () => 0],
  [['^'], () => 0],
  [['&'], () => 0],
  [['==', '!='], () => 0],
  [['<=', '>=', '<', '>'], () => 0],
  [['<<', '>>'], () => 0],
  [['+', '-'], () => 0],
  [['*', '/', '%'], () => 0],
  [['**'], () => 0],
];

function apply(op: string, a: number, b: number): number {
  switch (op) {
    case '||':
      return Number(a !== 0 || b !== 0);
    case '&&':
      return Number(a !== 0 && b !== 0);
    case '==':
      return Number(a === b);
    case '!=':
      return Number(a !== b);
    case '<=':
      return Number(a <= b);
    case '>=':
      return Number(a >= b);
    case '<':
      return Number(a < b);
    case '>':
      return Number(a > b);
    case '+':
      return a + b;
    case '-':
      return a - b;
    case '*':
      return a * b;
    case '**':
      return a ** b;
    case '|':
      return a | b;
    case '^':
      return a ^ b;
    case '&':
      return a & b;
    case '<<':
      return a << b;
    case '>>':
      return a >> b;
    case '/':
      if (b === 0) throw new ShellSyntaxError('division by 0');
      return Math.trunc(a / b);
    default:
      if (b === 0) throw new ShellSyntaxError('division by 0');
      return a % b;
  }
}

/** Evaluate `$(( ... ))`: integers, variables, + - * / %, comparisons, && || !, parentheses, `x=`, `x+=`. */
export function evalArithmetic(src: string, host: VarHost): number {
  const tokens =
    src.match(
      /0[xX][0-9a-fA-F]+|\d+|[A-Za-z_][A-Za-z0-9_]*|\*\*|<<|>>|\|\||&&|==|!=|<=|>=|\+=|-=|\*=|\/=|\+\+|--|[-+*/%()<>!=&|^?:~]/g,
    ) ?? [];
  if (tokens.join('') !== src.replace(/\s+/g, ''))
    throw new ShellSyntaxError(`${src.trim()}: syntax error in expression`);
  let i = 0;
  const literal = (t: string) =>
    /^0[xX]/.test(t) ? Number.parseInt(t, 16) : /^0[0-7]+$/.test(t) ? Number.parseInt(t, 8) : Number(t);
  const value = (t: string) => (/^\d/.test(t) ? literal(t) : Number(host.getVar(t) ?? 0) || 0);
  function ternary(): number {
    const cond = level(0);
    if (tokens[i] !== '?') return cond;
    i++;
    const yes = ternary();
    if (tokens[i++] !== ':') throw new ShellSyntaxError(`${src.trim()}: ':' expected for conditional expression`);
    const no = ternary();
    return cond !== 0 ? yes : no;
  }
  function level(n: number): number {
    if (n === BINARY.length) return unary();
    let left = level(n + 1);
    while (i < tokens.length && BINARY[n]![0].includes(tokens[i]!)) {
      const op = tokens[i++]!;
      left = apply(op, left, op === '**' ? level(n) : level(n + 1));
    }
    return left;
  }
  function unary(): number {
    const t = tokens[i++];
    if (t === undefined) throw new ShellSyntaxError(`${src.trim()}: syntax error: operand expected`);
    if (t === '-') return -unary();
    if (t === '+') return unary();
    if (t === '!') return Number(unary() === 0);
    if (t === '~') return ~unary();
    if (t === '(') {
      const v = ternary();
      if (tokens[i++] !== ')') throw new ShellSyntaxError(`${src.trim()}: missing ')'`);
      return v;
    }
    if (/^[A-Za-z_]/.test(t) && ['=', '+=', '-=', '*=', '/='].includes(tokens[i] ?? '')) {
      const op = tokens[i++]!;
      const rhs = ternary();
      const v =
        op === '='
          ? rhs
          : op === '+='
            ? value(t) + rhs
            : op === '-='
              ? value(t) - rhs
              : op === '*='
                ? value(t) * rhs
                : apply('/', value(t), rhs);
      host.setVar(t, String(v));
      return v;
    }
    if (/^[A-Za-z_]/.test(t) && (tokens[i] === '++' || tokens[i] === '--')) {
      const old = value(t);
      host.setVar(t, String(tokens[i++] === '++' ? old + 1 : old - 1));
      return old;
    }
    if (/^[A-Za-z_0-9]/.test(t)) return value(t);
    throw new ShellSyntaxError(`${src.trim()}: syntax error: operand expected (error token is "${t}")`);
  }
  if (tokens.length === 0) return 0;
  let result = ternary();
  while (tokens[i] === ',') {
    i++;
    result = ternary();
  }
  if (i < tokens.length)
    throw new ShellSyntaxError(`${src.trim()}: syntax error in expression (error token is "${tokens[i]}")`);
  return result;
}
