import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createProvider, runAgent, type AgentEvent } from '../../src/index.js';
import { openNodeWorkspace } from '../../src/node/index.js';
import { startModelServer, type ModelServer } from './model-server.js';
import { sentResults } from './requests.js';

let server: ModelServer;
let base: string;
beforeAll(async () => {
  server = await startModelServer({
    'fails-anthropic': [{ calls: [{ name: 'fails', args: {} }] }, { text: 'It failed.' }],
  });
  base = await mkdtemp(join(tmpdir(), 'sandpit-agent-manifest-'));
});
afterAll(async () => {
  await server.stop();
  await rm(base, { recursive: true, force: true });
});

it('the agent loop sees a manifest tool that exits non-zero in text mode as a failed call (seed 003)', async () => {
  const root = join(base, 'ws');
  const tools = join(base, 'tools');
  await mkdir(root, { recursive: true });
  await mkdir(join(tools, 'fails'), { recursive: true });
  await writeFile(
    join(tools, 'fails', 'fails.json'),
    JSON.stringify({ description: 'Fail.', command: [process.execPath, '-e', "console.log('nope'); process.exit(4)"] }),
  );
  const ws = openNodeWorkspace(root, { toolsDir: tools, snapshots: false });
  const events: AgentEvent[] = [];
  try {
    await runAgent({
      workspace: ws,
      task: 'Run fails.',
      provider: createProvider({ api: 'anthropic', endpoint: server.url, model: 'fails-anthropic', apiKey: 'k' }),
      onEvent: (e) => events.push(e),
    });
  } finally {
    await ws.close();
  }
  const result = events.find((e) => e.type === 'tool_result');
  expect(result).toMatchObject({ envelope: { ok: false, error: { code: 'IO_ERROR', exit_code: 4 } } });
  const [sent] = sentResults(server.requestsFor('fails-anthropic')[1]!);
  expect(sent).toMatchObject({ is_error: true, envelope: { ok: false, error: { output: 'nope\n(exit code 4)' } } });
});
