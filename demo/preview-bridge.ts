// The bridge page, hidden in the playground on the preview's origin. It registers the Service
// Worker there and hands each request the worker makes to the playground, with the port the
// answer goes back on. It reads no files itself and accepts nothing from any other window.
import type { BridgeReady, FileRequest } from '../web/preview/messages.js';

const params = new URL(location.href).searchParams;
const playground = params.get('parent') ?? '';
const ancestors = (location as Location & { ancestorOrigins?: DOMStringList }).ancestorOrigins;

async function start(): Promise<void> {
  // Only the playground that named itself may receive the requests, and it must really be the parent.
  if (!playground || window.parent === window || (ancestors && ancestors[0] !== playground)) return;
  navigator.serviceWorker.addEventListener('message', (event) => {
    const request = event.data as FileRequest;
    if (request?.type !== 'sandpit-preview-request' || !event.ports[0]) return;
    window.parent.postMessage(request, playground, [event.ports[0]]);
  });
  navigator.serviceWorker.startMessages();
  await navigator.serviceWorker.register(new URL('./preview-sw.js', location.href), { scope: '/', type: 'module' });
  await navigator.serviceWorker.ready;
  const ready: BridgeReady = { type: 'sandpit-preview-ready' };
  window.parent.postMessage(ready, playground);
}

start().catch((error: Error) => {
  if (playground) window.parent.postMessage({ type: 'sandpit-preview-failed', message: error.message }, playground);
});
