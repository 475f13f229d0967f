import { afterEach, describe, expect, it } from 'vitest';
import { toolset } from '../../src/index.js';
import { presentBash, presentEditor } from '../../src/toolsets/index.js';
import { BACKENDS, type NativeBackend } from './backends.js';

let open: NativeBackend | null = null;
afterEach(async () => {
  await open?.close();
  open = null;
});

const EDIT = 'str_replace_based_edit_tool';

describe.each(Object.keys(BACKENDS) as Array<keyof typeof BACKENDS>)('anthropic toolset on %s', (backend) => {
  const start = (seed: Record<string, string>, options = {}) => {
    open = BACKENDS[backend]('anthropic', seed, options);
    return open;
  };
  const editor = async (args: Record<string, unknown>) => presentEditor(await open!.ws.call(EDIT, args));

  it('offers the text editor and bash, sent to the Messages API as their own tool types', () => {
    const set = toolset('anthropic', { maxCharacters: 500 });
    expect(set.tools.map((t) => t.name)).toEqual([EDIT, 'bash']);
    expect(set.native).toBe('anthropic');
    expect(set.toNative?.()).toEqual([
      { type: 'text_editor_20250728', name: EDIT, max_characters: 500 },
      { type: 'bash_20250124', name: 'bash' },
    ]);
  });

  it('view: a file with numbered lines, a range (-1 to the end), a folder two levels deep', async () => {
    const { ws } = start({ 'src/a.py': 'one\ntwo\nthree\nfour\n', 'src/deep/x/y.txt': 'y\n', '.hidden/h': 'h\n' });
    expect(ws.listTools().map((t) => t.name)).toEqual([EDIT, 'bash']);
    expect(await editor({ command: 'view', path: 'src/a.py' })).toEqual({
      content: '1: one\n2: two\n3: three\n4: four',
    });
    expect(await editor({ command: 'view', path: '/src/a.py', view_range: [2, 3] })).toEqual({
      content: '2: two\n3: three',
    });
    expect((await editor({ command: 'view', path: 'src/a.py', view_range: [3, -1] })).content).toBe(
      '3: three\n4: four',
    );
    const folder = await editor({ command: 'view', path: '/' });
    expect(folder.content.split('\n').slice(1)).toEqual(['src/', 'src/a.py', 'src/deep/']);
    const bad = await editor({ command: 'view', path: 'src/a.py', view_range: [3, 1] });
    expect(bad.is_error).toBe(true);
  });

  it('view honours max_characters', async () => {
    start({ 'big.txt': 'abcdefghij\n'.repeat(20) }, { maxCharacters: 30 });
    const shown = await editor({ command: 'view', path: 'big.txt' });
    expect(shown.content.startsWith('1: abcdefghij\n2: abcdefghij\n3:\n(truncated')).toBe(true);
    expect(shown.content).toMatch(/\(truncated at 30 characters/);
  });

  it('str_replace: one match replaced losslessly; ambiguous and missing answered in the documented words, nothing changed', async () => {
    const { text } = start({ 'a.txt': 'alpha\r\nbeta\r\nalpha\r\n' });
    const many = await editor({ command: 'str_replace', path: 'a.txt', old_str: 'alpha', new_str: 'A' });
    expect(many.is_error).toBe(true);
    expect(many.content.split('\n')[0]).toBe(
      'Error: Found 2 matches for replacement text. Please provide more context to make a unique match.',
    );
    expect(many.content).not.toMatch(/old_text|replace_all/);
    const none = await editor({ command: 'str_replace', path: 'a.txt', old_str: 'gamma', new_str: 'G' });
    expect(none.content.split('\n')[0]).toBe(
      'Error: No match found for replacement. Please check your text and try again.',
    );
    expect(none.content).not.toMatch(/old_text/);
    expect(await text('a.txt')).toBe('alpha\r\nbeta\r\nalpha\r\n');
    expect(
      (await editor({ command: 'str_replace', path: 'a.txt', old_str: 'beta', new_str: 'B' })).is_error,
    ).toBeUndefined();
    expect(await text('a.txt')).toBe('alpha\r\nB\r\nalpha\r\n');
    const missing = await editor({ command: 'str_replace', path: 'nope.txt', old_str: 'a', new_str: 'b' });
    expect(missing.content.split('\n')[0]).toBe('Error: File not found');
  });

  it('create and insert (top, middle, end), keeping the line endings; outside the root is refused', async () => {
    const { text } = start({ 'c.txt': 'a\r\nb\r\n' });
    expect((await editor({ command: 'create', path: 'n/new.txt', file_text: 'x\n' })).content).toMatch(/created/);
    expect(await text('n/new.txt')).toBe('x\n');
    await editor({ command: 'insert', path: 'c.txt', insert_line: 0, insert_text: 'top' });
    await editor({ command: 'insert', path: 'c.txt', insert_line: 2, insert_text: 'mid\n' });
    await editor({ command: 'insert', path: 'c.txt', insert_line: 4, insert_text: 'end\n' });
    expect(await text('c.txt')).toBe('top\r\na\r\nmid\r\nb\r\nend\r\n');
    const past = await editor({ command: 'insert', path: 'c.txt', insert_line: 99, insert_text: 'x' });
    expect(past.is_error).toBe(true);
    const outside = await editor({ command: 'create', path: '../escape.txt', file_text: 'x' });
    expect(outside.is_error).toBe(true);
    expect(outside.content).not.toMatch(/\/tmp|sandpit-native/);
  });

  it('bash: output, a non-zero exit, a timeout, restart', async () => {
    const { ws } = start({ 'a.txt': 'hi\n' }, { bashTimeoutSeconds: 1 });
    expect(presentBash(await ws.call('bash', { command: 'cat a.txt' }))).toEqual({ content: 'hi\n' });
    const failed = presentBash(await ws.call('bash', { command: 'echo no >&2; exit 4' }));
    expect(failed.content).toBe('no\n\n(exit code 4)');
    const slow = presentBash(await ws.call('bash', { command: 'sleep 5' }));
    expect(slow).toEqual({
      content: 'Error: the command timed out after 1 seconds and was killed. The session goes on.',
      is_error: true,
    });
    expect(presentBash(await ws.call('bash', { restart: true }))).toEqual({ content: 'tool has been restarted.' });
  });
});
