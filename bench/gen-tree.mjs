// Generates (once, cached under bench/.work/) the search benchmark tree: 10,000 files of about
// 4 KB in 500 folders (~40 MB), with a literal on about 1% of lines. Deterministic, so every
// run and every machine searches the same bytes.
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const NEEDLE = 'NEEDLE_TOKEN_42';
const HERE = dirname(fileURLToPath(import.meta.url));
const WORDS = [
  'const',
  'value',
  'return',
  'function',
  'import',
  'export',
  'let',
  'the',
  'data',
  'item',
  'result',
  'await',
  'async',
  'string',
  'number',
  'index',
  'length',
  'push',
  'map',
  'filter',
  'config',
  'options',
  'error',
  'throw',
  'new',
  'this',
  'state',
  'props',
  'render',
  'update',
  '=',
  '+',
  '{',
  '}',
  '(',
  ')',
];

function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function fileText(random, bytes) {
  let out = '';
  while (out.length < bytes) {
    let line = '  '.repeat(Math.floor(random() * 4));
    const words = 3 + Math.floor(random() * 6);
    for (let i = 0; i < words; i++) line += `${WORDS[Math.floor(random() * WORDS.length)]} `;
    if (random() < 0.01) line += `${NEEDLE} `;
    out += `${line.trimEnd()}\n`;
  }
  return out;
}

/**
 * The tree's folder, created on first use. `files` files spread over `folders` folders (two
 * levels: 25 top folders with 20 each for the default 500).
 */
export async function ensureTree({ files = 10_000, folders = 500, fileBytes = 4_000 } = {}) {
  const root = join(HERE, '.work', `tree-${files}-${folders}-${fileBytes}`);
  if (existsSync(join(root, '.complete'))) return root;
  await rm(root, { recursive: true, force: true });
  const random = rng(42);
  const top = Math.max(1, Math.round(Math.sqrt(folders / 0.8) / 1.25));
  const perTop = Math.ceil(folders / top);
  const perFolder = Math.ceil(files / folders);
  let written = 0;
  for (let f = 0; f < folders && written < files; f++) {
    const dir = join(
      root,
      `pkg${String(Math.floor(f / perTop)).padStart(2, '0')}`,
      `mod${String(f % perTop).padStart(2, '0')}`,
    );
    await mkdir(dir, { recursive: true });
    for (let i = 0; i < perFolder && written < files; i++, written++) {
      await writeFile(join(dir, `file${String(i).padStart(3, '0')}.ts`), fileText(random, fileBytes));
    }
  }
  await writeFile(join(root, '.complete'), `${written}\n`);
  return root;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(await ensureTree());
}
