/**
 * Runs first in every previewed HTML page (injected by the file server): sends the page's console
 * output, uncaught errors and load to the playground, so a person sees them under the panel.
 * It is serialised with `toString`, so it may use nothing from outside its own body.
 */
function previewHook(playgroundOrigin: string, prefix: string): void {
  const send = (message: Record<string, unknown>) => {
    try {
      parent.postMessage({ sandpitPreview: true, ...message }, playgroundOrigin);
    } catch {
      // A value that does not clone; the text form below always does.
    }
  };
  const show = (value: unknown): string => {
    if (typeof value === 'string') return value;
    if (value instanceof Error) return `${value.name}: ${value.message}`;
    try {
      return JSON.stringify(value) ?? String(value);
    } catch {
      return String(value);
    }
  };
  const where = (url: string) => {
    try {
      const path = new URL(url).pathname;
      return path.startsWith(prefix) ? path.slice(prefix.length) : path.replace(/^\//, '');
    } catch {
      return url;
    }
  };
  const levels = ['log', 'info', 'warn', 'error', 'debug'] as const;
  for (const level of levels) {
    const original = console[level].bind(console);
    console[level] = (...args: unknown[]) => {
      send({ kind: 'console', level, text: args.map(show).join(' ') });
      original(...args);
    };
  }
  addEventListener(
    'error',
    (event: Event) => {
      if (event instanceof ErrorEvent) {
        const at = event.filename ? ` (${where(event.filename)}:${event.lineno}:${event.colno})` : '';
        send({ kind: 'console', level: 'error', text: `Uncaught ${event.message.replace(/^Uncaught /, '')}${at}` });
        return;
      }
      const target = event.target as { src?: string; href?: string } | null;
      const url = target?.src || target?.href;
      if (url) send({ kind: 'console', level: 'error', text: `Could not load ${where(url)}` });
    },
    true,
  );
  addEventListener('unhandledrejection', (event) =>
    send({ kind: 'console', level: 'error', text: `Uncaught (in promise) ${show(event.reason)}` }),
  );
  const at = () => `${where(location.href)}${location.search}${location.hash}`;
  addEventListener('load', () => send({ kind: 'load', path: at() }));
  addEventListener('hashchange', () => send({ kind: 'location', path: at() }));
}

/** The `<script>` the file server puts at the top of each page it serves. */
export function pageHookTag(playgroundOrigin: string, prefix: string): string {
  const code = `(${previewHook.toString()})(${JSON.stringify(playgroundOrigin)}, ${JSON.stringify(prefix)});`;
  return `<script>${code.replace(/<\/script/gi, '<\\/script')}</script>`;
}
