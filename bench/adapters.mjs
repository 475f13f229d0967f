// A scripted 20-step agent loop (ten files written, then each edited) run through each framework
// adapter, against the same run through Sandpit's own runAgent and the same 20 calls made directly
// with ws.call, on memory with snapshots on. Every model is scripted in-process (no HTTP), so the
// rows differ only in the loop and the tool plumbing. The rows with hand-written tools separate
// each SDK loop's own cost from the adapter's.
// Needs `npm run build` first. Run alone with `node bench/adapters.mjs`, or import benchAdapters().
import { Agent, run, setTracingDisabled, tool, Usage } from '@openai/agents';
import { dynamicTool, generateText, jsonSchema, stepCountIs } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { createMemoryFs, createWorkspace, runAgent } from '../dist/index.js';
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

/** The same script as a runAgent provider: each turn's arguments arrive as text and are parsed, as from an API. */
function runAgentProvider() {
  let step = 0;
  const tokens = { input_tokens: 1, output_tokens: 1 };
  return {
    api: 'openai',
    model: 'bench',
    async turn() {
      const s = STEPS[step++];
      if (!s) return { text: 'done', tool_calls: [], usage: tokens, stop_reason: 'stop' };
      const raw = JSON.stringify(s.args);
      return {
        text: '',
        tool_calls: [{ id: `c${step}`, name: s.name, args: JSON.parse(raw), raw }],
        usage: tokens,
        stop_reason: 'tool_calls',
      };
    },
  };
}

const fresh = () => createWorkspace({ fs: createMemoryFs({ '/ws/README.md': '# bench\n' }), root: '/ws' });

async function check(ws) {
  const r = await ws.call('read_file', { path: 'src/f9.ts' });
  if (!r.ok || r.result.content !== 'export const v9 = 19;\n')
    throw new Error(`the loop did not finish: ${JSON.stringify(r)}`);
}

/**
 * The median time of each loop over `runs` rounds (after two warm-up rounds). The loops take turns
 * within each round, so a change in the machine's load reaches every row alike and the ratios hold.
 */
async function timedTogether(runs, loops) {
  const times = loops.map(() => []);
  for (let i = 0; i < runs + 2; i++) {
    for (const [at, loop] of loops.entries()) {
      const ws = fresh();
      const start = performance.now();
      await loop(ws);
      if (i >= 2) times[at].push(performance.now() - start);
      await check(ws);
      await ws.close();
    }
  }
  return times.map((t) => t.sort((a, b) => a - b)[Math.floor(t.length / 2)]);
}

const PATHS = {
  'ws.call, 20 calls directly': async (ws) => {
    for (const s of STEPS) {
      const r = await ws.call(s.name, s.args);
      if (!r.ok) throw new Error(JSON.stringify(r.error));
    }
  },
  'runAgent, scripted provider': async (ws) => {
    const outcome = await runAgent({ workspace: ws, provider: runAgentProvider(), task: 'go', maxSteps: 25 });
    if (outcome.reason !== 'answered') throw new Error(`runAgent ended ${outcome.reason}`);
  },
  'AI SDK generateText, hand-written tools': async (ws) => {
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
  },
  'AI SDK generateText, sandpitTools': async (ws) => {
    await generateText({ model: aiModel(), tools: await sandpitTools(ws), prompt: 'go', stopWhen: stepCountIs(25) });
  },
  'Agents SDK run(), hand-written function tools': async (ws) => {
    const tools = ws.listTools().map((t) =>
      tool({
        name: t.name,
        description: t.description,
        parameters: t.input_schema,
        strict: false,
        // the model's nulls for arguments it leaves out, dropped the simple way
        execute: (input) => ws.call(t.name, Object.fromEntries(Object.entries(input).filter(([, v]) => v !== null))),
      }),
    );
    await run(new Agent({ name: 'bench', model: agentsModel(), tools }), 'go', { maxTurns: 25 });
  },
  'Agents SDK run(), sandpitFunctionTools': async (ws) => {
    const agent = new Agent({ name: 'bench', model: agentsModel(), tools: await sandpitFunctionTools(ws) });
    await run(agent, 'go', { maxTurns: 25 });
  },
};

export async function benchAdapters() {
  setTracingDisabled(true);
  const runs = 15;
  const names = Object.keys(PATHS);
  const times = await timedTogether(runs, Object.values(PATHS));
  const [direct, loop] = times;
  return table(
    `Framework adapters: a scripted 20-step agent loop on memory, snapshots on (medians of ${runs}, the paths taking turns)`,
    ['path', 'time', 'vs runAgent', 'vs direct calls'],
    names.map((name, i) => [name, fmtMs(times[i]), fmtRatio(times[i] / loop), fmtRatio(times[i] / direct)]),
  );
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await benchAdapters());
