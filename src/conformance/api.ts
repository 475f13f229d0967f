/**
 * The test runner the suite is registered with. The suite's files import `describe`, `it`,
 * `expect` and `afterEach` from here instead of from a runner, so the same files run under
 * vitest, node:test, or anything with a `test(name, fn)` function.
 */

/** The matchers the suite uses: a subset of vitest's and Jest's `expect`. */
export interface ConformanceMatchers {
  /** the same matchers, negated */
  not: ConformanceMatchers;
  /** `Object.is` equality */
  toBe(expected: unknown): unknown;
  /** deep equality */
  toEqual(expected: unknown): unknown;
  /** deep equality on the properties `expected` names */
  toMatchObject(expected: object): unknown;
  /** an array holds the item, or a string the substring */
  toContain(item: unknown): unknown;
  /** a string contains the text or matches the pattern */
  toMatch(expected: string | RegExp): unknown;
  /** is `null` */
  toBeNull(): unknown;
  /** is `undefined` */
  toBeUndefined(): unknown;
  /** has this `length` */
  toHaveLength(length: number): unknown;
  /** has the property at this dotted path (with this value, when given) */
  toHaveProperty(path: string, value?: unknown): unknown;
  /** a number above `n` */
  toBeGreaterThan(n: number): unknown;
  /** a number at or above `n` */
  toBeGreaterThanOrEqual(n: number): unknown;
  /** a number below `n` */
  toBeLessThan(n: number): unknown;
  /** a function that throws (an error whose message matches, when given) */
  toThrow(expected?: string | RegExp): unknown;
}

/**
 * A Jest-compatible `expect`: vitest's, Jest's, or the `expect` package's under node:test. It must
 * throw when an assertion fails and offer the three asymmetric matchers below. The suite calls it
 * with one argument only (Jest's refuses a second) and adds its own message to a failure.
 */
export interface ConformanceExpect {
  (actual: unknown): ConformanceMatchers;
  /** matches a string that matches the pattern */
  stringMatching(pattern: string | RegExp): any;
  /** matches an array that holds these items, in any order */
  arrayContaining(items: readonly unknown[]): any;
  /** matches an object that has these properties */
  objectContaining(subset: Record<string, unknown>): any;
}

/** A test body as the suite hands it to the runner. */
export type ConformanceTestFn = () => Promise<void>;

/** A runner's `test`/`it`: vitest's and node:test's both fit. `skip` is used when present. */
export type ConformanceTest = ((name: string, fn: ConformanceTestFn) => unknown) & {
  /** registers a skipped test */
  skip?: (name: string, fn: ConformanceTestFn) => unknown;
};

/** What `runConformance` needs from a test runner. */
export interface ConformanceRunner {
  /** the runner's `test` */
  test?: ConformanceTest;
  /** or its `it`, when it has no `test` */
  it?: ConformanceTest;
  /** groups the tests; without it, group names are prefixed to test names */
  describe?: (name: string, fn: () => void) => unknown;
  /** the runner's Jest-compatible `expect` */
  expect: ConformanceExpect;
}

interface Scope {
  names: string[];
  hooks: Array<() => Promise<void>>;
  parent: Scope | null;
}

let runner: ConformanceRunner | null = null;
let scope: Scope | null = null;

/** Register the suite with `r`: every call of `describe`/`it` made inside `register` goes to it. */
export function registerWith(r: ConformanceRunner, register: () => void): void {
  if (!r.test && !r.it)
    throw new TypeError('runConformance needs a test runner: pass { test, expect } (or { it, expect })');
  if (typeof r.expect !== 'function')
    throw new TypeError('runConformance needs a Jest-compatible expect: pass { test, expect }');
  const previous = { runner, scope };
  runner = r;
  scope = { names: [], hooks: [], parent: null };
  try {
    register();
  } finally {
    ({ runner, scope } = previous);
  }
}

