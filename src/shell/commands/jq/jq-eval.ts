import { JqSyntaxError, type Json, type JqNode } from './jq-parse.js';

/** A jq runtime error (`jq: error ...`, status 5). */
export class JqError extends Error {}

type Out = Generator<Json, void, undefined>;
type Builtin = (input: Json, args: JqNode[]) => Out;

const isObject = (v: Json): v is { [key: string]: Json } => v !== null && typeof v === 'object' && !Array.isArray(v);
const typeOf = (v: Json) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
const truthy = (v: Json) => v !== null && v !== false;
/** How jq names a value in an error: its type and (a cut of) its JSON. */
const described = (v: Json) => {
  const text = JSON.stringify(v);
  return `${typeOf(v)} (${text.length > 11 ? `${text.slice(0, 10)}...` : text})`;
};
const RANK: Record<string, number> = { null: 0, boolean: 1, number: 2, string: 3, array: 4, object: 5 };
const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** jq's total order: null < false < true < numbers < strings < arrays < objects. */
export function compareJson(a: Json, b: Json): number {
  const ta = typeOf(a),
    tb = typeOf(b);
  if (ta !== tb) return RANK[ta]! - RANK[tb]!;
  if (typeof a === 'number' || typeof a === 'boolean') return Number(a) - Number(b);
  if (typeof a === 'string') return byCodePoint(a, b as string);
  if (Array.isArray(a)) {
    const bb = b as Json[];
    for (let i = 0; i < Math.min(a.length, bb.length); i++) {
      const c = compareJson(a[i]!, bb[i]!);
      if (c) return c;
    }
    return a.length - bb.length;
  }
  if (a === null) return 0;
  const bo = b as { [key: string]: Json };
  const keys = compareJson(Object.keys(a).sort(byCodePoint), Object.keys(bo).sort(byCodePoint));
  if (keys) return keys;
  for (const k of Object.keys(a).sort(byCodePoint)) {
    const c = compareJson(a[k]!, bo[k]!);
    if (c) return c;
  }
  return 0;
}

function add(a: Json, b: Json): Json {
  if (a === null) return b;
  if (b === null) return a;
  if (typeof a === 'number' && typeof b === 'number') return a + b;
  if (typeof a === 'string' && typeof b === 'string') return a + b;
  if (Array.isArray(a) && Array.isArray(b)) return [...a, ...b];
  if (isObject(a) && isObject(b)) return { ...a, ...b };
  throw new JqError(`${described(a)} and ${described(b)} cannot be added`);
}

function arithmetic(op: string, a: Json, b: Json): Json {
  if (op === '+') return add(a, b);
  if (op === '-' && Array.isArray(a) && Array.isArray(b))
    return a.filter((x) => !b.some((y) => compareJson(x, y) === 0));
  if (typeof a !== 'number' || typeof b !== 'number') {
    if (op === '/' && typeof a === 'string' && typeof b === 'string') return a.split(b);
    throw new JqError(
      `${described(a)} and ${described(b)} cannot be ${{ '-': 'subtracted', '*': 'multiplied', '/': 'divided', '%': 'divided' }[op]}`,
    );
  }
  if ((op === '/' || op === '%') && b === 0)
    throw new JqError(`${described(a)} and ${described(b)} cannot be divided because the divisor is zero`);
  return op === '-' ? a - b : op === '*' ? a * b : op === '/' ? a / b : Math.trunc(a) % Math.trunc(b);
}

function index(v: Json, key: Json): Json {
  if (v === null) return null;
  if (typeof key === 'string' && isObject(v)) return v[key] ?? null;
  if (typeof key === 'number' && Array.isArray(v))
    return v[key < 0 ? v.length + Math.floor(key) : Math.floor(key)] ?? null;
  throw new JqError(`Cannot index ${typeOf(v)} with ${typeof key === 'string' ? `"${key}"` : typeOf(key)}`);
}

function* iterate(v: Json): Out {
  if (Array.isArray(v)) yield* v;
  else if (isObject(v)) yield* Object.values(v);
  else throw new JqError(`Cannot iterate over ${described(v)}`);
}

function length(v: Json): Json {
  if (v === null) return 0;
  if (typeof v === 'number') return Math.abs(v);
  if (typeof v === 'string') return [...v].length;
  if (Array.isArray(v)) return v.length;
  if (isObject(v)) return Object.keys(v).length;
  throw new JqError(`${described(v)} has no length`);
}

const need = (v: Json, type: string, what: string) => {
  if (typeOf(v) !== type) throw new JqError(`${described(v)} ${what}`);
};
const sorted = (v: Json) => {
  need(v, 'array', 'cannot be sorted, as it is not an array');
  return [...(v as Json[])].sort(compareJson);
};
const one = (f: (v: Json) => Json): Builtin =>
  function* (input) {
    yield f(input);
  };
