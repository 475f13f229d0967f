import { css } from '@codemirror/lang-css';
import { html } from '@codemirror/lang-html';
import { javascript } from '@codemirror/lang-javascript';
import { json } from '@codemirror/lang-json';
import { markdown } from '@codemirror/lang-markdown';
import { python } from '@codemirror/lang-python';
import type { basicSetup } from 'codemirror';

type Extension = typeof basicSetup;

/** The syntax for a file name, and the label the editor's header shows; plain text otherwise. */
export function languageFor(path: string): { label: string; extension: Extension | null } {
  const ext = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
  switch (ext) {
    case 'js':
    case 'mjs':
    case 'cjs':
      return { label: 'JavaScript', extension: javascript() };
    case 'jsx':
      return { label: 'JSX', extension: javascript({ jsx: true }) };
    case 'ts':
    case 'mts':
    case 'cts':
      return { label: 'TypeScript', extension: javascript({ typescript: true }) };
    case 'tsx':
      return { label: 'TSX', extension: javascript({ typescript: true, jsx: true }) };
    case 'py':
      return { label: 'Python', extension: python() };
    case 'json':
      return { label: 'JSON', extension: json() };
    case 'md':
    case 'markdown':
      return { label: 'Markdown', extension: markdown() };
    case 'html':
    case 'htm':
      return { label: 'HTML', extension: html() };
    case 'css':
      return { label: 'CSS', extension: css() };
    default:
      return { label: 'Plain text', extension: null };
  }
}
