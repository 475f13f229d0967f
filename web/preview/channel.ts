import type {
  FileReply,
  FileRequest,
  PreviewAnswerRequest,
  PreviewChannelContext,
  PreviewChannelPort,
  PreviewPort,
  RequestTaken,
} from './messages.js';

/** How the worker answers one request on its reply port (answerPreview over the current workspace); resolves with the problems found. */
type Answer = (request: PreviewAnswerRequest, port: PreviewPort) => Promise<string[]>;

/** The open channels by the preview session's URL prefix: a new one for a session ends the one before. */
const channels = new Map<string, PreviewChannelPort>();

const TAKEN: RequestTaken = { type: 'sandpit-preview-taken' };

/**
 * Answer the Service Worker's requests that come on `port`, the workspace worker's end of a direct
 * channel, as `previewAnswer` answers those the playground hands over: the same file server, the
 * same reply port, the same files served ahead. Each request is first acknowledged on its reply
 * port, so a Service Worker whose channel leads to a worker that is gone finds out at once and asks
 * the bridge instead. The problems found go to `report` (the playground's panel shows them), since
 * nobody on this channel waits for a result.
 */
export function listenOnChannel(
  port: PreviewChannelPort,
  context: PreviewChannelContext,
  answer: Answer,
  report: (problems: string[]) => void,
): void {
  const prefix = String(context.prefix);
  const before = channels.get(prefix);
  if (before && before !== port) before.close();
  channels.set(prefix, port);
  const fixed = {
    root: String(context.root ?? ''),
    prefix,
    playgroundOrigin: String(context.playgroundOrigin ?? ''),
  };
  port.addEventListener('message', (event) => {
    const request = event.data as FileRequest;
    const reply = event.ports[0];
    if (request?.type !== 'sandpit-preview-request' || !reply) return;
    reply.postMessage(TAKEN, []);
    answer(
      {
        path: String(request.path ?? ''),
        referrer: String(request.referrer ?? ''),
        navigation: request.navigation === true,
        ...fixed,
      },
      reply,
    ).then(
      (problems) => {
        if (problems.length > 0) report(problems);
      },
      (error: Error) => {
        const body = new TextEncoder().encode(`The preview could not answer: ${error.message}`).buffer as ArrayBuffer;
        const failed: FileReply = { status: 500, headers: { 'content-type': 'text/plain; charset=utf-8' }, body };
        reply.postMessage(failed, [body]);
        reply.close();
        report([`The preview could not answer: ${error.message}`]);
      },
    );
  });
  port.start();
}
