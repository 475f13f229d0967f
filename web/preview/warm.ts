import { createFileServer } from './file-server.js';
import type { PreviewEntry } from './read-file.js';
import { transpile } from './transform.js';
import { yieldToHost } from '../../src/workspace/host-yield.js';

/**
 * Modules like an app's: types, interfaces, generics, JSX with attributes and children, imports
 * and exports. Their transpiles give V8 the feedback the preview's real modules give, so what it
 * optimizes now is what a first preview runs.
 */
const SAMPLE_TSX = (n: number) => `import { helper${n} } from './helper';
import type { Props } from './types';
export interface Item${n} { id: number; label: string; tags?: readonly string[] }
type Mapper<T> = (value: T, index: number) => T;
enum Kind { One = 1, Two }
const double: Mapper<number> = (value) => value * 2;
export const items${n}: Item${n}[] = [${Array.from({ length: 12 }, (_, i) => `{ id: ${i}, label: 'item ${i} of ${n}', tags: ['a', "b"] }`).join(', ')}];
export class Store${n}<T extends { id: number }> {
  private readonly byId = new Map<number, T>();
  constructor(public name: string, items: T[] = []) { for (const item of items) this.byId.set(item.id, item); }
  get(id: number): T | undefined { return this.byId.get(id) as T; }
}
export function View${n}({ title, count = 0 }: Props & { title: string; count?: number }): JSX.Element {
  const total = items${n}.map((item, i) => double(item.id + i)).reduce((a, b) => a + b, 0) + Kind.Two;
  return (
    <section className="view" data-n={${n}}>
      <h2 title={\`\${title} \${count}\`}>{title}</h2>
      {items${n}.length > 0 ? <ul>{items${n}.map((item) => <li key={item.id}>{item.label}</li>)}</ul> : <p>none</p>}
      <>{helper${n}(total as number)!}</>
    </section>
  );
}
`;

/** How many sample modules to transpile at most: about what one bridge start leaves time for on a slow core. */
const ROUNDS = 24;

const encoder = new TextEncoder();

/**
 * Warm the preview's code before a first preview asks for anything: load the file server and
 * sucrase, serve a tiny page and module through the same server a preview uses, and transpile
 * sample modules, one per turn, until `stop()` says the real first request has come (it then
 * warms the code itself). V8 compiles and optimizes code as it runs hot; done while the bridge
 * and its Service Worker start, that work is off the first preview's path. Nothing is kept: the
 * server is thrown away and the transpiles do not go into the kept transpiles.
 */
export async function warmPreview(stop: () => boolean): Promise<void> {
  const files: Record<string, string> = {
    'index.html':
      '<!doctype html><html><head><link rel="stylesheet" href="style.css"></head><body><script type="module" src="main.tsx"></script></body></html>',
    'main.tsx': SAMPLE_TSX(0),
  };
  const entry = async (rel: string): Promise<PreviewEntry> =>
    rel === ''
      ? { kind: 'directory' }
      : rel in files
        ? { kind: 'file', bytes: encoder.encode(files[rel]) }
        : { kind: 'missing' };
  const server = createFileServer({
    entry,
    root: () => '',
    playgroundOrigin: 'http://warm.invalid',
    prefix: '/__sandpit_warm/',
    onProblem: () => {},
  });
  await server.serve('');
  await server.serve('main.tsx', '');
  for (let n = 1; n <= ROUNDS && !stop(); n++) {
    await yieldToHost();
    if (stop()) return;
    transpile(`warm/m${n}.tsx`, SAMPLE_TSX(n), { runtime: 'classic' });
  }
}
