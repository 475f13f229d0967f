import { describe, expect, it } from 'vitest';
import { inPersonWords } from '../../demo/git/words.js';

// Issue 26 item 8: the git layer's hints are written for code; the Git tab names its own controls.
describe('git hints in the playground', () => {
  it("speaks of the page's controls, not API options", () => {
    expect(inPersonWords('no remote URL was given and the workspace was not cloned from one Pass url.')).toBe(
      'no remote URL was given and the workspace was not cloned from one Enter the repository URL above.',
    );
    expect(inPersonWords('Pull first (git.pull) to bring the workspace up to date, or push to a new branch.')).toBe(
      'Pull first (the Pull button) to bring the workspace up to date, or push to a new branch.',
    );
    expect(inPersonWords('nothing to change here')).toBe('nothing to change here');
  });

  it('names the CORS proxy field, the "newest commit only" box and the page\'s size limit', () => {
    expect(
      inPersonWords('Check the URL and the network; in a browser the server must allow CORS, or pass corsProxy.'),
    ).toBe(
      'Check the URL and the network; in a browser the server must allow CORS, or fill in the CORS proxy field above.',
    );
    expect(inPersonWords('Leave out depth, or use another server.')).toBe(
      'Untick "newest commit only", or use another server.',
    );
    expect(
      inPersonWords('Clone a smaller ref or with depth 1, or raise maxTotalBytes if the workspace can hold it.'),
    ).toBe(
      'Clone a smaller branch or tag, with "newest commit only" ticked; the playground cannot hold more than its limit.',
    );
    expect(inPersonWords('Raise maxFileBytes if the workspace can hold a file that big, or clone another ref.')).toBe(
      'Clone another branch or tag; the playground cannot hold a file that big.',
    );
    expect(
      inPersonWords(
        'Pass a token that may read (and, to push, write) this repository; it is sent only when the server asks.',
      ),
    ).toBe(
      'Enter a token above that may read (and, to push, write) this repository; it is sent only when the server asks.',
    );
    expect(inPersonWords('Check the URL and the ref; report it if it repeats.')).toBe(
      'Check the URL and the branch or tag; report it if it repeats.',
    );
  });

  it("leaves none of the git layer's option names in any hint it writes", async () => {
    // Every hint the git layer can give, read from its sources, so a new one cannot slip past.
    const { readFile, readdir } = await import('node:fs/promises');
    const folder = new URL('../../src/git/', import.meta.url);
    const hints: string[] = [];
    for (const name of await readdir(folder)) {
      const text = await readFile(new URL(name, folder), 'utf8');
      for (const match of text.matchAll(/hint: '([^']+)'/g)) hints.push(match[1]!);
    }
    expect(hints.length).toBeGreaterThan(10);
    const apiWords = /\b(corsProxy|depth|maxTotalBytes|maxFileBytes|Pass url|git\.(clone|push|pull)|ref\b)/;
    // Snapshots off is a workspace option the playground never sets, so its hint cannot be shown.
    const shown = hints.filter((h) => !h.includes('snapshots: false'));
    expect(shown.map(inPersonWords).filter((h) => apiWords.test(h))).toEqual([]);
  });
});
