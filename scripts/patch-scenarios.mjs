// Packs the apply_patch scenario folders (test/patch/scenarios) into dist/conformance as a module,
// `sandpit/conformance/patch-scenarios`, so a third-party backend runs them too. The folder rules
// are the ones test/patch/scenarios.ts reads them by; test/conformance checks both agree.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Decode the `.esc` notation (`\r`, `\n`, `\t`, `\\`, `\xHH`) into bytes. */
function unescapeBytes(text) {
  const out = [];
  const enc = new TextEncoder();
  const simple = { r: 13, n: 10, t: 9, '\\': 92 };
  text.split(/(\\x[0-9a-fA-F]{2}|\\[rnt\\])/).forEach((part, i) => {
    if (i % 2 === 0) out.push(...enc.encode(part));
    else out.push(part[1] === 'x' ? parseInt(part.slice(2), 16) : simple[part[1]]);
  });
  return Uint8Array.from(out);
}

function filesBelow(dir, rel = '') {
  return readdirSync(join(dir, rel), { withFileTypes: true }).flatMap((e) => {
    const path = rel ? `${rel}/${e.name}` : e.name;
    return e.isDirectory() ? filesBelow(dir, path) : [path];
  });
}

/** Every scenario below `dir`, sorted by name, with file contents as bytes. */
export function readScenarios(dir) {
  const scenarios = [];
  for (const name of readdirSync(dir).sort((a, b) => a.localeCompare(b))) {
    const s = { name, patch: '', input: {}, options: {} };
    for (const rel of filesBelow(join(dir, name))) {
      const text = readFileSync(join(dir, name, rel), 'utf8');
      const [path, bytes] = rel.endsWith('.esc')
        ? [rel.slice(0, -4), unescapeBytes(text)]
        : [rel, new TextEncoder().encode(text)];
      if (path === 'patch.txt') s.patch = new TextDecoder().decode(bytes);
      else if (path === 'options.json') s.options = JSON.parse(text);
      else if (path === 'result.json') s.result = JSON.parse(text);
      else if (path === 'expected_error.txt') {
        const [code, ...contains] = text
          .split('\n')
          .map((l) => l.trim())
          .filter(Boolean);
        s.expectedError = { code, contains };
      } else if (path.startsWith('input/')) s.input[path.slice(6)] = bytes;
      else if (path.startsWith('expected/')) (s.expected ??= {})[path.slice(9)] = bytes;
      else throw new Error(`unknown file ${rel} in scenario ${name}`);
    }
    if (!s.patch) throw new Error(`scenario ${name} has no patch.txt`);
    if (!s.expectedError) s.expected ??= {};
    scenarios.push(s);
  }
  return scenarios;
}

const toBase64 = (files) =>
  files && Object.fromEntries(Object.entries(files).map(([k, v]) => [k, Buffer.from(v).toString('base64')]));

/** The module text: the scenarios as JSON with base64 bytes, decoded when imported (in any runtime). */
export function scenariosModule(scenarios) {
  const data = scenarios.map((s) => ({ ...s, input: toBase64(s.input), expected: toBase64(s.expected) }));
  return `// Generated from test/patch/scenarios by scripts/patch-scenarios.mjs.
const bytes = (b64) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
const files = (map) => map && Object.fromEntries(Object.entries(map).map(([k, v]) => [k, bytes(v)]));
const data = ${JSON.stringify(data)};
/** The apply_patch scenario folders Sandpit's own backends pass: pass them as \`patchScenarios\`. */
export const patchScenarios = data.map((s) => ({ ...s, input: files(s.input), expected: files(s.expected) }));
export default patchScenarios;
`;
}

const declarations = `import type { PatchScenario } from './index.js';
/** The apply_patch scenario folders Sandpit's own backends pass: pass them as \`patchScenarios\`. */
export declare const patchScenarios: PatchScenario[];
export default patchScenarios;
`;

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const scenarios = readScenarios(join(root, 'test', 'patch', 'scenarios'));
  writeFileSync(join(root, 'dist', 'conformance', 'patch-scenarios.js'), scenariosModule(scenarios));
  writeFileSync(join(root, 'dist', 'conformance', 'patch-scenarios.d.ts'), declarations);
}
