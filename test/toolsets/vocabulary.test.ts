import { describe, expect, it } from 'vitest';
import { arg, PASSAGES, pointer, sayWords, tool, ToolError, words } from '../../src/contract/index.js';
import { ANTHROPIC_EDITOR_WORDS, COWORK_WORDS, FS_PROCESS_WORDS, reword } from '../../src/toolsets/vocabulary.js';

describe('errors carry the names they mention as data', () => {
  it('a ToolError built from Words holds the canonical text and keeps the slots', () => {
    const e = new ToolError('NO_MATCH', words`${arg('old_text')} was not found in '${'read_file.txt'}'`, {
      hint: words`Use ${tool('read_file')} first.`,
      problems: [
        { path: '/new_text', message: words`must differ from ${arg('old_text')}` },
        { path: '/x', message: 'plain' },
      ],
    });
    expect(e.message).toBe("old_text was not found in 'read_file.txt'");
    expect(e.hint).toBe('Use read_file first.');
    expect(e.problems).toEqual([
      { path: '/new_text', message: 'must differ from old_text' },
      { path: '/x', message: 'plain' },
    ]);
    expect(e.words?.problems?.[1]).toBeUndefined();
    expect(e.toJSON()).toEqual({
      code: 'NO_MATCH',
      message: e.message,
      hint: e.hint,
      problems: e.problems,
    });
  });

  it('an error of plain strings has no words, and is reworded to itself', () => {
    const e = new ToolError('NOT_FOUND', "'read_file' does not exist", { hint: 'Use read_file.' });
    expect(e.words).toBeUndefined();
    expect(Object.keys(e)).not.toContain('words');
    const said = reword(e, COWORK_WORDS);
    expect([said.message, said.hint]).toEqual(["'read_file' does not exist", 'Use read_file.']);
  });

  it('a toolset renames slots only: interpolated caller text keeps every word', () => {
    const line = 'call read_file with old_text';
    const e = new ToolError('NO_MATCH', words`${arg('old_text')} was not found`, {
      hint: words`Near match:\n${line}\nCopy its spacing into ${arg('old_text')}.`,
    });
    const said = reword(e, FS_PROCESS_WORDS);
    expect(said.message).toBe('`old` was not found');
    expect(said.hint).toBe('Near match:\ncall read_file with old_text\nCopy its spacing into `old`.');
  });

  it('a passage is said wholly in the toolset words, or renamed when the toolset lists none', () => {
    const hint = words`Check the name with ${PASSAGES.listOrGlob}.`;
    expect(sayWords(hint)).toBe('Check the name with list_directory or glob.');
    expect(sayWords(hint, FS_PROCESS_WORDS)).toBe('Check the name with list_dir.');
    expect(sayWords(PASSAGES.folderHolds, COWORK_WORDS)).toBe('Use glob to see what it holds.');
    expect(sayWords(PASSAGES.folderHolds, ANTHROPIC_EDITOR_WORDS)).toBe('View the folder to see what it holds.');
    const ambiguous = words`Include more surrounding lines so it matches once${PASSAGES.replaceAll}.`;
    expect(sayWords(ambiguous)).toBe(
      'Include more surrounding lines so it matches once, or set replace_all: true to change every occurrence.',
    );
    expect(sayWords(ambiguous, FS_PROCESS_WORDS)).toBe(
      'Include more surrounding lines so it matches once, or pass count=-1 to change every occurrence (or count=N for the first N).',
    );
    // the editor has no replace-all: the sentence ends, with no comma left hanging
    expect(sayWords(ambiguous, ANTHROPIC_EDITOR_WORDS)).toBe('Include more surrounding lines so it matches once.');
  });

  it('pointers are renamed in problem paths and, by argument name, in prose', () => {
    const e = new ToolError('INVALID_ARGUMENTS', words`${pointer('/old_text')} must be a string`, {
      problems: [{ path: '/old_text', message: 'must be a string' }],
    });
    const said = reword(e, FS_PROCESS_WORDS);
    expect(said.message).toBe('/`old` must be a string');
    expect(said.problems).toEqual([{ path: '/old', message: 'must be a string' }]);
  });

  it('an error that quotes another keeps its slots through wordsOf', () => {
    const inner = new ToolError('NOT_FOUND', words`gone; use ${tool('list_directory')}`, { hint: PASSAGES.readInFull });
    const outer = new ToolError(inner.code, words`patch line 3: ${inner.wordsOf('message')}`, {
      hint: inner.wordsOf('hint'),
    });
    expect(outer.message).toBe('patch line 3: gone; use list_directory');
    const said = reword(outer, COWORK_WORDS);
    expect(said.message).toBe('patch line 3: gone; use glob');
    expect(said.hint).toBe('Call text_file_read on it with offset=1 and no limit first.');
    expect(new ToolError('IO_ERROR', 'plain').wordsOf('hint')).toBeUndefined();
  });
});
