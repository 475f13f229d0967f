import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// DESIGN.md's layers, bottom first: a file may import its own layer and the ones below it, never above.
const LAYERS: Array<[string, (file: string) => boolean]> = [
  ['contract', (f) => f.startsWith('src/contract/')],
  ['fs', (f) => f.startsWith('src/fs/')],
  ['text', (f) => f.startsWith('src/text/')],
  ['workspace', (f) => f.startsWith('src/workspace/')],
  ['engines', (f) => /^src\/(patch|search|snapshots|git|shell|process|packages|modules|archive)\//.test(f)],
  ['tools', (f) => f.startsWith('src/tools/')],
  ['toolsets', (f) => f.startsWith('src/toolsets/')],
  ['agent', (f) => f.startsWith('src/agent/')],
  ['assembly', (f) => /^src\/[^/]+\.ts$/.test(f) && f !== 'src/index.ts'],
  ['entries', (f) => f === 'src/index.ts' || /^src\/(node|conformance|adapters)\//.test(f) || f.startsWith('web/')],
];

function layerOf(file: string): number {
  const index = LAYERS.findIndex(([, holds]) => holds(file));
  if (index === -1) throw new Error(`${file} belongs to no layer: add it to LAYERS and DESIGN.md`);
  return index;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return /\.ts$/.test(e.name) && !e.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every relative import of a file (static, type-only, re-export and dynamic), as project paths. */
export function importsOf(file: string, source: string): string[] {
  const found: string[] = [];
  const pattern =
    /(?:^|[\s;])(?:import|export)\s[^'"`;]*?from\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)|^import\s+['"](\.[^'"]+)['"]/gm;
  for (const m of source.matchAll(pattern)) {
    const spec = m[1] ?? m[2] ?? m[3]!;
    found.push(normalize(join(dirname(file), spec)).replace(/\.js$/, '.ts'));
  }
  return found;
}

function graph(): Map<string, string[]> {
  const files = [...sourceFiles('src'), ...sourceFiles('web')].map((f) => relative('.', f));
  const known = new Set(files);
  return new Map(files.map((f) => [f, importsOf(f, readFileSync(f, 'utf8')).filter((t) => known.has(t))]));
}

/** The cycles of a graph, each as the files on it (Tarjan's strongly connected components). */
export function cyclesOf(edges: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (edges.get(v) ?? []).includes(v)) cycles.push(component.sort());
    }
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

describe('the layers of src/ and web/', () => {
  const edges = graph();

  it('finds the imports it checks', () => {
    // a reader that matched nothing would pass every rule below
    expect(edges.get('src/workspace-core.ts')).toContain('src/workspace/context.ts');
    expect(edges.get('src/git/index.ts')?.some((t) => t.startsWith('src/git/clone'))).toBe(true);
    expect(importsOf('src/a/b.ts', "import type { X } from '../c.js';\nconst m = await import('./d.js');")).toEqual([
      'src/c.ts',
      'src/a/d.ts',
    ]);
  });

  it('never imports a layer above', () => {
    const upward: string[] = [];
    for (const [file, targets] of edges) {
      for (const target of targets) {
        if (layerOf(target) > layerOf(file))
          upward.push(`${file} (${LAYERS[layerOf(file)]![0]}) imports ${target} (${LAYERS[layerOf(target)]![0]})`);
      }
    }
    expect(upward).toEqual([]);
  });

  it('keeps the contract a leaf that imports nothing from the project', () => {
    const leaks = [...edges]
      .filter(([f]) => f.startsWith('src/contract/'))
      .flatMap(([f, ts]) => ts.filter((t) => !t.startsWith('src/contract/')).map((t) => `${f} -> ${t}`));
    expect(leaks).toEqual([]);
  });

  it('has no file cycles', () => {
    expect(cyclesOf(edges)).toEqual([]);
    expect(
      cyclesOf(
        new Map([
          ['a', ['b']],
          ['b', ['a']],
          ['c', ['a']],
        ]),
      ),
    ).toEqual([['a', 'b']]);
  });
});

describe('the size of folders and files', () => {
  const files = [...sourceFiles('src'), ...sourceFiles('web'), ...sourceFiles('demo')].map((f) => relative('.', f));

  it('keeps every folder of src/, web/ and demo/ at 25 files or fewer', () => {
    const counts = new Map<string, number>();
    for (const file of files) counts.set(dirname(file), (counts.get(dirname(file)) ?? 0) + 1);
    expect([...counts].filter(([, n]) => n > 25).map(([dir, n]) => `${dir}: ${n} files`)).toEqual([]);
  });

  it('keeps files at 400 lines or fewer unless their first lines say why', () => {
    const long = files.filter((file) => {
      const source = readFileSync(file, 'utf8');
      return (
        source.split('\n').length > 400 && !/^\/\/ Over 400 lines: \S/m.test(source.split('\n').slice(0, 5).join('\n'))
      );
    });
    expect(long).toEqual([]);
  });
});
