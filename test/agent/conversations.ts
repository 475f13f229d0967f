import type { ScriptTurn } from './model-server.js';

/** The small project the scripted agent fixes. */
export const fixture: Record<string, string> = {
  'src/greet.js': "export function greet(name) {\n  return 'Hello ' + name;\n}\n",
  'check.mjs':
    "import { greet } from './src/greet.js';\nconst got = greet('sandpit');\nconsole.log(got);\nprocess.exit(got === 'Hello, sandpit!' ? 0 : 1);\n",
  'notes.md': '# Notes\n- [ ] greet politely\n- [ ] add a test\n- [ ] greet politely in French\n',
};

/** The files after the scripted run. */
export const fixed: Record<string, string> = {
  'src/greet.js': "export function greet(name) {\n  return 'Hello, ' + name + '!';\n}\n",
  'check.mjs': fixture['check.mjs']!,
  'notes.md': '# Notes\n- [x] greet politely\n- [ ] add a test\n- [ ] greet politely in French\n',
};

export const FIX_TASK = 'Make greet() say "Hello, NAME!", check it with check.mjs, and tick the note.';

const patch = [
  '*** Begin Patch',
  '*** Update File: src/greet.js',
  '@@',
  ' export function greet(name) {',
  "-  return 'Hello ' + name;",
  "+  return 'Hello, ' + name + '!';",
  ' }',
  '*** End Patch',
].join('\n');

/**
 * Read (two files at once), patch, run the check, hit an ambiguous edit and recover, finish.
 * Request n+1 carries the results of turn n, which the tests check.
 */
export const fixGreeting: ScriptTurn[] = [
  {
    text: "I'll read the code and the check first.",
    calls: [
      { name: 'read_file', args: { path: 'src/greet.js' } },
      { name: 'read_file', args: { path: 'check.mjs' } },
    ],
  },
  { calls: [{ name: 'apply_patch', args: { patch } }] },
  { text: 'Running the check.', calls: [{ name: 'run_command', args: { command: 'node check.mjs' } }] },
  {
    text: 'Now the note.',
    calls: [
      {
        name: 'edit_file',
        args: { path: 'notes.md', old_text: '- [ ] greet politely', new_text: '- [x] greet politely' },
      },
    ],
  },
  {
    text: 'That matched twice; including the line end makes it unique.',
    calls: [
      {
        name: 'edit_file',
        args: { path: 'notes.md', old_text: '- [ ] greet politely\n', new_text: '- [x] greet politely\n' },
      },
    ],
  },
  { text: "Done: greet() now says 'Hello, NAME!', the check passes and the note is ticked." },
];

/** The turn indexes (request numbers minus one) whose results the tests look at. */
export const TURN = { reads: 1, patch: 2, run: 3, ambiguous: 4, recovered: 5 } as const;
