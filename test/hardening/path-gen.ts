import type { Rng } from './rng.js';
import type { World } from './fs-world.js';

/** Names that are dangerous to put together: climbs, encodings, look-alikes, Windows and long names. */
const CLIMBS = ['..', '..', '..', '.', '...', '.. ', ' ..', '..\t', '.\u200b.', '..\u0000'];
const ENCODED = [
  '%2e%2e',
  '%2E%2E',
  '..%2f..',
  '%2f',
  '%5c',
  '%00',
  '%252e%252e',
  '..%c0%af',
  '%c0%ae%c0%ae',
  '%e0%80%ae%e0%80%ae',
  '..%u2216',
  '%2e.',
  '.%2e',
  '..%255c',
  '%%32%65%%32%65',
];
const LOOKALIKES = [
  '\u2025',
  '\uff0e\uff0e',
  '\u2024\u2024',
  '\ufe52\ufe52',
  '\u0966\u0966',
  'a\uff0fb',
  'a\u2215b',
  'a\u29f8b',
  'a\u2044b',
  '\uff3c',
  '\u00b7\u00b7',
  '.\u0307',
  'e\u0301',
  '\u00e9',
  '\u212a',
  'o\u0308utside',
  '\u00f6utside',
  '\uff4futside',
  '\u202eexe.txt',
  'out\u00adside',
  '\u2028',
  '\ud83d\udcc1',
];
const WINDOWS = [
  'C:',
  'c:',
  'CON',
  'nul',
  'aux.txt',
  'com1',
  'a:b',
  'file.txt::$DATA',
  'x.',
  'x ',
  'PRN.txt',
  '?',
  '*',
  '<',
  '|',
];
const PLAIN = [
  'a',
  'b',
  'c',
  'dir',
  'inside.txt',
  'x.txt',
  'new',
  'secret.txt',
  'outside',
  'app',
  'app2',
  'app-evil',
  'sibling.txt',
  'sub',
  'deep.txt',
  '.sandpit',
  '.git',
  'not-yet.txt',
  'new-dir',
];
const SEPARATORS = ['/', '/', '/', '\\', '//', '/./', '\\\\', '/\\', '\\/', '/../'];
const SUFFIXES = [
  '',
  '',
  '',
  '',
  '/',
  '/.',
  '/..',
  '\u0000',
  '\u0000.txt',
  '%00',
  ' ',
  '.',
  '::$DATA',
  '?x',
  '#x',
  '/*',
  '\n',
];

/** Whole-path openings that name the host, a URL, a drive, a share or a neighbour of the root. */
function prefixes(w: World): string[] {
  const rootName = w.root.slice(w.root.lastIndexOf('/') + 1);
  return [
    '',
    '',
    '',
    '',
    '',
    '',
    './',
    '../',
    '../../',
    '/',
    '//',
    '///',
    '\\',
    '\\\\',
    '\\\\?\\',
    '\\\\.\\',
    '\\\\?\\UNC\\',
    'C:',
    'C:\\',
    'c:/',
    'C:..\\',
    'file://',
    'file:',
    'FILE:///',
    'file://localhost',
    'http://x/',
    'https://x/../',
    'data:,',
    'blob:',
    'javascript:',
    'smb://x/',
    'vscode-remote://x',
    '~/',
    '~',
    '~root/',
    '$HOME/',
    '${HOME}/',
    '%USERPROFILE%\\',
    `${w.root}/`,
    `${w.root}`,
    `${w.root}2/`,
    `${w.root}2`,
    `${w.root}-evil/`,
    `${w.root}/../`,
    `${w.outside}/`,
    `${w.base}/`,
    `${w.sibling}/`,
    `../${rootName}2/`,
    `../${rootName}/`,
    `./../${rootName}2/`,
    `..\\${rootName}2\\`,
    `${rootName}/../../`,
    '/etc/',
    '/proc/self/',
    '/dev/',
  ];
}

/**
 * The deterministic cases first: the two CVE patterns and the planted links with every tail,
 * so every run covers them whatever the seed.
 */
export function knownHostilePaths(w: World): string[] {
  const rootName = w.root.slice(w.root.lastIndexOf('/') + 1);
  const cve53110 = [
    `${w.root}2/sibling.txt`,
    `${w.root}2`,
    `${w.root}2/new.txt`,
    `${w.root}-evil/x.txt`,
    `${w.root}_x/new.txt`,
    `../${rootName}2/sibling.txt`,
    `../${rootName}2/new.txt`,
    `../${rootName}-evil/x.txt`,
    `${w.root}/../${rootName}2/sibling.txt`,
    'sib',
    'sib/sibling.txt',
    'sib/new.txt',
    'sib-rel/sibling.txt',
    'sib-rel/new.txt',
    'sib-file',
  ];
  const cve53109 = [
    'out-file',
    'out-dir',
    'out-dir/secret.txt',
    'out-dir/new.txt',
    'out-dir/sub/deep.txt',
    'out-dir/sub/new/x.txt',
    'out-rel/secret.txt',
    'out-rel/new.txt',
    'chain/secret.txt',
    'chain/new.txt',
    'dangle',
    'dangle-rel',
    'dangle-dir/x.txt',
    'dangle-dir',
    'a/up/outside/secret.txt',
    'a/up/app2/sibling.txt',
    'a/b/c/esc/secret.txt',
    'a/b/c/esc/new.txt',
    'parent/outside/secret.txt',
    'parent/app2/new.txt',
    'base-abs/outside/secret.txt',
    'etc/passwd',
    'etc/hostname-new',
    'loop1',
    'loop1/x',
    'in-dir/up/outside/secret.txt',
    'self/out-dir/secret.txt',
    'self/../x',
    'in-dir/../out-dir/secret.txt',
    './out-dir/secret.txt',
    'out-dir/../app/inside.txt',
    'out-dir/../../x',
  ];
  return [...cve53110, ...cve53109];
}

function component(rng: Rng, w: World): string {
  const roll = rng.int(100);
  if (roll < 30) return rng.pick(CLIMBS);
  if (roll < 45) return rng.pick(w.links);
  if (roll < 65) return rng.pick(PLAIN);
  if (roll < 75) return rng.pick(ENCODED);
  if (roll < 87) return rng.pick(LOOKALIKES);
  if (roll < 93) return rng.pick(WINDOWS);
  if (roll < 96) return rng.pick(['', '.', '']);
  // long names: at, just over and far over the usual 255-byte limit
  return rng.pick(['n'.repeat(255), 'n'.repeat(256), '\u00e9'.repeat(200), 'x'.repeat(4096)]);
}

/** One generated path: an opening, 1-8 components joined by mixed separators, and a tail. */
export function hostilePath(rng: Rng, w: World): string {
  const parts: string[] = [];
  const count = 1 + rng.int(8);
  for (let i = 0; i < count; i++) parts.push(component(rng, w));
  let path = rng.pick(prefixes(w)) + parts[0];
  for (let i = 1; i < parts.length; i++) path += rng.pick(SEPARATORS) + parts[i];
  path += rng.pick(SUFFIXES);
  // normalisation forms: the same path decomposed or composed, as a client might send it
  if (rng.chance(0.05)) path = path.normalize(rng.pick(['NFC', 'NFD', 'NFKC', 'NFKD'] as const));
  return path;
}
