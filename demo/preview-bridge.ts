// The bridge page, hidden in the playground on the preview's origin. It registers the Service
// Worker there and hands each request the worker makes to the playground, with the port the
// answer goes back on; and the other way, the direct channel the playground makes to the workspace
// worker, which the Service Worker then uses instead of this page. It reads no files itself and
// accepts nothing from any other window.
import type { BridgeReady, ChannelOffer, ChannelReady, FileRequest } from '../web/preview/messages.js';

const params = new URL(location.href).searchParams;
const playground = params.get('parent') ?? '';
const ancestors = (location as Location & { ancestorOrigins?: DOMStringList }).ancestorOrigins;

async function start(): Promise<void> {
  // Only the playground that named itself may receive the requests, and it must really be the parent.
  if (!playground || window.parent === window || (ancestors && ancestors[0] !== playground)) return;
  navigator.serviceWorker.addEventListener('message', (event) => {
    const data = event.data as FileRequest | ChannelReady;
    if (data?.type === 'sandpit-preview-channel-ready') window.parent.postMessage(data, playground);
    if (data?.type !== 'sandpit-preview-request' || !event.ports[0]) return;
    window.parent.postMessage(data, playground, [event.ports[0]]);
  });
  navigator.serviceWorker.startMessages();
  await navigator.serviceWorker.register(new URL('./preview-sw.js', location.href), { scope: '/', type: 'module' });
  const registration = await navigator.serviceWorker.ready;
  window.addEventListener('message', (event) => {
    const offer = event.data as ChannelOffer;
    if (event.source !== window.parent || event.origin !== playground) return;
    if (offer?.type !== 'sandpit-preview-channel' || !event.ports[0]) return;
    // The worker that is active now: one the browser stopped starts again to take this message.
    (registration.active ?? navigator.serviceWorker.controller)?.postMessage(offer, [event.ports[0]]);
  });
  const ready: BridgeReady = { type: 'sandpit-preview-ready' };
  window.parent.postMessage(ready, playground);
}

start().catch((error: Error) => {
  if (playground) window.parent.postMessage({ type: 'sandpit-preview-failed', message: error.message }, playground);
});
