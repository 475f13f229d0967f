/** A small `util.inspect`: what console.log prints for values that are not strings. */
export function inspect(value: unknown, depth = 0): string {
  if (typeof value === 'string') return depth === 0 ? `'${value}'` : `'${value.replace(/'/g, "\\'")}'`;
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'function') return `[Function: ${value.name || '(anonymous)'}]`;
  if (typeof value === 'symbol') return value.toString();
  if (value === null || typeof value !== 'object') return String(value);
  if (value instanceof Error) return value.stack ?? String(value);
  if (depth > 2) return Array.isArray(value) ? '[Array]' : '[Object]';
  if (value instanceof Map)
    return `Map(${value.size}) { ${[...value].map(([k, v]) => `${inspect(k, depth + 1)} => ${inspect(v, depth + 1)}`).join(', ')} }`;
  if (value instanceof Set) return `Set(${value.size}) { ${[...value].map((v) => inspect(v, depth + 1)).join(', ')} }`;
  if (Array.isArray(value))
    return value.length === 0 ? '[]' : `[ ${value.map((v) => inspect(v, depth + 1)).join(', ')} ]`;
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return '{}';
  return `{ ${entries.map(([k, v]) => `${/^[A-Za-z_$][\w$]*$/.test(k) ? k : `'${k}'`}: ${inspect(v, depth + 1)}`).join(', ')} }`;
}

/** console.log's formatting: `%s %d %i %f %j %o %O %%` in a leading string, the rest joined by spaces. */
export function formatArgs(args: unknown[]): string {
  const first = args[0];
  let rest = args.slice(1);
  let head = '';
  if (typeof first === 'string') {
    head = first.replace(/%[sdifjoO%]/g, (m) => {
      if (m === '%%') return '%';
      if (rest.length === 0) return m;
      const v = rest.shift();
      if (m === '%s') return typeof v === 'string' ? v : inspect(v, 1);
      if (m === '%d' || m === '%i') return String(m === '%i' ? Math.trunc(Number(v)) : Number(v));
      if (m === '%f') return String(Number(v));
      if (m === '%j') return JSON.stringify(v);
      return inspect(v, 1);
    });
  } else if (args.length) {
    head = inspect(first);
  }
  rest = rest.map((v) => (typeof v === 'string' ? v : inspect(v))) as string[];
  return [head, ...rest].filter((_, i) => i > 0 || args.length > 0).join(' ');
}
