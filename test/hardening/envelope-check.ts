import { ERROR_CODES } from '../../src/index.js';

const CLOSED = new Set<string>(ERROR_CODES);

/** Why a value is not a well-formed envelope for `tool`, or null when it is one. */
export function envelopeProblem(env: unknown, tool?: string): string | null {
  if (!env || typeof env !== 'object' || Array.isArray(env)) return `not an object: ${String(env)}`;
  const e = env as Record<string, unknown>;
  const keys = Object.keys(e).sort().join(',');
  if (e.ok === true) {
    if (keys !== 'ok,result,tool') return `success envelope with keys ${keys}`;
  } else if (e.ok === false) {
    if (keys !== 'error,ok,tool') return `error envelope with keys ${keys}`;
    const err = e.error as Record<string, unknown> | null;
    if (!err || typeof err !== 'object') return 'error is not an object';
    if (typeof err.code !== 'string' || !CLOSED.has(err.code))
      return `code ${String(err.code)} is not on the closed list`;
    if (typeof err.message !== 'string' || err.message === '') return 'error without a message';
    if (err.hint !== undefined && typeof err.hint !== 'string') return 'hint is not a string';
    if (err.problems !== undefined && !Array.isArray(err.problems)) return 'problems is not an array';
  } else return `ok is ${String(e.ok)}`;
  if (typeof e.tool !== 'string') return 'tool is not a string';
  if (tool !== undefined && typeof tool === 'string' && e.tool !== tool)
    return `tool is ${String(e.tool)}, called ${tool}`;
  try {
    const text = JSON.stringify(env);
    if (JSON.stringify(JSON.parse(text)) !== text) return 'does not survive a JSON round trip';
  } catch (error) {
    return `not plain JSON (${(error as Error).message})`;
  }
  return nestedCodeProblem(e);
}

/** Toolsets with their own result shapes (file_manager's `results`) nest errors; their codes must be closed too. */
function nestedCodeProblem(value: unknown): string | null {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (!v || typeof v !== 'object') continue;
    const o = v as Record<string, unknown>;
    if (o.ok === false && o.error && typeof o.error === 'object') {
      const code = (o.error as Record<string, unknown>).code;
      if (typeof code !== 'string' || !CLOSED.has(code)) return `nested code ${String(code)} is not on the closed list`;
    }
    for (const child of Object.values(o)) if (child && typeof child === 'object') stack.push(child);
  }
  return null;
}

/** The refusal codes an envelope carries: its own, or those of nested operations. */
export function refusalCodes(env: { ok: boolean; error?: { code: string }; result?: unknown }): string[] {
  if (!env.ok) return [env.error!.code];
  const codes: string[] = [];
  const stack: unknown[] = [env.result];
  while (stack.length > 0) {
    const v = stack.pop();
    if (!v || typeof v !== 'object') continue;
    const o = v as Record<string, unknown>;
    if (o.ok === false && o.error && typeof (o.error as { code?: unknown }).code === 'string')
      codes.push((o.error as { code: string }).code);
    for (const child of Object.values(o)) if (child && typeof child === 'object') stack.push(child);
  }
  return codes;
}

/** The envelope's text with every echo of the caller's own inputs taken out (messages quote them, maybe cut). */
export function textBeyondInputs(env: unknown, inputs: string[]): string {
  let text = JSON.stringify(env);
  const forms = new Set<string>();
  for (const input of inputs) {
    const variants = new Set([input]);
    for (const step of [
      (x: string) => x.trim(),
      (x: string) => x.replace(/\\/g, '/'),
      (x: string) => x.replace(/^\/+/, ''),
      (x: string) => x.replace(/\0/g, '\\0'),
    ]) {
      for (const v of [...variants]) variants.add(step(v));
    }
    for (const v of variants) {
      forms.add(v);
      forms.add(v.slice(0, 200));
      forms.add(v.slice(0, 100));
    }
  }
  for (const form of [...forms].sort((a, b) => b.length - a.length)) {
    if (form.length > 1) text = text.split(JSON.stringify(form).slice(1, -1)).join('');
  }
  return text;
}
