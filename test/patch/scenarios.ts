/*
 * The scenario folders' files, served by test/support/scenario-files.ts as one module so the same
 * code runs in Node and in Chromium (a module per file cost each contract page and worker 1-2 CPU-s).
 * A file named `x.esc` holds the bytes of `x` written with escapes (`\r`, `\xHH`, `\\`), so CRLF,
 * BOM and UTF-16 inputs survive git and the text import unchanged.
 */
import raw from 'virtual:patch-scenario-files';
import type { PatchScenario } from '../../src/conformance/suites/apply-patch.contract.js';

/** The shape the exported conformance suite runs; loaded here from the scenario folders. */
export type Scenario = PatchScenario;
export type ScenarioOptions = PatchScenario['options'];

/** Decode the `.esc` notation into bytes. */
export function unescapeBytes(text: string): Uint8Array {
  const out: number[] = [];
  const enc = new TextEncoder();
  const simple: Record<string, number> = { r: 13, n: 10, t: 9, '\\': 92 };
  text.split(/(\\x[0-9a-fA-F]{2}|\\[rnt\\])/).forEach((part, i) => {
    if (i % 2 === 0) out.push(...enc.encode(part));
    else out.push(part[1] === 'x' ? parseInt(part.slice(2), 16) : simple[part[1]!]!);
  });
  return new Uint8Array(out);
}

function contentOf(path: string, text: string): [string, Uint8Array] {
  return path.endsWith('.esc') ? [path.slice(0, -4), unescapeBytes(text)] : [path, new TextEncoder().encode(text)];
}

export function loadScenarios(): Scenario[] {
  return scenariosFrom(raw);
}

/** The scenarios in `files` (keyed `./scenarios/<folder>/<path>`); a file of no known kind throws. */
export function scenariosFrom(files: Record<string, string>): Scenario[] {
  const byName = new Map<string, Scenario>();
  for (const [key, text] of Object.entries(files)) {
    const [, name, rest] = /^\.\/scenarios\/([^/]+)\/(.+)$/.exec(key) ?? [];
    if (!name || !rest) continue;
    let s = byName.get(name);
    if (!s) {
      s = { name, patch: '', input: {}, options: {} };
      byName.set(name, s);
    }
    const [path, bytes] = contentOf(rest, text);
    if (path === 'patch.txt') s.patch = new TextDecoder().decode(bytes);
    else if (path === 'options.json') s.options = JSON.parse(text);
    else if (path === 'result.json') s.result = JSON.parse(text);
    else if (path === 'expected_error.txt') {
      const [code, ...contains] = text
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean);
      s.expectedError = { code: code!, contains };
    } else if (path.startsWith('input/')) s.input[path.slice(6)] = bytes;
    else if (path.startsWith('expected/')) (s.expected ??= {})[path.slice(9)] = bytes;
    else throw new Error(`unknown file ${rest} in scenario ${name}`);
  }
  const scenarios = [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
  for (const s of scenarios) {
    if (!s.patch) throw new Error(`scenario ${s.name} has no patch.txt`);
    // A success with no expected/ folder means the tree ends empty only if said so; an absent folder is an empty tree.
    if (!s.expectedError) s.expected ??= {};
  }
  return scenarios;
}

export function hex(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += b.toString(16).padStart(2, '0');
  return s;
}
