import type { Workspace } from '../src/workspace-core.js';
import type { WorkerApi } from './protocol.js';
import { givingWayWhile } from './warm-up.js';

type PreviewVerbs = Pick<WorkerApi, 'previewEntry' | 'previewAnswer' | 'previewConnect' | 'previewWarm'>;

/**
 * The live preview as a worker answers it, over the workspace (or viewed fork) `target` gives.
 * Its code loads when a preview first asks (or warms), not with every worker.
 */
export function hostPreview(target: () => Promise<Workspace | null>) {
  /**
   * Whether a live preview reads this worker's files: from its first request on, a long run of
   * writes (a snapshot) gives the preview's requests a turn, and a change's modules are
   * transpiled as it is recorded, so the reload a save causes need not wait for the save's snapshot.
   */
  let previewing = false;
  /** the preview's file server, once a preview has loaded it: a change's modules are prepared in the same turn */
  let preview: typeof import('./preview/answer.js') | null = null;
  const verbs: PreviewVerbs = {
    async previewEntry(path) {
      const current = await target();
      return current
        ? (await import('./preview/read-file.js')).readPreviewEntry(current, path)
        : { kind: 'missing' as const };
    },
    async previewAnswer(request, port) {
      previewing = true;
      // the preview's file server (and sucrase, on its first module) loads when a preview first asks
      preview ??= await import('./preview/answer.js');
      return preview.answerPreview(await target(), request, port);
    },
    async previewConnect(port, context, report) {
      const { listenOnChannel } = await import('./preview/channel.js');
      listenOnChannel(
        port,
        context,
        // A first preview's two hundred modules are the page's work as much as a verb is: the
        // worker's warm-up (twenty-odd imports, then the page's spare worker, which it starts once
        // the warm-up ends) waits for them instead of taking the thread and the cores from them.
        (request, reply) => givingWayWhile(() => verbs.previewAnswer(request, reply)),
        (problems) => {
          // the page may be gone or closing; its panel then has nothing to show them in
          Promise.resolve(report(problems)).catch(() => {});
        },
      );
    },
    async previewWarm() {
      // once a preview's first request has come, its own files warm the code
      if (previewing) return;
      await (await import('./preview/warm.js')).warmPreview(() => previewing);
    },
  };
  return {
    verbs,
    previewing: () => previewing,
    /** A change of `ws` was recorded: transpile its modules for the previews that read it. */
    changed(ws: Workspace, files: Parameters<typeof import('./preview/answer.js').prepareChanged>[1]): void {
      if (preview) void preview.prepareChanged(ws, files);
    },
  };
}
