/** Content types by extension, for what a small static site holds; anything else is bytes. */
const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  htm: 'text/html; charset=utf-8',
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  cjs: 'text/javascript; charset=utf-8',
  ts: 'text/javascript; charset=utf-8',
  tsx: 'text/javascript; charset=utf-8',
  mts: 'text/javascript; charset=utf-8',
  jsx: 'text/javascript; charset=utf-8',
  json: 'application/json; charset=utf-8',
  map: 'application/json; charset=utf-8',
  webmanifest: 'application/manifest+json; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  xml: 'application/xml; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  ico: 'image/x-icon',
  bmp: 'image/bmp',
  woff: 'font/woff',
  woff2: 'font/woff2',
  ttf: 'font/ttf',
  otf: 'font/otf',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
  mp4: 'video/mp4',
  webm: 'video/webm',
  pdf: 'application/pdf',
  wasm: 'application/wasm',
};

/** The extension of a path's last component, lower-cased ('' when it has none). */
export function extensionOf(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/** The Content-Type a file is served with. */
export function contentTypeOf(path: string): string {
  return TYPES[extensionOf(path)] ?? 'application/octet-stream';
}

/** Sources the preview turns into JavaScript before serving. */
export function needsTranspile(path: string): boolean {
  return ['ts', 'tsx', 'mts', 'jsx'].includes(extensionOf(path)) && !path.endsWith('.d.ts');
}

/** Files served as ES modules, whose bare imports the preview resolves. */
export function isModuleSource(path: string): boolean {
  return ['js', 'mjs', 'ts', 'tsx', 'mts', 'jsx'].includes(extensionOf(path));
}
