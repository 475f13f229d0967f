import { describe, expect, it } from 'vitest';
import { inPersonWords } from '../../demo/git-panel.js';

// Issue 26 item 8: the git layer's hints are written for code; the Git tab names its own controls.
describe('git hints in the playground', () => {
  it('speaks of the page\'s controls, not API options', () => {
    expect(inPersonWords('no remote URL was given and the workspace was not cloned from one Pass url.'))
      .toBe('no remote URL was given and the workspace was not cloned from one Enter the repository URL above.');
    expect(inPersonWords('Pull first (git.pull) to bring the workspace up to date, or push to a new branch.'))
      .toBe('Pull first (the Pull button) to bring the workspace up to date, or push to a new branch.');
    expect(inPersonWords('nothing to change here')).toBe('nothing to change here');
  });
});
