// A scripted 20-step agent loop (ten files written, then each edited) run through each framework
// adapter, against the same 20 calls made directly with ws.call, on memory with snapshots on.
// The AI SDK row with hand-written tools separates the SDK loop's own cost from the adapter's.
// Needs `npm run build` first. Run alone with `node bench/adapters.mjs`, or import benchAdapters().
import { Agent, run, setTracingDisabled, Usage } from '@openai/agents';
import { dynamicTool, generateText, jsonSchema, stepCountIs } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { createMemoryFs, createWorkspace } from '../dist/index.js';
import { sandpitTools } from '../dist/adapters/ai-sdk/index.js';
import { sandpitFunctionTools } from '../dist/adapters/openai-agents/index.js';
import { fmtMs, fmtRatio, table } from './measure.mjs';

const STEPS = Array.from({ length: 20 }, (_, i) =>
  i < 10
    ? { name: 'write_file', args: { path: `src/f${i}.ts`, content: `export const v${i} = ${i};\n` } }
    : { name: 'edit_file', args: { path: `src/f${i - 10}.ts`, old_text: ` = ${i - 10};`, new_text: ` = ${i};` } },
);
const usage = { inputTokens: { total: 1, noCache: 1 }, outputTokens: { total: 1, text: 1 } };

function aiModel() {
  let step = 0;
  return new MockLanguageModelV4({
    doGenerate: async () => {
      const s = STEPS[step++];
      if (!s)
        return { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop' }, usage, warnings: [] };
      const call = { type: 'tool-call', toolCallId: `c${step}`, toolName: s.name, input: JSON.stringify(s.args) };
      return { content: [call], finishReason: { unified: 'tool-calls' }, usage, warnings: [] };
    },
  });
}

// The Agents SDK sends strict function tools: every optional argument comes as null.
const nulls = {
  write_file: { overwrite: null, expected_sha256: null },
  edit_file: { replace_all: null, expected_sha256: null },
};
function agentsModel() {
  let step = 0;
  return {
    async getResponse() {
      const s = STEPS[step++];
      const output = s
        ? [
            {
              type: 'function_call',
              callId: `c${step}`,
              name: s.name,
              arguments: JSON.stringify({ ...nulls[s.name], ...s.args }),
            },
          ]
        : [
            {
              type: 'message',
              role: 'assistant',
              status: 'completed',
              content: [{ type: 'output_text', text: 'done' }],
            },
          ];
      return { usage: new Usage(), output };
    },
    async *getStreamedResponse() {},
  };
}

const fresh = () => createWorkspace({ fs: createMemoryFs({ '/ws/README.md': '# bench\n' }), root: '/ws' });

async function check(ws) {
  const r = await ws.call('read_file', { path: 'src/f9.ts' });
  if (!r.ok || r.result.content !== 'export const v9 = 19;\n')
    throw new Error(`the loop did not finish: ${JSON.stringify(r)}`);
}

async function timed(runs, loop) {
  const times = [];
  for (let i = 0; i < runs + 2; i++) {
    const ws = fresh();
    const start = performance.now();
    await loop(ws);
    if (i >= 2) times.push(performance.now() - start);
    await check(ws);
    await ws.close();
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

export async function benchAdapters() {
  setTracingDisabled(true);
  const runs = 9;
  const direct = await timed(runs, async (ws) => {
    for (const s of STEPS) {
      const r = await ws.call(s.name, s.args);
      if (!r.ok) throw new Error(JSON.stringify(r.error));
    }
  });
  const byHand = await timed(runs, async (ws) => {
    const tools = Object.fromEntries(
      ws.listTools().map((t) => [
        t.name,
        dynamicTool({
          description: t.description,
          inputSchema: jsonSchema(t.input_schema),
          execute: (input) => ws.call(t.name, input),
        }),
      ]),
    );
    await generateText({ model: aiModel(), tools, prompt: 'go', stopWhen: stepCountIs(25) });
  });
  const aiSdk = await timed(runs, async (ws) => {
    await generateText({ model: aiModel(), tools: await sandpitTools(ws), prompt: 'go', stopWhen: stepCountIs(25) });
  });
  const agents = await timed(runs, async (ws) => {
    const agent = new Agent({ name: 'bench', model: agentsModel(), tools: await sandpitFunctionTools(ws) });
    await run(agent, 'go', { maxTurns: 25 });
  });
  return table(
    `Framework adapters: a scripted 20-step agent loop on memory, snapshots on (median of ${runs})`,
    ['path', 'time', 'vs direct calls'],
    [
      ['ws.call, 20 calls directly', fmtMs(direct), '1.00x'],
      ['AI SDK generateText, hand-written tools', fmtMs(byHand), fmtRatio(byHand / direct)],
      ['AI SDK generateText, sandpitTools', fmtMs(aiSdk), fmtRatio(aiSdk / direct)],
      ['Agents SDK run(), sandpitFunctionTools', fmtMs(agents), fmtRatio(agents / direct)],
    ],
  );
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await benchAdapters());
