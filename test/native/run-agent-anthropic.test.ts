import { afterEach, describe, expect, it } from 'vitest';
import { anthropicProvider, runAgent, toolset } from '../../src/index.js';
import { startModelServer, type ModelServer } from '../agent/model-server.js';
import { BACKENDS, type NativeBackend } from './backends.js';

type Row = Record<string, any>;
let open: NativeBackend | null = null;
let server: ModelServer | null = null;
afterEach(async () => {
  await open?.close();
  await server?.stop();
  open = server = null;
});

const EDIT = 'str_replace_based_edit_tool';
const resultsOf = (body: Row) => (body.messages.at(-1).content as Row[]).filter((b) => b.type === 'tool_result');

describe.each(Object.keys(BACKENDS) as Array<keyof typeof BACKENDS>)(
  'runAgent with the anthropic toolset on %s',
  (backend) => {
    it('sends the text editor and bash as Anthropic tool types and answers with tool_result text', async () => {
      open = BACKENDS[backend](
        'anthropic',
        { 'src/a.py': 'x = 1\ny = 2\nx = 1\n', 'src/lib/m.py': 'pass\n' },
        { bashTimeoutSeconds: 1 },
      );
      server = await startModelServer({
        claude: [
          {
            text: 'Looking.',
            calls: [
              { name: EDIT, args: { command: 'view', path: '/' } },
              { name: EDIT, args: { command: 'view', path: '/src/a.py', view_range: [2, 3] } },
            ],
          },
          {
            calls: [
              { name: EDIT, args: { command: 'str_replace', path: 'src/a.py', old_str: 'x = 1', new_str: 'x = 3' } },
              { name: EDIT, args: { command: 'str_replace', path: 'src/a.py', old_str: 'z = 0', new_str: 'z = 1' } },
            ],
          },
          {
            calls: [
              { name: 'bash', args: { command: 'cat src/lib/m.py; exit 3' } },
              { name: 'bash', args: { command: 'sleep 5' } },
            ],
          },
          { text: 'Done.' },
        ],
      });
      const set = toolset('anthropic', { maxCharacters: 4000 });
      const outcome = await runAgent({
        workspace: open.ws,
        provider: anthropicProvider({ endpoint: server.url, model: 'claude' }),
        toolset: set,
        task: 'Fix it.',
      });
      expect(outcome.reason).toBe('answered');
      const bodies = server.requests.map((r) => r.body);
      expect(bodies[0]!.tools).toEqual([
        { type: 'text_editor_20250728', name: EDIT, max_characters: 4000 },
        { type: 'bash_20250124', name: 'bash' },
      ]);
      const [folder, range] = resultsOf(bodies[1]!);
      expect(folder!.content.split('\n').slice(1)).toEqual(['src/', 'src/a.py', 'src/lib/']);
      expect(folder!.is_error).toBeUndefined();
      expect(range).toEqual({ type: 'tool_result', tool_use_id: expect.any(String), content: '2: y = 2\n3: x = 1' });
      const [ambiguous, missing] = resultsOf(bodies[2]!);
      expect(ambiguous!.is_error).toBe(true);
      expect(ambiguous!.content).toMatch(
        /^Error: Found 2 matches for replacement text\. Please provide more context to make a unique match\./,
      );
      expect(missing!.content).toMatch(
        /^Error: No match found for replacement\. Please check your text and try again\./,
      );
      expect(await open.text('src/a.py')).toBe('x = 1\ny = 2\nx = 1\n');
      const [failed, slow] = resultsOf(bodies[3]!);
      expect(failed!.content).toBe('pass\n\n(exit code 3)');
      expect(slow).toMatchObject({
        is_error: true,
        content: 'Error: the command timed out after 1 seconds and was killed. The session goes on.',
      });
    });
  },
);
