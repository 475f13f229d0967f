import { afterEach, describe, expect, it } from 'vitest';
import { openAIResponsesProvider, runAgent } from '../../src/index.js';
import { BACKENDS, type NativeBackend } from './backends.js';
import { patchCall, shellCall, startResponsesServer, type ResponsesServer } from './responses-server.js';

type Row = Record<string, any>;
let open: NativeBackend | null = null;
let server: ResponsesServer | null = null;
afterEach(async () => {
  await open?.close();
  await server?.stop();
  open = server = null;
});

const outputsOf = (body: Row, type: string) => (body.input as Row[]).filter((item) => item.type === type);

describe.each(Object.keys(BACKENDS) as Array<keyof typeof BACKENDS>)(
  'runAgent with the openai toolset on %s',
  (backend) => {
    it('sends apply_patch and shell as Responses tools and answers their calls in their own item types', async () => {
      open = BACKENDS[backend]('openai', {
        'src/a.txt': 'one\ntwo\nthree\nfour\nfive\nsix\nseven\n',
        'old.txt': 'bye\n',
      });
      server = await startResponsesServer([
        {
          text: 'Patching.',
          items: [
            patchCall('c1', { type: 'create_file', path: 'new/b.txt', diff: '+hello\n+world\n' }),
            patchCall('c2', {
              type: 'update_file',
              path: 'src/a.txt',
              diff: '@@\n one\n-two\n+TWO\n three\n@@ five\n six\n-seven\n+SEVEN\n+eight\n*** End of File\n',
            }),
            patchCall('c3', { type: 'delete_file', path: 'old.txt' }),
          ],
        },
        { items: [patchCall('c4', { type: 'update_file', path: 'src/a.txt', diff: '@@\n-not there\n+X\n' })] },
        { items: [shellCall('s1', ['cat new/b.txt', 'echo bad >&2; exit 3']), shellCall('s2', ['sleep 5'], 300)] },
        { text: 'Done.' },
      ]);
      const outcome = await runAgent({
        workspace: open.ws,
        provider: openAIResponsesProvider({ endpoint: server.url, model: 'gpt-test' }),
        toolset: 'openai',
        task: 'Make the changes.',
      });
      expect(outcome.reason).toBe('answered');
      expect(outcome.text).toBe('Done.');
      const [first, second, third, fourth] = server.bodies as Row[];
      expect(first!.tools).toEqual([{ type: 'apply_patch' }, { type: 'shell', environment: { type: 'local' } }]);
      // every call goes back as the model sent it, followed by its output
      expect(outputsOf(second!, 'apply_patch_call').map((i) => i.call_id)).toEqual(['c1', 'c2', 'c3']);
      expect(outputsOf(second!, 'apply_patch_call_output')).toEqual([
        { type: 'apply_patch_call_output', call_id: 'c1', status: 'completed', output: 'Created new/b.txt' },
        { type: 'apply_patch_call_output', call_id: 'c2', status: 'completed', output: 'Updated src/a.txt (+3 -2)' },
        { type: 'apply_patch_call_output', call_id: 'c3', status: 'completed', output: 'Deleted old.txt' },
      ]);
      const failed = outputsOf(third!, 'apply_patch_call_output').at(-1)!;
      expect(failed.status).toBe('failed');
      expect(failed.output).toMatch(/^PATCH_CONFLICT: /);
      expect(await open.text('src/a.txt')).toBe('one\nTWO\nthree\nfour\nfive\nsix\nSEVEN\neight\n');
      expect(await open.text('new/b.txt')).toBe('hello\nworld\n');
      expect(await open.text('old.txt')).toBeNull();
      const shells = outputsOf(fourth!, 'shell_call_output');
      expect(shells.map((s) => s.call_id)).toEqual(['s1', 's2']);
      expect(shells[0]!.output).toEqual([
        { stdout: 'hello\nworld\n', stderr: '', outcome: { type: 'exit', exit_code: 0 } },
        { stdout: '', stderr: 'bad\n', outcome: { type: 'exit', exit_code: 3 } },
      ]);
      expect(shells[1]!.output[0].outcome).toEqual({ type: 'timeout' });
      expect(JSON.stringify(server.bodies)).not.toMatch(/sandpit-native/);
    });

    it('refuses to send native tools through a provider that cannot speak them', async () => {
      open = BACKENDS[backend]('openai', {});
      const outcome = await runAgent({
        workspace: open.ws,
        provider: {
          api: 'anthropic',
          native: 'anthropic',
          model: 'm',
          turn: async () => ({
            text: '',
            tool_calls: [],
            usage: { input_tokens: 0, output_tokens: 0 },
            stop_reason: null,
          }),
        },
        toolset: 'openai',
        task: 'x',
      });
      expect(outcome.reason).toBe('error');
      expect(outcome.error?.code).toBe('NO_TOOL_SUPPORT');
    });
  },
);
