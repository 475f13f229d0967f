// `npm start`'s server: the built playground on 127.0.0.1:5173 and, on the next port, the same
// files as the live preview's own origin (its bridge page and Service Worker), so previewed code
// runs apart from the playground's storage. PORT picks the first port.
import { createServer } from 'node:net';
import { preview } from 'vite';

const port = Number(process.env.PORT ?? 5173);
if (!Number.isInteger(port) || port < 1 || port > 65534) {
  console.error(
    `PORT must be a whole number from 1 to 65534 (the preview takes the next port); got ${process.env.PORT}.`,
  );
  process.exit(1);
}

/** The one line a person needs when a port is taken: which one, and how to pick others. */
const taken = (at) =>
  `Port ${at} on 127.0.0.1 is already in use (npm start needs ${port} for the playground and ${port + 1} for previews). ` +
  `Stop what holds it, or pick two other ports: PORT=${port + 2} npm start`;

/** Whether the port can be bound right now; Vite's own failure would be a stack trace. */
const free = (at) =>
  new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen({ host: '127.0.0.1', port: at, exclusive: true }, () => probe.close(() => resolve(true)));
  });

for (const at of [port, port + 1]) {
  if (!(await free(at))) {
    console.error(taken(at));
    process.exit(1);
  }
}

const serve = (at) =>
  preview({ preview: { host: '127.0.0.1', port: at, strictPort: true, open: false } }).catch((error) => {
    // Something took the port between the probe and Vite's listen.
    if (/already in use|EADDRINUSE/.test(String(error?.message ?? error))) {
      console.error(taken(at));
      process.exit(1);
    }
    throw error;
  });
const [playground, previews] = await Promise.all([serve(port), serve(port + 1)]);
console.log(`Sandpit playground: http://127.0.0.1:${port}/   (previews are served from http://127.0.0.1:${port + 1}/)`);
const stop = async () => {
  await Promise.all([playground.close(), previews.close()]);
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