const withArg = (f: (v: Json, a: Json) => Json): Builtin =>
  function* (input, [arg]) {
    for (const a of run(arg!, input)) yield f(input, a);
  };

const BUILTINS: Record<string, Builtin> = {
  'empty/0': function* () {},
  'not/0': one((v) => !truthy(v)),
  'length/0': one(length),
  'type/0': one(typeOf),
  'keys/0': one((v) => {
    if (Array.isArray(v)) return v.map((_, i) => i);
    need(v, 'object', 'has no keys');
    return Object.keys(v as object).sort(byCodePoint);
  }),
  'add/0': one((v) => [...iterate(v)].reduce<Json>((sum, x) => add(sum, x), null)),
  'sort/0': one(sorted),
  'reverse/0': one((v) => {
    if (v === null) return [];
    need(v, 'array', 'cannot be reversed, as it is not an array');
    return [...(v as Json[])].reverse();
  }),
  'unique/0': one((v) => sorted(v).filter((x, i, all) => i === 0 || compareJson(all[i - 1]!, x) !== 0)),
  'min/0': one((v) => sorted(v)[0] ?? null),
  'max/0': one((v) => sorted(v).at(-1) ?? null),
  'first/0': one((v) => index(v, 0)),
  'last/0': one((v) => index(v, -1)),
  'tostring/0': one((v) => (typeof v === 'string' ? v : JSON.stringify(v))),
  'tojson/0': one((v) => JSON.stringify(v)),
  'tonumber/0': one((v) => {
    const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
    if (Number.isNaN(n)) throw new JqError(`${described(v)} cannot be parsed as a number`);
    return n;
  }),
  'ascii_downcase/0': one((v) => {
    need(v, 'string', 'cannot be lowercased');
    return (v as string).toLowerCase();
  }),
  'ascii_upcase/0': one((v) => {
    need(v, 'string', 'cannot be uppercased');
    return (v as string).toUpperCase();
  }),
  'to_entries/0': one((v) => {
    need(v, 'object', 'has no keys');
    return Object.entries(v as object).map(([key, value]) => ({ key, value }));
  }),
  'from_entries/0': one((v) =>
    Object.fromEntries([...iterate(v)].map((e) => [String(index(e, 'key') ?? index(e, 'name')), index(e, 'value')])),
  ),
  'select/1': function* (input, [f]) {
    for (const c of run(f!, input)) if (truthy(c)) yield input;
  },
  'map/1': function* (input, [f]) {
    const out: Json[] = [];
    for (const x of iterate(input)) out.push(...run(f!, x));
    yield out;
  },
  'has/1': withArg((v, k) => {
    if (isObject(v) && typeof k === 'string') return k in v;
    if (Array.isArray(v) && typeof k === 'number') return k >= 0 && k < v.length;
    throw new JqError(`Cannot check whether ${typeOf(v)} has a ${typeOf(k)} key`);
  }),
  'join/1': withArg((v, sep) =>
    [...iterate(v)].map((x) => (x === null ? '' : typeof x === 'string' ? x : JSON.stringify(x))).join(String(sep)),
  ),
  'split/1': withArg((v, sep) => {
    need(v, 'string', 'cannot be split');
    return (v as string).split(String(sep));
  }),
  'startswith/1': withArg((v, s) => {
    need(v, 'string', 'startswith() requires string inputs');
    return (v as string).startsWith(String(s));
  }),
  'endswith/1': withArg((v, s) => {
    need(v, 'string', 'endswith() requires string inputs');
    return (v as string).endsWith(String(s));
  }),
  'sort_by/1': function* (input, [f]) {
    const keyed = sorted(input).map((x): [Json, Json] => [[...run(f!, x)], x]);
    yield keyed.sort((a, b) => compareJson(a[0], b[0])).map(([, x]) => x);
  },
  ...Object.fromEntries(
    ['null', 'boolean', 'number', 'string', 'array', 'object'].map((t) => [
      `${t === 'null' ? 'nulls' : t === 'boolean' ? 'booleans' : `${t}s`}/0`,
      function* (input: Json) {
        if (typeOf(input) === t) yield input;
      },
    ]),
  ),
  'values/0': function* (input) {
    if (input !== null) yield input;
  },
  'any/0': one((v) => [...iterate(v)].some(truthy)),
  'all/0': one((v) => [...iterate(v)].every(truthy)),
};

/** Refuse, before anything runs, a filter that calls a function this jq does not have (jq's compile error). */
export function checkJq(node: JqNode): void {
  if (node.k === 'call' && !BUILTINS[`${node.name}/${node.args.length}`])
    throw new JqSyntaxError(`${node.name}/${node.args.length} is not defined`);
  for (const child of Object.values(node)) {
    if (Array.isArray(child))
      for (const c of child) {
        if (c && typeof c === 'object' && 'k' in c) checkJq(c as JqNode);
        else if (c && typeof c === 'object') {
          checkJq((c as { key: JqNode }).key);
          checkJq((c as { value: JqNode }).value);
        }
      }
    else if (child && typeof child === 'object' && 'k' in child) checkJq(child as JqNode);
  }
}

