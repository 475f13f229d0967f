// `npm start`'s server: the built playground on 127.0.0.1:5173 and, on the next port, the same
// files as the live preview's own origin (its bridge page and Service Worker), so previewed code
// runs apart from the playground's storage. PORT picks the first port.
import { preview } from 'vite';

const port = Number(process.env.PORT ?? 5173);
const serve = (at) => preview({ preview: { host: '127.0.0.1', port: at, strictPort: true, open: false } });
const [playground, previews] = await Promise.all([serve(port), serve(port + 1)]);
console.log(`Sandpit playground: http://127.0.0.1:${port}/   (previews are served from http://127.0.0.1:${port + 1}/)`);
const stop = async () => {
  await Promise.all([playground.close(), previews.close()]);
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
