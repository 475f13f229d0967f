import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Approver } from '../../workspace/policy.js';
import type { RequestSender } from './call.js';
import { earlyTools } from './early-tools.js';
import { packageVersion, type EarlyStart } from './fast-start.js';
import type { StdioFramerOptions } from './framing.js';
import type { McpServerOptions, ServedWorkspace } from './types.js';

/**
 * The longest the SDK waits to load when nothing asks for it and the early answers never go idle
 * (see EARLY_IDLE_MS), counted from when they start answering tools.
 */
const SERVER_LOAD_IDLE_MS = 1500;

/**
 * `sandpit mcp --root DIR` over stdio: the workspace is open and the early stdio answers tools/list
 * and tools/call from it before the MCP SDK and the server's modules load; they load once a
 * message needs them, once the early answers go idle (the client's pause after an answer), after
 * 1.5 s at most, or at once when start-up has warnings to send; then they take over every message.
 */
export async function serveFixedStdio(
  served: ServedWorkspace,
  options: McpServerOptions & StdioFramerOptions,
  early?: EarlyStart,
): Promise<void> {
  const { maxMessageBytes, ...serverOptions } = options;
  let senderReady!: (sender: RequestSender) => void;
  const sender = new Promise<RequestSender>((resolve) => {
    senderReady = resolve;
  });
  if (early) {
    let askedToApprove!: () => void;
    const approving = new Promise<void>((resolve) => {
      askedToApprove = resolve;
    });
    // A call that needs its person asks through the server's elicitation, so the server loads then.
    const approver =
      (signal: AbortSignal): Approver =>
      async (paths, action, request) => {
        askedToApprove();
        const [{ elicitingApprover }, to] = await Promise.all([import('./call.js'), sender]);
        return elicitingApprover(to, serverOptions.elicitTimeoutMs ?? 5 * 60_000, signal)(paths, action, request);
      };
    // Start-up warnings (a broken manifest) go out as log messages, which only the server sends:
    // then it answers everything, so a client hears them before its first answers.
    const news = serverOptions.log?.hasStartupNews === true;
    early.serveTools(news ? null : earlyTools(served, approver));
    let timer: ReturnType<typeof setTimeout> | undefined;
    if (!news)
      await Promise.race([
        early.serverWanted,
        approving,
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, SERVER_LOAD_IDLE_MS);
          timer.unref?.();
        }),
      ]);
    clearTimeout(timer);
  }
  // Only now: compiling and evaluating the server's chunk (the SDK, zod, ajv) takes the main thread
  // for tens of ms, which begun beside the early answers landed on the first calls.
  const { createMcpServer, serveStdio } = await import('./server.js');
  const server = createMcpServer(served.ws, served.set, { version: packageVersion(), ...serverOptions });
  const sdk = server as unknown as Server;
  await serveStdio(server, early, maxMessageBytes === undefined ? {} : { maxMessageBytes }, () =>
    senderReady({ sendRequest: (request, schema, opts) => sdk.request(request, schema, opts) }),
  );
  await served.ws.close();
}
