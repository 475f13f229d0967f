// Over 400 lines: one recursive-descent parser for awk's grammar, one function per precedence level;
// split across files, a reader would chase the grammar between them.

import { UsageError } from '../../context.js';
import type { AwkToken } from './awk-lex.js';

/** awk syntax: expressions and statements as plain objects the evaluator walks. */
export type Expr =
  | { k: 'num'; v: number }
  | { k: 'str'; v: string }
  | { k: 're'; v: string }
  | { k: 'var'; name: string }
  | { k: 'index'; name: string; idx: Expr[] }
  | { k: 'field'; e: Expr }
  | { k: 'bin'; op: string; a: Expr; b: Expr }
  | { k: 'un'; op: string; e: Expr }
  | { k: 'assign'; op: string; target: Expr; e: Expr }
  | { k: 'incr'; op: string; prefix: boolean; target: Expr }
  | { k: 'cond'; c: Expr; a: Expr; b: Expr }
  | { k: 'match'; neg: boolean; a: Expr; re: Expr }
  | { k: 'in'; key: Expr[]; name: string }
  | { k: 'call'; name: string; args: Expr[] }
  | { k: 'group'; e: Expr };

export type Stmt =
  | { k: 'print'; args: Expr[]; printf: boolean; dest?: { append: boolean; e: Expr } }
  | { k: 'if'; c: Expr; a: Stmt; b?: Stmt }
  | { k: 'while'; c: Expr; body: Stmt; doWhile: boolean }
  | { k: 'for'; init?: Expr; c?: Expr; step?: Expr; body: Stmt }
  | { k: 'forin'; v: string; arr: string; body: Stmt }
  | { k: 'block'; body: Stmt[] }
  | { k: 'expr'; e: Expr }
  | { k: 'next' }
  | { k: 'exit'; e?: Expr }
  | { k: 'delete'; name: string; idx?: Expr[] }
  | { k: 'break' }
  | { k: 'continue' };

export interface Rule {
  kind: 'begin' | 'end' | 'main';
  pattern?: Expr;
  to?: Expr;
  body?: Stmt[];
}

