import type { Page } from 'playwright-core';

/** Fill the agent panel and run a task; resolves when the run has ended, with how it ended. */
export async function runAgentTask(
  page: Page,
  settings: { api: 'openai' | 'anthropic'; endpoint: string; model: string; key?: string },
  task: string,
): Promise<string> {
  await page.click('#tab-agent');
  await page.selectOption('#agent-api', settings.api);
  await page.fill('#agent-endpoint', settings.endpoint);
  await page.fill('#agent-model', settings.model);
  await page.fill('#agent-key', settings.key ?? '');
  await page.fill('#agent-task', task);
  await page.click('#agent-run');
  await page.waitForSelector('#agent-log li.agent-done', { timeout: 30_000 });
  await page.waitForSelector('body[data-agent="idle"]');
  return (await page.getAttribute('#agent-log li.agent-done', 'data-reason'))!;
}

/** Each tool call in the log: its tool and `ok` or its error code. */
export const loggedCalls = (page: Page) =>
  page.$$eval('#agent-log li.agent-call', (items) =>
    items.map((i) => {
      const item = i as HTMLElement;
      return `${item.dataset.tool}:${item.dataset.ok === 'true' ? 'ok' : item.dataset.code}`;
    }),
  );

/** A file's text as read_file returns it, through the page's own worker client. */
export async function fileText(
  page: Page,
  runForm: (page: Page, tool: string, fields: Record<string, string>) => Promise<Record<string, any>>,
  path: string,
): Promise<string> {
  const envelope = await runForm(page, 'read_file', { path });
  return envelope.ok ? envelope.result.content : envelope.error.code;
}
