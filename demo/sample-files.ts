import type { SeedFiles } from '../src/index.js';

/** What the demo workspace starts with: a tiny project worth reading, searching and editing. */
export const sampleFiles: SeedFiles = {
  'README.md': [
    '# hello-sandpit',
    '',
    'A tiny project living in your browser tab. Nothing here touches your disk:',
    'every file is in memory and disappears when you reload.',
    '',
    'Try `read_file` on `src/greet.ts`, then `edit_file` to change the greeting.',
    '',
  ].join('\n'),
  'src/greet.ts': [
    '/** Say hello to someone by name. */',
    'export function greet(name: string): string {',
    '  return `Hello, ${name}!`;',
    '}',
    '',
  ].join('\n'),
  'src/main.ts': [
    "import { greet } from './greet.js';",
    '',
    "console.log(greet('world'));",
    '',
  ].join('\n'),
  'notes/todo.md': '- [x] write greet()\r\n- [ ] add a farewell\r\n- [ ] ship it\r\n',
  'data/config.json': `${JSON.stringify({ name: 'hello-sandpit', version: '0.1.0', greeting: 'Hello' }, null, 2)}\n`,
};
