import type { Page } from 'playwright-core';
import { callTool } from './preview-steps.js';

/** What the Git panel's progress bar and phase line showed, one entry per change, as a person saw it. */
export interface ProgressSeen {
  phase: string;
  value: number;
  max: number;
  hidden: boolean;
}

/**
 * Start recording #git-progress and #git-phase. A MutationObserver runs between the worker's
 * progress messages, so it sees each step the bar takes, however fast the clone is.
 */
export async function watchProgress(page: Page): Promise<() => Promise<ProgressSeen[]>> {
  await page.evaluate(() => {
    const bar = document.getElementById('git-progress') as HTMLProgressElement;
    const phase = document.getElementById('git-phase')!;
    const seen: ProgressSeen[] = [];
    (window as unknown as { gitProgressSeen: ProgressSeen[] }).gitProgressSeen = seen;
    new MutationObserver(() => {
      seen.push({ phase: phase.textContent ?? '', value: bar.value, max: bar.max, hidden: bar.hidden });
    }).observe(bar.parentElement!, { subtree: true, attributes: true, childList: true, characterData: true });
  });
  return () => page.evaluate(() => (window as unknown as { gitProgressSeen: ProgressSeen[] }).gitProgressSeen);
}

/** Click one of the panel's buttons and wait for the envelope it shows in #git-result. */
export async function clickAndRead(
  page: Page,
  button: '#git-clone' | '#git-push' | '#git-pull',
): Promise<Record<string, any>> {
  const before = await page.evaluate(() => {
    const out = document.getElementById('git-result')!;
    return out.hidden ? null : out.textContent;
  });
  await page.click(button);
  await page.waitForFunction(
    (old) => {
      const out = document.getElementById('git-result')!;
      return (
        !out.hidden && out.textContent !== old && !(document.getElementById('git-clone') as HTMLButtonElement).disabled
      );
    },
    before,
    { timeout: 20_000 },
  );
  return JSON.parse((await page.textContent('#git-result'))!);
}

/**
 * Every file of the open workspace with its text, read through the page's tool console (callTool:
 * the console's own clicks and typing are tested elsewhere; here what counts is what is in the files).
 */
export async function workspaceFiles(page: Page): Promise<Record<string, string>> {
  const listed = await callTool(page, 'list_directory', { path: '.', recursive: true, include_hidden: true });
  if (!listed.ok) throw new Error(JSON.stringify(listed.error));
  const out: Record<string, string> = {};
  for (const entry of listed.result.entries as Array<{ path: string; type: string }>) {
    if (entry.type !== 'file') continue;
    const read = await callTool(page, 'read_file', { path: entry.path });
    if (!read.ok) throw new Error(JSON.stringify(read.error));
    out[entry.path] = read.result.content;
  }
  return out;
}
