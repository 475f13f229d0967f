import type { Word } from './ast.js';
import { ShellSyntaxError } from './ast.js';
import { evalArithmetic } from './arith.js';
import type { ExpandHost } from './expand-host.js';
import { globPattern } from './glob.js';
import { shellPath } from './overlay.js';
import { patternOf } from './params.js';

// Loaded on the first `=~` only: RE2 matches in linear time, so no pattern can hang the shell.
let engine: Promise<typeof import('re2js')> | null = null;

const INT_OPS: Record<string, (a: number, b: number) => boolean> = {
  '-eq': (a, b) => a === b,
  '-ne': (a, b) => a !== b,
  '-lt': (a, b) => a < b,
  '-le': (a, b) => a <= b,
  '-gt': (a, b) => a > b,
  '-ge': (a, b) => a >= b,
};
const UNARY = new Set(['-e', '-f', '-d', '-s', '-r', '-w', '-x', '-L', '-h', '-z', '-n', '-v', '-a']);
const BINARY = new Set(['==', '=', '!=', '<', '>', '=~', ...Object.keys(INT_OPS)]);

/** An unquoted one-piece word's text: how `&&`, `(`, `!` and operators are told from operands. */
const bareText = (w: Word | undefined) => (w && w.length === 1 && w[0]!.t === 'lit' && !w[0]!.q ? w[0]!.v : null);

/** A regex word: quoted parts match literally, as bash reads `[[ $x =~ "a.b" ]]`. */
async function regexOf(host: ExpandHost, word: Word): Promise<string> {
  let out = '';
  for (const part of word) {
    const v = await host.partText(part);
    out += part.q ? v.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&') : v;
  }
  return out;
}

/** Evaluate `[[ ... ]]`: string, pattern, regex, integer and file tests with `&&`, `||`, `!`, `( )`. */
export async function evalCond(host: ExpandHost, words: Word[]): Promise<boolean> {
  let i = 0;
  const text = (w: Word) => host.wordText(w);
  async function primary(): Promise<boolean> {
    const w = words[i];
    if (w === undefined) throw new ShellSyntaxError("syntax error in conditional expression: unexpected ']]'");
    const bw = bareText(w);
    if (bw === '!') {
      i++;
      return !(await primary());
    }
    if (bw === '(') {
      i++;
      const v = await or();
      if (bareText(words[i++]) !== ')')
        throw new ShellSyntaxError("syntax error in conditional expression: ')' expected");
      return v;
    }
    const op = bareText(words[i + 1]);
    if (op !== null && BINARY.has(op) && words[i + 2] !== undefined) {
      const left = await text(w);
      const rightWord = words[i + 2]!;
      i += 3;
      if (op === '=~') {
        const { RE2JS } = await (engine ??= import('re2js'));
        let re: import('re2js').RE2JS;
        try {
          re = RE2JS.compile(await regexOf(host, rightWord));
        } catch {
          return false;
        }
        const m = re.matcher(left);
        if (!m.find()) return false;
        const groups = new Map<string, string>();
        for (let g = 0; g <= m.groupCount(); g++) groups.set(String(g), m.group(g) ?? '');
        host.setArray('BASH_REMATCH', groups);
        return true;
      }
      if (op in INT_OPS) return INT_OPS[op]!(evalArithmetic(left, host), evalArithmetic(await text(rightWord), host));
      if (op === '<') return left < (await text(rightWord));
      if (op === '>') return left > (await text(rightWord));
      const matches = globPattern(await patternOf(host, rightWord)).test(left);
      return op === '!=' ? !matches : matches;
    }
    if (bw !== null && UNARY.has(bw) && words[i + 1] !== undefined) {
      const arg = await text(words[i + 1]!);
      i += 2;
      if (bw === '-z') return arg === '';
      if (bw === '-n') return arg !== '';
      if (bw === '-v') return host.getVar(arg) !== undefined;
      const st = await host.fs.stat(shellPath(host.cwd, arg)).catch(() => null);
      if (bw === '-f') return st?.type === 'file';
      if (bw === '-d' || bw === '-x') return st?.type === 'dir';
      if (bw === '-s') return !!st && st.size > 0;
      if (bw === '-L' || bw === '-h') return false;
      return !!st;
    }
    i++;
    return (await text(w)) !== '';
  }
  async function and(): Promise<boolean> {
    let v = await primary();
    while (bareText(words[i]) === '&&') {
      i++;
      const r = await primary();
      v = v && r;
    }
    return v;
  }
  async function or(): Promise<boolean> {
    let v = await and();
    while (bareText(words[i]) === '||') {
      i++;
      const r = await and();
      v = v || r;
    }
    return v;
  }
  const result = await or();
  if (i < words.length) throw new ShellSyntaxError('syntax error in conditional expression');
  return result;
}
