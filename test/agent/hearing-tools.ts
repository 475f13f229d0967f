import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

// The smallest valid PNG: 1x1, one transparent pixel.
export const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

/** Beside the tools in their folder: the loader skips a dot folder. */
const SIGNALS = '.signals';

const tools: Record<string, { manifest: object; script: string }> = {
  // Two notes while it runs, then a short exit.
  indexer: {
    manifest: {
      description: 'Index the project in the background.',
      command: ['node', 'indexer.mjs'],
      background: true,
      output: 'json',
    },
    script: `import { appendFileSync } from 'node:fs';
      appendFileSync(process.env.ZAGENT_NOTIFY_FILE, 'indexing 40% done\\n');
      setTimeout(() => { console.log(JSON.stringify({ output: 'indexed 12 files' })); }, 300);`,
  },
  // Asks to be heard (wake) once the run waits, works on, and once the run waits again leaves a
  // report file in its output folder: each step waits for the run's state (markIdle), not a clock.
  reviewer: {
    manifest: {
      description: 'Review the project in the background.',
      command: ['node', 'reviewer.mjs'],
      background: true,
      output: 'json',
    },
    script: `import { appendFileSync, existsSync, writeFileSync } from 'node:fs';
      const idle = (n) => new Promise((go) => {
        const look = setInterval(() => {
          if (existsSync(new URL('../${SIGNALS}/idle-' + n, import.meta.url))) go(clearInterval(look));
        }, 10);
      });
      await idle(1);
      appendFileSync(process.env.ZAGENT_NOTIFY_FILE, JSON.stringify({ text: 'need your decision on X', wake: true }) + '\\n');
      await idle(2);
      writeFileSync(process.env.ZAGENT_OUTPUT_DIR + '/review.md', '# Review\\nall good\\n');
      console.log(JSON.stringify({ output: 'review finished: 0 problems' }));`,
  },
  // Soon done, leaving a file: it exits after the next request went out, while the model thinks.
  quick: {
    manifest: {
      description: 'Count the words in the background.',
      command: ['node', 'quick.mjs'],
      background: true,
      output: 'json',
    },
    script: `import { writeFileSync } from 'node:fs';
      setTimeout(() => {
        writeFileSync(process.env.ZAGENT_OUTPUT_DIR + '/count.txt', '7\\n');
        console.log(JSON.stringify({ output: 'counted 7 words' }));
      }, 200);`,
  },
  // Asks to be heard (once the run is idle, usually), then works on far longer than any test waits.
  waker: {
    manifest: { description: 'Watch the project in the background.', command: ['node', 'waker.mjs'], background: true },
    script: `import { appendFileSync } from 'node:fs';
      setTimeout(() => appendFileSync(process.env.ZAGENT_NOTIFY_FILE, JSON.stringify({ text: 'watching; tell me what to look at', wake: true }) + '\\n'), 300);
      setTimeout(() => {}, 60000);`,
  },
  sleeper: {
    manifest: {
      description: 'Sleep a long time in the background.',
      command: ['node', '-e', 'setTimeout(() => {}, 60000)'],
      background: true,
    },
    script: '',
  },
  chart: {
    manifest: { description: 'Draw a chart.', command: ['node', 'chart.mjs'], output: 'json', attach_outputs: true },
    script: `import { writeFileSync } from 'node:fs';
      writeFileSync(process.env.ZAGENT_OUTPUT_DIR + '/chart.png', Buffer.from('${PNG_BASE64}', 'base64'));
      console.log(JSON.stringify({ output: 'drew chart.png; caps ' + process.env.ZAGENT_CAPS }));`,
  },
};

/**
 * Tell the tools in `dir` that the run went idle for the `count`th time (its `waiting` event):
 * the reviewer takes its steps on these marks. `count` 0 clears them, for a new run. Synchronous,
 * as an onEvent listener calls it: the mark is there before the run waits.
 */
export function markIdle(dir: string, count: number): void {
  const signals = join(dir, SIGNALS);
  if (count === 0) rmSync(signals, { recursive: true, force: true });
  mkdirSync(signals, { recursive: true });
  if (count > 0) writeFileSync(join(signals, `idle-${count}`), '');
}

/** A tools folder with the background and media tools the agent tests script against. */
export async function writeHearingTools(dir: string): Promise<void> {
  for (const [name, { manifest, script }] of Object.entries(tools)) {
    await mkdir(join(dir, name), { recursive: true });
    await writeFile(join(dir, name, `${name}.json`), JSON.stringify(manifest));
    if (script) await writeFile(join(dir, name, `${name}.mjs`), script);
  }
}
