import type { Envelope, Workspace } from '../src/workspace-core.js';
import type { ReviewNote } from '../src/workspace/review/notes.js';
import type { WireReview } from './protocol.js';

/**
 * The review desk and blame as a worker answers them: plain JSON both ways. A page's agent run
 * holds the desk with a token; `reviewDrain` applies what queued and hands over the notes, since
 * the page's run reads its inbox on its own side of the boundary.
 */
export function hostReview(
  ready: () => Promise<Workspace | null>,
  locked: (tool: string) => Envelope<never>,
): WireReview {
  const holds = new Map<number, () => Promise<void>>();
  let nextToken = 0;
  const withWs = async <R>(tool: string, work: (ws: Workspace) => Promise<Envelope<R>>): Promise<Envelope<R>> => {
    const ws = await ready();
    return ws ? work(ws) : (locked(tool) as Envelope<R>);
  };
  const take = async (): Promise<ReviewNote[]> => {
    const ws = await ready();
    return ws ? ws.review.inbox.take().map((n) => ({ text: n.text, wake: n.wake })) : [];
  };
  return {
    reviewHunks: (filter) => withWs('review_hunks', (ws) => ws.review.hunks(filter ?? {})),
    reviewAccept: (ids) => withWs('review_accept', (ws) => ws.review.accept(ids)),
    reviewReject: (ids, reason, options) => withWs('review_reject', (ws) => ws.review.reject(ids, reason, options)),
    blame: (path) => withWs('blame', (ws) => ws.blame(path)),
    async reviewHold() {
      const ws = await ready();
      const token = ++nextToken;
      if (ws) holds.set(token, ws.review.hold());
      return token;
    },
    async reviewRelease(token) {
      const release = holds.get(token);
      holds.delete(token);
      await release?.();
      return take();
    },
    async reviewDrain() {
      const ws = await ready();
      await ws?.review.drain();
      return take();
    },
  };
}
