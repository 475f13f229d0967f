import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { JsonSchema } from '../../tools/schema/define.js';
import { validateArgs } from '../../tools/schema/validate.js';
import { currentPlatform, manifestSchema, TOOL_NAME_PATTERN, type ToolManifest } from './schema.js';

/** A manifest that passed every check, with where it lives. */
export interface LoadedManifest {
  /** the tool's name */
  name: string;
  /** the tool folder (host path; never shown to a model) */
  dir: string;
  /** the manifest as written */
  manifest: ToolManifest;
  /** the JSON Schema of its arguments */
  parameters: JsonSchema;
}

/** One tool folder's verdict, for warnings and `sandpit doctor`. */
export interface ManifestReport {
  /** the tool's name, or its folder's when the manifest could not say */
  name: string;
  /** `ok`: it loaded; `skipped`: it did not */
  status: 'ok' | 'skipped';
  /** why not, one line each */
  problems: string[];
  /** skipped only because its `platforms` leave this machine out: not a broken manifest */
  otherPlatform?: true;
}

/** What loading a manifest folder gives: the tools that loaded and a report per manifest. */
export interface ManifestLoad {
  /** the tools that loaded */
  tools: LoadedManifest[];
  /** one verdict per tool folder */
  reports: ManifestReport[];
  /** set when the folder itself cannot be read; no tools load then */
  folderProblem?: string;
}

const EMPTY_PARAMETERS: JsonSchema = { type: 'object', properties: {}, additionalProperties: false };

/**
 * Load `<dir>/<name>/<name>.json` for every tool folder. A broken manifest is reported and
 * skipped, never fatal; `reserved` names (the built-in tools) cannot be taken.
 */
export function loadManifests(dir: string, reserved: Iterable<string> = []): ManifestLoad {
  const taken = new Set(reserved);
  let folders: string[];
  try {
    folders = readdirSync(dir, { withFileTypes: true })
      .filter((e) => !e.name.startsWith('.') && (e.isDirectory() || e.isSymbolicLink()))
      .map((e) => e.name)
      .sort();
  } catch (error) {
    const code = (error as { code?: string }).code;
    return {
      tools: [],
      reports: [],
      folderProblem:
        code === 'ENOENT'
          ? 'the tools folder does not exist'
          : `the tools folder cannot be read (${code ?? 'unknown error'})`,
    };
  }
  const load: ManifestLoad = { tools: [], reports: [] };
  for (const folder of folders) {
    const toolDir = join(dir, folder);
    const outcome = checkFolder(toolDir, folder, taken);
    load.reports.push(outcome.report);
    if (outcome.tool) {
      load.tools.push(outcome.tool);
      taken.add(outcome.tool.name);
    }
  }
  return load;
}

function checkFolder(
  toolDir: string,
  folder: string,
  taken: Set<string>,
): { report: ManifestReport; tool?: LoadedManifest } {
  const skip = (name: string, problems: string[]) => ({ report: { name, status: 'skipped' as const, problems } });
  try {
    if (!statSync(toolDir).isDirectory()) return skip(folder, ['not a folder']);
  } catch {
    return skip(folder, ['the folder cannot be read']);
  }
  let text: string;
  try {
    text = readFileSync(join(toolDir, `${folder}.json`), 'utf8');
  } catch {
    return skip(folder, [`no manifest: expected ${folder}/${folder}.json`]);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return skip(folder, [`${folder}.json is not valid JSON (${(error as Error).message})`]);
  }
  const problems = validateArgs(manifestSchema, json).map(
    (p) => `${p.path.slice(1) || 'manifest'} ${p.message.replace('argument', 'field')}`,
  );
  const manifest = json as ToolManifest;
  const rawName = typeof manifest?.name === 'string' ? manifest.name : folder;
  if (
    manifest &&
    typeof manifest === 'object' &&
    manifest.name === undefined &&
    !new RegExp(TOOL_NAME_PATTERN).test(folder)
  ) {
    problems.push(
      `name: the folder name '${folder}' is not a valid tool name (lowercase letters, digits, _); set "name"`,
    );
  }
  if (problems.length > 0) return skip(rawName, problems);
  const name = rawName;
  if (taken.has(name)) return skip(name, [`name '${name}' is already taken by a built-in tool or another manifest`]);
  if (manifest.command[0] === '') problems.push('command[0] must name a program');
  const timeout = manifest.timeout_seconds;
  if (timeout !== undefined && timeout < 0 && timeout !== -1)
    problems.push('timeout_seconds must be -1 (no limit), 0 (the default) or positive');
  const parameters = manifest.parameters ?? EMPTY_PARAMETERS;
  if (parameters.type !== 'object') problems.push('parameters must be a JSON Schema with "type": "object"');
  else {
    try {
      validateArgs(parameters, {});
    } catch (error) {
      problems.push(`parameters is not a valid JSON Schema (${(error as Error).message})`);
    }
  }
  if (problems.length > 0) return skip(name, problems);
  if (manifest.platforms && !manifest.platforms.includes(currentPlatform() as 'linux')) {
    return {
      report: {
        name,
        status: 'skipped',
        problems: [`only for ${manifest.platforms.join(', ')}; this machine is ${currentPlatform()}`],
        otherPlatform: true,
      },
    };
  }
  return { report: { name, status: 'ok', problems: [] }, tool: { name, dir: toolDir, manifest, parameters } };
}