export function parseAwk(tokens: AwkToken[]): Rule[] {
  let i = 0;
  const peek = (o = 0) => tokens[i + o];
  const isOp = (v: string, o = 0) => {
    const t = peek(o);
    return t?.t === 'op' && t.v === v;
  };
  const fail = (): never => {
    const t = peek();
    throw new UsageError(`syntax error at source line 1 near '${t ? ('v' in t ? t.v : 'newline') : 'end'}'`, 2);
  };
  const expect = (v: string) => {
    if (!isOp(v)) fail();
    i++;
  };
  const nls = () => {
    while (peek()?.t === 'nl' || isOp(';')) i++;
  };
  const optNl = () => {
    while (peek()?.t === 'nl') i++;
  };

  const primary = (): Expr => {
    const t = tokens[i++];
    if (!t) return fail();
    if (t.t === 'num') return { k: 'num', v: t.v };
    if (t.t === 'str') return { k: 'str', v: t.v };
    if (t.t === 're') return { k: 're', v: t.v };
    if (t.t === 'op' && t.v === '$') return { k: 'field', e: incr() };
    if (t.t === 'op' && t.v === '(') {
      const first = expr();
      if (isOp(',')) {
        const idx = [first];
        while (isOp(',')) {
          i++;
          idx.push(expr());
        }
        expect(')');
        const n = tokens[i++];
        if (n?.t !== 'name' || n.v !== 'in') fail();
        return { k: 'in', key: idx, name: (tokens[i++] as { v: string }).v };
      }
      expect(')');
      return { k: 'group', e: first };
    }
    if (t.t === 'op' && (t.v === '-' || t.v === '+' || t.v === '!')) return { k: 'un', op: t.v, e: unary() };
    if (t.t === 'op' && (t.v === '++' || t.v === '--')) return { k: 'incr', op: t.v, prefix: true, target: primary() };
    if (t.t === 'func') {
      expect('(');
      const args: Expr[] = [];
      while (!isOp(')')) {
        args.push(expr());
        if (isOp(',')) i++;
        else break;
      }
      expect(')');
      return { k: 'call', name: t.v, args };
    }
    if (t.t === 'name') {
      if (t.v === 'length' && !isOp('(')) return { k: 'call', name: 'length', args: [] };
      if (isOp('[')) {
        i++;
        const idx = [expr()];
        while (isOp(',')) {
          i++;
          idx.push(expr());
        }
        expect(']');
        return { k: 'index', name: t.v, idx };
      }
      return { k: 'var', name: t.v };
    }
    return fail();
  };
  const incr = (): Expr => {
    const e = primary();
    if ((isOp('++') || isOp('--')) && (e.k === 'var' || e.k === 'index' || e.k === 'field'))
      return { k: 'incr', op: (tokens[i++] as { v: string }).v, prefix: false, target: e };
    return e;
  };
  const power = (): Expr => {
    const a = incr();
    if (isOp('^')) {
      i++;
      return { k: 'bin', op: '^', a, b: unary() };
    }
    return a;
  };
  const unary = (): Expr =>
    isOp('-') || isOp('+') || isOp('!') ? { k: 'un', op: (tokens[i++] as { v: string }).v, e: unary() } : power();
  const binary = (ops: string[], next: () => Expr) => (): Expr => {
    let a = next();
    while (ops.some((o) => isOp(o))) {
      const op = (tokens[i++] as { v: string }).v;
      a = { k: 'bin', op, a, b: next() };
    }
    return a;
  };
  const mul = binary(['*', '/', '%'], unary);
  const add = binary(['+', '-'], mul);
  const startsOperand = () => {
    const t = peek();
    return (
      !!t &&
      (t.t === 'num' ||
        t.t === 'str' ||
        t.t === 'func' ||
        (t.t === 'name' && t.v !== 'in') ||
        (t.t === 'op' && ['$', '(', '!', '-', '++', '--'].includes(t.v) && !(t.v === '-' && false)))
    );
  };
  const concat = (): Expr => {
    let a = add();
    while (startsOperand() && !isOp('-') && !isOp('!')) a = { k: 'bin', op: 'cat', a, b: add() };
    return a;
  };
  let noGt = false;
  const compare = (): Expr => {
    const a = concat();
    for (const op of ['<=', '>=', '!=', '==', '<', '>']) {
      if (isOp(op) && !(op === '>' && noGt)) {
        i++;
        return { k: 'bin', op, a, b: concat() };
      }
    }
    return a;
  };
  const match = (): Expr => {
    let a = compare();
    while (isOp('~') || isOp('!~')) {
      const neg = (tokens[i++] as { v: string }).v === '!~';
      a = { k: 'match', neg, a, re: compare() };
    }
    return a;
  };
  const inExpr = (): Expr => {
    let a = match();
    while (peek()?.t === 'name' && (peek() as { v: string }).v === 'in') {
      i++;
      a = { k: 'in', key: [a], name: (tokens[i++] as { v: string }).v };
    }
    return a;
  };
  const and = (): Expr => {
    let a = inExpr();
    while (isOp('&&')) {
      i++;
      optNl();
      a = { k: 'bin', op: '&&', a, b: inExpr() };
    }
    return a;
  };
  const or = (): Expr => {
    let a = and();
    while (isOp('||')) {
      i++;
      optNl();
      a = { k: 'bin', op: '||', a, b: and() };
    }
    return a;
  };
  const ternary = (): Expr => {
    const c = or();
    if (!isOp('?')) return c;
    i++;
    const a = ternary();
    expect(':');
    return { k: 'cond', c, a, b: ternary() };
  };
  function expr(): Expr {
    const target = ternary();
    const t = peek();
    if (
      t?.t === 'op' &&
      ['=', '+=', '-=', '*=', '/=', '%=', '^='].includes(t.v) &&
      (target.k === 'var' || target.k === 'index' || target.k === 'field')
    ) {
      i++;
      return { k: 'assign', op: t.v, target, e: expr() };
    }
    return target;
  }

  const simple = (): Stmt => {
    const t = peek();
    if (t?.t === 'name' && (t.v === 'print' || t.v === 'printf')) {
      i++;
      const args: Expr[] = [];
      noGt = true;
      const paren = isOp('(') && !startsAfterParen();
      if (paren) i++;
      while (peek() && !isOp(';') && !isOp('}') && peek()?.t !== 'nl' && !isOp('>') && !isOp('>>') && !isOp(')')) {
        args.push(expr());
        if (isOp(',')) {
          i++;
          optNl();
        } else break;
      }
      if (paren) expect(')');
      noGt = false;
      let dest: { append: boolean; e: Expr } | undefined;
      if (isOp('>') || isOp('>>')) {
        const append = (tokens[i++] as { v: string }).v === '>>';
        dest = { append, e: concat() };
      }
      return { k: 'print', args, printf: t.v === 'printf', ...(dest ? { dest } : {}) };
    }
    if (t?.t === 'name' && t.v === 'next') {
      i++;
      return { k: 'next' };
    }
    if (t?.t === 'name' && t.v === 'break') {
      i++;
      return { k: 'break' };
    }
    if (t?.t === 'name' && t.v === 'continue') {
      i++;
      return { k: 'continue' };
    }
    if (t?.t === 'name' && t.v === 'exit') {
      i++;
      return isOp(';') || isOp('}') || peek()?.t === 'nl' ? { k: 'exit' } : { k: 'exit', e: expr() };
    }
    if (t?.t === 'name' && t.v === 'delete') {
      i++;
      const name = (tokens[i++] as { v: string }).v;
      if (!isOp('[')) return { k: 'delete', name };
      i++;
      const idx = [expr()];
      while (isOp(',')) {
        i++;
        idx.push(expr());
      }
      expect(']');
      return { k: 'delete', name, idx };
    }
    return { k: 'expr', e: expr() };
  };
  // `print (a)(b)` is a concatenation, `print (a, b)` a parenthesised list: look for a comma at depth 1.
  const startsAfterParen = () => {
    let depth = 0;
    for (let j = i; j < tokens.length; j++) {
      const t = tokens[j]!;
      if (t.t === 'op' && (t.v === '(' || t.v === '[')) depth++;
      else if (t.t === 'op' && (t.v === ')' || t.v === ']')) {
        depth--;
        if (depth === 0) {
          const n = tokens[j + 1];
          return !!n && !(n.t === 'op' && [';', '}', '>', '>>'].includes(n.v)) && n.t !== 'nl';
        }
      } else if (t.t === 'op' && t.v === ',' && depth === 1) return false;
    }
    return false;
  };
  function stmt(): Stmt {
    optNl();
    const t = peek();
    if (isOp('{')) {
      i++;
      const body = stmts();
      expect('}');
      return { k: 'block', body };
    }
    if (isOp(';')) {
      i++;
      return { k: 'block', body: [] };
    }
    if (t?.t === 'name' && t.v === 'if') {
      i++;
      expect('(');
      const c = expr();
      expect(')');
      const a = stmt();
      const save = i;
      nls();
      if (peek()?.t === 'name' && (peek() as { v: string }).v === 'else') {
        i++;
        return { k: 'if', c, a, b: stmt() };
      }
      i = save;
      return { k: 'if', c, a };
    }
    if (t?.t === 'name' && t.v === 'while') {
      i++;
      expect('(');
      const c = expr();
      expect(')');
      return { k: 'while', c, body: stmt(), doWhile: false };
    }
    if (t?.t === 'name' && t.v === 'do') {
      i++;
      const body = stmt();
      nls();
      if ((tokens[i++] as { v?: string })?.v !== 'while') fail();
      expect('(');
      const c = expr();
      expect(')');
      return { k: 'while', c, body, doWhile: true };
    }
    if (t?.t === 'name' && t.v === 'for') {
      i++;
      expect('(');
      if (
        peek()?.t === 'name' &&
        peek(1)?.t === 'name' &&
        (peek(1) as { v: string }).v === 'in' &&
        peek(3) &&
        isOp(')', 3)
      ) {
        const v = (tokens[i] as { v: string }).v;
        const arr = (tokens[i + 2] as { v: string }).v;
        i += 4;
        return { k: 'forin', v, arr, body: stmt() };
      }
      const init = isOp(';') ? undefined : expr();
      expect(';');
      optNl();
      const c = isOp(';') ? undefined : expr();
      expect(';');
      optNl();
      const step = isOp(')') ? undefined : expr();
      expect(')');
      return { k: 'for', ...(init ? { init } : {}), ...(c ? { c } : {}), ...(step ? { step } : {}), body: stmt() };
    }
    const s = simple();
    if (isOp(';')) i++;
    return s;
  }
  function stmts(): Stmt[] {
    const out: Stmt[] = [];
    nls();
    while (peek() && !isOp('}')) {
      out.push(stmt());
      nls();
    }
    return out;
  }

  const rules: Rule[] = [];
  nls();
  while (i < tokens.length) {
    const t = peek()!;
    if (t.t === 'name' && (t.v === 'BEGIN' || t.v === 'END')) {
      i++;
      optNl();
      expect('{');
      const body = stmts();
      expect('}');
      rules.push({ kind: t.v === 'BEGIN' ? 'begin' : 'end', body });
    } else {
      let pattern: Expr | undefined;
      let to: Expr | undefined;
      if (!isOp('{')) {
        pattern = expr();
        if (isOp(',')) {
          i++;
          to = expr();
        }
      }
      let body: Stmt[] | undefined;
      if (isOp('{')) {
        i++;
        body = stmts();
        expect('}');
      }
      rules.push({ kind: 'main', ...(pattern ? { pattern } : {}), ...(to ? { to } : {}), ...(body ? { body } : {}) });
    }
    nls();
  }
  return rules;
}
