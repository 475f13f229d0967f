import type { TestProject } from 'vitest/node';
import { startGitServer } from '../git/git-server.js';

/** Start one git server on 127.0.0.1 (with CORS) for the Chromium git tests, and hand its URL to them. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startGitServer();
  project.provide('gitServer', { url: server.url, root: server.root, token: server.token });
  return () => server.close();
}
