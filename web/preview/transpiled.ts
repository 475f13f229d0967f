import type { JsxSettings, TranspileResult } from './transform.js';

/** sucrase is loaded on the first module that needs it, so a playground that never previews never loads it. */
const transformer = () => import('./transform.js');

/** At most this many characters of sources and their output are kept; the least recently used go first. */
const KEPT_CHARS = 24 * 1024 * 1024;

interface Kept {
  source: string;
  jsx: string;
  result: Promise<TranspileResult>;
  chars: number;
}

/**
 * The last transpile of each path, with the exact text and JSX settings it was made from. The
 * output is a function of those three, so a reload transpiles only the files whose text changed
 * (and a change's files are transpiled as they are written, before the reload asks for them):
 * a text that differs in any character is transpiled afresh, and nothing is ever served from an
 * older text.
 */
const kept = new Map<string, Kept>();
let keptChars = 0;

function forget(path: string): void {
  const old = kept.get(path);
  if (!old) return;
  kept.delete(path);
  keptChars -= old.chars;
}

/** `source` (the text of `path`) turned into JavaScript as transform.ts does, from what is kept when the same text was transpiled before. */
export function transpileKept(path: string, source: string, jsx: JsxSettings): Promise<TranspileResult> {
  const settings = JSON.stringify(jsx);
  const hit = kept.get(path);
  if (hit && hit.source === source && hit.jsx === settings) {
    // most recently used goes last
    kept.delete(path);
    kept.set(path, hit);
    return hit.result;
  }
  forget(path);
  const result = transformer().then(({ transpile }) => transpile(path, source, jsx));
  // the output holds the source again (its map's sourcesContent) and about as much code
  const entry: Kept = { source, jsx: settings, result, chars: source.length * 4 };
  kept.set(path, entry);
  keptChars += entry.chars;
  // sucrase's chunk that did not load is asked for again next time
  result.catch(() => kept.get(path) === entry && forget(path));
  for (const [oldest] of kept) {
    if (keptChars <= KEPT_CHARS || oldest === path) break;
    forget(oldest);
  }
  return result;
}
