import type { SeedFiles } from '../../src/index.js';

/**
 * The React sample: a small TSX app that needs real packages from npm, to show the playground
 * installing and previewing them. `react` and `react-dom` come from `npm install`.
 */
export const reactSampleFiles: SeedFiles = {
  'README.md': [
    '# react-sample',
    '',
    'A small React app written in TSX. `npm install` (run for you when the sample is added)',
    'puts `react` and `react-dom` into `node_modules`; the Preview tab then runs `index.html`',
    'and reloads after every change. Try changing the heading in `src/App.tsx`.',
    '',
  ].join('\n'),
  'package.json': `${JSON.stringify(
    {
      name: 'react-sample',
      private: true,
      version: '0.1.0',
      type: 'module',
      dependencies: { react: '^19.3.1', 'react-dom': '^19.3.1' },
    },
    null,
    2,
  )}\n`,
  'tsconfig.json': `${JSON.stringify(
    {
      compilerOptions: {
        target: 'ES2022',
        module: 'ESNext',
        moduleResolution: 'Bundler',
        jsx: 'react-jsx',
        strict: true,
      },
      include: ['src'],
    },
    null,
    2,
  )}\n`,
  'index.html': [
    '<!doctype html>',
    '<html lang="en">',
    '  <head>',
    '    <meta charset="utf-8" />',
    '    <title>react-sample</title>',
    '  </head>',
    '  <body>',
    '    <div id="root"></div>',
    '    <script type="module" src="src/main.tsx"></script>',
    '  </body>',
    '</html>',
    '',
  ].join('\n'),
  'src/main.tsx': [
    "import { StrictMode } from 'react';",
    "import { createRoot } from 'react-dom/client';",
    "import { App } from './App';",
    "import './app.css';",
    '',
    "createRoot(document.getElementById('root')!).render(",
    '  <StrictMode>',
    '    <App />',
    '  </StrictMode>,',
    ');',
    '',
  ].join('\n'),
  'src/App.tsx': [
    "import { useState } from 'react';",
    '',
    '/** A heading and a counter: state, events and a re-render. */',
    'export function App() {',
    '  const [count, setCount] = useState(0);',
    '  return (',
    '    <main>',
    '      <h1>Hello from React</h1>',
    '      <button type="button" onClick={() => setCount((n) => n + 1)}>',
    '        Clicked {count} times',
    '      </button>',
    '    </main>',
    '  );',
    '}',
    '',
  ].join('\n'),
  'src/app.css': [
    'body { font: 16px/1.5 system-ui, sans-serif; margin: 2rem; color: #1f2933; }',
    'h1 { color: #7c3aed; }',
    'button { font: inherit; padding: 0.4rem 0.9rem; }',
    '',
  ].join('\n'),
};
