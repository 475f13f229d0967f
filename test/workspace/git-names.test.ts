import { describe, expect, it } from 'vitest';
import { foldedName, foldsToGitDir } from '../../src/workspace/git-names.js';

/** The rule by its definition: fold the whole name, then compare. */
const byFolding = (name: string) => {
  const folded = foldedName(name);
  return folded === '.git' || /^git~[1-9]$/.test(folded);
};

describe('foldsToGitDir', () => {
  it('agrees with folding the whole name, for plain ASCII names (its shortcut) and every other kind', () => {
    const alphabet = ['.', 'g', 'G', 'i', 'I', 't', 'T', '~', '1', ' ', ':', 'x', '\u200C'];
    const names: string[] = [''];
    for (let length = 1; length <= 5; length++)
      for (const prefix of names.filter((n) => n.length === length - 1))
        for (const c of alphabet) names.push(prefix + c);
    names.push('.git::$INDEX_ALLOCATION', 'pkg00', 'mod0', 'file0.ts', '.gitignore', 'a-b_c+d,e=f@g.h', '.GIT...');
    const disagree = names.filter((name) => foldsToGitDir(name) !== byFolding(name));
    expect(disagree).toEqual([]);
    expect(['.git', '.GIT', '.Git..', 'git~1', '.git ', '.g\u200Cit'].every(foldsToGitDir)).toBe(true);
    expect(['pkg00', '.gitignore', 'x.git', '..', ''].some(foldsToGitDir)).toBe(false);
  });
});
