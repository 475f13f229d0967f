import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryFs, createProvider, createWorkspace, runAgent, type Envelope } from '../../src/index.js';
import { startModelServer, type ModelServer } from '../agent/model-server.js';

const before = Array.from({ length: 20 }, (_, i) => `line ${i + 1}\n`).join('');
const after = before.replace('line 2\n', 'TWO\n').replace('line 10\n', 'TEN\n').replace('line 18\n', 'EIGHTEEN\n');

const fs = createMemoryFs({ 'a.txt': before });
const ws = createWorkspace({ fs });
let rejection: Promise<Envelope> | null = null;
let appliedWhenAsked: string | null = null;
let server: ModelServer;

beforeAll(async () => {
  server = await startModelServer({
    reviewed: [
      { text: 'Reading.', calls: [{ name: 'read_file', args: { path: 'a.txt' } }] },
      { text: 'Rewriting three lines.', calls: [{ name: 'write_file', args: { path: 'a.txt', content: after } }] },
      {
        // While the model "thinks", a person rejects the middle hunk: it must wait for the gap between calls.
        waitFor: async () => {
          const hunks = (await ws.review.hunks()) as Envelope<{ hunks: Array<{ id: string; new_start: number }> }>;
          const middle = hunks.ok ? hunks.result.hunks.find((h) => h.new_start === 10)!.id : 'missing';
          rejection = ws.review.reject([middle], 'line 10 must stay as it was');
          appliedWhenAsked = new TextDecoder().decode(await fs.readFile('/a.txt'));
        },
        text: 'Checking.',
        calls: [{ name: 'read_file', args: { path: 'a.txt' } }],
      },
      { text: 'Understood, line 10 stays.' },
    ],
  });
});
afterAll(() => server.stop());

describe('a rejected hunk reaches the running agent', () => {
  it('applies the rejection between the calls, keeps the other hunks and tells the next request', async () => {
    const outcome = await runAgent({
      workspace: ws,
      task: 'Rewrite lines 2, 10 and 18.',
      provider: createProvider({ api: 'openai', endpoint: `${server.url}/v1`, model: 'reviewed', apiKey: 'k' }),
    });
    expect(outcome.reason).toBe('answered');
    expect(appliedWhenAsked).toBe(after);
    const rejected = await rejection!;
    expect(rejected.ok).toBe(true);
    expect(new TextDecoder().decode(await fs.readFile('/a.txt'))).toBe(after.replace('TEN\n', 'line 10\n'));

    const requests = server.requestsFor('reviewed');
    expect(requests).toHaveLength(4);
    const sent = requests.map((r) => JSON.stringify(r.body.messages));
    expect(sent[2]).not.toContain('[info: review');
    const last = requests[3]!.body.messages as Array<{ role: string; content: string }>;
    const note = last.filter((m) => typeof m.content === 'string' && m.content.includes('[info: review'));
    expect(note).toHaveLength(1);
    expect(note[0]!.content).toContain('a.txt line 10');
    expect(note[0]!.content).toContain('"line 10 must stay as it was"');
    // the tool result the model read in the same request still shows the file before the rejection
    expect(sent[3]).toContain('TEN');
  });

  it("attributes the agent's lines to it and its tool call, and the reverted line to the reviewer", async () => {
    const blamed = await ws.blame('a.txt');
    if (!blamed.ok) throw new Error(blamed.error.message);
    const byLine = (n: number) => blamed.result.ranges.find((r) => r.start_line <= n && n <= r.end_line)!;
    expect(byLine(2)).toMatchObject({ actor: 'agent:reviewed', tool: 'write_file' });
    expect(byLine(2).call_id).toEqual(expect.any(String));
    expect(byLine(10)).toMatchObject({ actor: 'reviewer', tool: 'review_reject' });
    expect(byLine(1)).toMatchObject({ actor: null, change_id: null });
  });
});