function active(): { r: ConformanceRunner; s: Scope } {
  if (!runner || !scope) throw new Error('the conformance suite registers tests only inside runConformance');
  return { r: runner, s: scope };
}

function prefixed(s: Scope, name: string): string {
  const names: string[] = [];
  for (let at: Scope | null = s; at; at = at.parent) names.unshift(...at.names);
  return [...names, name].join(' > ');
}

/** A group of tests; hooks registered inside it apply to its tests only. */
export function describe(name: string, fn: () => void): void {
  const { r, s } = active();
  const inner: Scope = { names: r.describe ? [] : [name], hooks: [], parent: s };
  // Runners may collect a group's body later (vitest does), so the body brings its own context.
  const body = () => {
    const previous = { runner, scope };
    runner = r;
    scope = inner;
    try {
      fn();
    } finally {
      ({ runner, scope } = previous);
    }
  };
  if (r.describe) r.describe(name, body);
  else body();
}

/**
 * Run after each test of the enclosing group, innermost group first. The suite runs its hooks
 * itself, inside the test, so a runner without hooks works and a failing cleanup fails the test.
 */
export function afterEach(fn: () => Promise<void> | void): void {
  active().s.hooks.push(async () => {
    await fn();
  });
}

function register(name: string, fn: () => Promise<void> | void, skip: boolean): void {
  const { r, s } = active();
  const test = (r.test ?? r.it)!;
  const title = r.describe ? name : prefixed(s, name);
  if (skip) {
    if (test.skip) test.skip(title, async () => {});
    return;
  }
  test(title, async () => {
    // Left set afterwards: the bodies' `expect` calls run after registration has ended.
    runner = r;
    let failure: unknown = null;
    try {
      await fn();
    } catch (error) {
      failure = error;
    }
    for (let at: Scope | null = s; at; at = at.parent) {
      for (const hook of at.hooks) {
        try {
          await hook();
        } catch (error) {
          failure ??= error;
        }
      }
    }
    if (failure !== null) throw failure;
  });
}

/** One test. */
export const it = Object.assign((name: string, fn: () => Promise<void> | void) => register(name, fn, false), {
  skip: (name: string, fn: () => Promise<void> | void) => register(name, fn, true),
});

/** The runner's `expect`, as passed to `runConformance`. */
export const expect = Object.assign(
  (actual: unknown, message?: string): ConformanceMatchers => {
    const matchers = current().expect(actual);
    return message === undefined ? matchers : labelled(matchers, message);
  },
  {
    stringMatching: (pattern: string | RegExp) => current().expect.stringMatching(pattern),
    arrayContaining: (items: readonly unknown[]) => current().expect.arrayContaining(items),
    objectContaining: (subset: Record<string, unknown>) => current().expect.objectContaining(subset),
  },
);

/** A failure's message with the suite's own label in front (which file, which case). */
function relabel(error: unknown, message: string): unknown {
  if (error instanceof Error && !error.message.startsWith(`${message}: `)) {
    try {
      error.message = `${message}: ${error.message}`;
    } catch {
      /* a frozen message stays as it is */
    }
  }
  return error;
}

/** The matchers with `message` added to any failure, sync or async (`resolves`, `rejects`). */
function labelled(matchers: ConformanceMatchers, message: string): ConformanceMatchers {
  return new Proxy(matchers, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key);
      if (typeof value === 'function') {
        return (...args: unknown[]) => {
          try {
            const out: unknown = value.apply(target, args);
            if (out && typeof (out as Promise<unknown>).then === 'function')
              return (out as Promise<unknown>).catch((e: unknown) => {
                throw relabel(e, message);
              });
            return out;
          } catch (error) {
            throw relabel(error, message);
          }
        };
      }
      if (value && typeof value === 'object' && (key === 'not' || key === 'resolves' || key === 'rejects'))
        return labelled(value as ConformanceMatchers, message);
      return value;
    },
  });
}

function current(): ConformanceRunner {
  if (!runner) throw new Error('expect is used only inside a conformance test');
  return runner;
}
