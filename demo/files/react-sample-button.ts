import type { ToolConsole } from '../console/panel.js';
import { $, toast } from '../page/dom.js';
import { failureText } from '../page/failure-words.js';
import type { Session } from '../page/session.js';
import { reactSampleFiles } from './react-sample.js';

/**
 * The "Add the React sample" button: the sample's files land as one change (one Undo takes them
 * back), then `npm install` runs in the workspace's shell through the tool console, where a
 * person sees it run. Before the shell has `npm` it says so there, and the files stay.
 */
export function wireReactSample(
  session: Session,
  toolConsole: ToolConsole,
  showTab: (tab: 'console') => void,
  /** shows the new files and opens one of them */
  opened: (path: string) => Promise<void>,
): void {
  $('seed-react').addEventListener('click', async () => {
    const encoder = new TextEncoder();
    const files = Object.entries(reactSampleFiles).map(([path, content]) => ({
      path,
      bytes: typeof content === 'string' ? encoder.encode(content) : (content as Uint8Array),
    }));
    const envelope = await session.importFiles(files);
    if (!envelope.ok) {
      toast(failureText('Could not add the React sample', envelope.error), 'error');
      return;
    }
    await opened('src/App.tsx');
    const tools = await session.workspace.listTools();
    if (!tools.some((tool) => tool.name === 'run_command')) {
      toast('The React sample is in. Run `npm install` in a shell to fetch react and react-dom.');
      return;
    }
    toolConsole.prepare('run_command', { command: 'npm install', timeout_seconds: 300 });
    showTab('console');
    await toolConsole.run();
  });
}