/** Run a filter on one input: every output, in jq's order. */
export function* run(node: JqNode, input: Json): Out {
  switch (node.k) {
    case 'identity':
      yield input;
      return;
    case 'recurse':
      yield* recurse(input);
      return;
    case 'literal':
      yield node.value;
      return;
    case 'string':
      yield* interpolate(node.parts, 0, input, '');
      return;
    case 'index':
      for (const v of run(node.of, input)) for (const key of run(node.key, input)) yield index(v, key);
      return;
    case 'slice':
      for (const v of run(node.of, input)) {
        if (v === null) {
          yield null;
          continue;
        }
        if (!Array.isArray(v) && typeof v !== 'string') throw new JqError(`Cannot index ${typeOf(v)} with object`);
        const bound = (n: JqNode | null, fallback: number) =>
          n ? [...run(n, input)].map((x) => (typeof x === 'number' ? x : fallback)) : [fallback];
        for (const to of bound(node.to, v.length))
          for (const from of bound(node.from, 0)) yield v.slice(from, to) as Json;
      }
      return;
    case 'iterate':
      for (const v of run(node.of, input)) yield* iterate(v);
      return;
    case 'try':
      try {
        yield* run(node.body, input);
      } catch (error) {
        if (!(error instanceof JqError)) throw error;
      }
      return;
    case 'array':
      yield node.body ? [...run(node.body, input)] : [];
      return;
    case 'object':
      yield* build(node.entries, 0, input, {});
      return;
    case 'pipe':
      for (const v of run(node.left, input)) yield* run(node.right, v);
      return;
    case 'comma':
      yield* run(node.left, input);
      yield* run(node.right, input);
      return;
    case 'alt': {
      let any = false;
      try {
        for (const v of run(node.left, input))
          if (truthy(v)) {
            any = true;
            yield v;
          }
      } catch (error) {
        if (!(error instanceof JqError)) throw error;
      }
      if (!any) yield* run(node.right, input);
      return;
    }
    case 'and':
    case 'or':
      for (const l of run(node.left, input)) {
        if (node.k === 'and' ? !truthy(l) : truthy(l)) {
          yield node.k === 'or';
          continue;
        }
        for (const r of run(node.right, input)) yield truthy(r);
      }
      return;
    case 'binary':
      for (const r of run(node.right, input)) for (const l of run(node.left, input)) yield binary(node.op, l, r);
      return;
    case 'neg':
      for (const v of run(node.of, input)) {
        if (typeof v !== 'number') throw new JqError(`${described(v)} cannot be negated`);
        yield -v;
      }
      return;
    case 'if':
      for (const c of run(node.cond, input))
        yield* truthy(c) ? run(node.then, input) : node.else ? run(node.else, input) : [input];
      return;
    case 'call':
      yield* BUILTINS[`${node.name}/${node.args.length}`]!(input, node.args);
  }
}

function binary(op: string, l: Json, r: Json): Json {
  const c = ['==', '!=', '<', '<=', '>', '>='].includes(op) ? compareJson(l, r) : 0;
  switch (op) {
    case '==':
      return c === 0;
    case '!=':
      return c !== 0;
    case '<':
      return c < 0;
    case '<=':
      return c <= 0;
    case '>':
      return c > 0;
    case '>=':
      return c >= 0;
    default:
      return arithmetic(op, l, r);
  }
}

function* recurse(v: Json): Out {
  yield v;
  if (Array.isArray(v) || isObject(v)) for (const x of iterate(v)) yield* recurse(x);
}

function* interpolate(parts: Array<string | JqNode>, at: number, input: Json, text: string): Out {
  if (at === parts.length) {
    yield text;
    return;
  }
  const part = parts[at]!;
  if (typeof part === 'string') {
    yield* interpolate(parts, at + 1, input, text + part);
    return;
  }
  for (const v of run(part, input))
    yield* interpolate(parts, at + 1, input, text + (typeof v === 'string' ? v : JSON.stringify(v)));
}

function* build(
  entries: Array<{ key: JqNode; value: JqNode }>,
  at: number,
  input: Json,
  made: { [key: string]: Json },
): Out {
  if (at === entries.length) {
    yield { ...made };
    return;
  }
  const { key, value } = entries[at]!;
  for (const k of run(key, input)) {
    if (typeof k !== 'string') throw new JqError(`Object keys must be strings`);
    for (const v of run(value, input)) yield* build(entries, at + 1, input, { ...made, [k]: v });
  }
}
