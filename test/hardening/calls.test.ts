import { describe, expect, it } from 'vitest';
import { createMemoryFs, createWorkspace, type Workspace } from '../../src/index.js';
import { generateCall } from './call-gen.js';
import { envelopeProblem } from './envelope-check.js';
import { recordFigures } from './figures.js';
import { createRng } from './rng.js';
import { SEED, SIZES, replayHint } from './sizes.js';
import { discoverToolsets } from './toolsets.js';

const SEED_FILES = {
  'a.txt': 'alpha\nbeta\ngamma\n',
  'dir/b.txt': 'b\n',
  'dir/sub/c.md': '# c\nTODO\n',
  'crlf.txt': 'one\r\ntwo\r\n',
  'bin.dat': new Uint8Array([0, 1, 2, 255]),
  'big.txt': Array.from({ length: 3000 }, (_, i) => `line ${i}`).join('\n'),
  'latin1.txt': new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]),
};
const HANG_MS = 20_000;

function fresh(tools: Parameters<typeof createWorkspace>[0]['tools']): Workspace {
  const files: Record<string, string | Uint8Array> = {};
  for (const [k, v] of Object.entries(SEED_FILES)) files[`/ws/${k}`] = v;
  return createWorkspace({ fs: createMemoryFs(files), root: '/ws', tools });
}

describe('hardening: random and mutated calls', () => {
  it(`${SIZES.calls} calls spread over every toolset: every answer is one well-formed envelope`, async () => {
    console.log(replayHint('calls'));
    const toolsets = await discoverToolsets();
    const rng = createRng(SEED).fork('calls');
    const broken: string[] = [];
    let uncaught = 0;
    let calls = 0;
    const codes = new Map<string, number>();
    const internal: string[] = [];
    const onRejection = (reason: unknown) => {
      uncaught++;
      broken.push(`unhandled rejection: ${String(reason).slice(0, 200)}`);
    };
    process.on('unhandledRejection', onRejection);
    try {
      const perSet = Math.ceil(SIZES.calls / toolsets.length);
      for (const set of toolsets) {
        let ws = fresh(set.tools);
        for (let i = 0; i < perSet; i++) {
          if (i > 0 && i % 1000 === 0) {
            await ws.close();
            ws = fresh(set.tools);
          }
          const { name, args } = generateCall(rng, set.tools);
          calls++;
          const label = `#${i} ${set.name} ${String(name).slice(0, 40)} ${safeShow(args)}`;
          let timer: NodeJS.Timeout | undefined;
          try {
            const env = await Promise.race([
              ws.call(name as string, args),
              new Promise<'hang'>((resolve) => {
                timer = setTimeout(() => resolve('hang'), HANG_MS);
              }),
            ]);
            if (env === 'hang') {
              uncaught++;
              broken.push(`${label}: no answer in ${HANG_MS} ms`);
              continue;
            }
            const problem = envelopeProblem(env, String(name));
            if (problem) {
              uncaught++;
              if (broken.length < 200) broken.push(`${label}: ${problem}`);
            }
            const code = env.ok ? 'ok' : env.error.code;
            // an internal failure is on the closed list, but on a healthy memory backend it means a bug: show it
            if (code === 'IO_ERROR' && internal.length < 10)
              internal.push(`${label} -> ${JSON.stringify(env).slice(0, 300)}`);
            codes.set(code, (codes.get(code) ?? 0) + 1);
          } catch (error) {
            uncaught++;
            if (broken.length < 200) broken.push(`${label}: threw ${String(error).slice(0, 200)}`);
          } finally {
            clearTimeout(timer);
          }
        }
        await ws.close();
      }
    } finally {
      process.off('unhandledRejection', onRejection);
    }
    const polluted =
      ({} as Record<string, unknown>).polluted !== undefined ||
      (Object.prototype as Record<string, unknown>).polluted !== undefined;
    if (polluted) broken.push('Object.prototype was polluted');
    const mix = [...codes]
      .sort((a, b) => b[1] - a[1])
      .map(([c, n]) => `${c}=${n}`)
      .join(' ');
    console.log(
      `[hardening calls] toolsets=${toolsets.map((t) => t.name).join(',')} calls=${calls} uncaught=${uncaught} outcomes: ${mix}`,
    );
    for (const line of internal) console.log(`[hardening calls] IO_ERROR on a healthy backend: ${line}`);
    recordFigures({
      area: 'call fuzzing',
      backend: 'memory',
      attempts: calls,
      escapes: 0,
      uncaught,
      partial: 0,
      lost: 0,
      torn: 0,
      note: `${toolsets.length} toolsets; outcomes ${mix.split(' ').slice(0, 6).join(' ')}`,
    });
    expect(broken, replayHint('calls')).toEqual([]);
    expect(calls).toBeGreaterThanOrEqual(SIZES.calls);
  });
});

function safeShow(value: unknown): string {
  try {
    return (JSON.stringify(value) ?? String(value)).slice(0, 160);
  } catch {
    return '(unprintable)';
  }
}
