import { PackageError } from './errors.js';
import type { Packument } from './types.js';

/** The public registry, used when neither `.npmrc` nor an option names another. */
export const DEFAULT_REGISTRY = 'https://registry.npmjs.org/';

/** The abbreviated ("corgi") packument first, as npm asks for it. */
const ACCEPT = 'application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8, */*';

/** Reads packuments from one registry, each name at most once per client. */
export class RegistryClient {
  private readonly seen = new Map<string, Promise<Packument>>();
  readonly registry: string;

  constructor(
    registry: string,
    private readonly fetchFn: typeof fetch = (...a) => fetch(...a),
  ) {
    this.registry = registry.endsWith('/') ? registry : `${registry}/`;
  }

  /** Where a package's packument lives: a scoped name keeps its `@` and escapes its `/`. */
  packumentUrl(name: string): string {
    return `${this.registry}${name.replace('/', '%2f')}`;
  }

  /** The packument of `name`; NOT_FOUND for a 404, IO_ERROR when the registry cannot be reached. */
  packument(name: string): Promise<Packument> {
    let pending = this.seen.get(name);
    if (!pending) {
      pending = this.load(name);
      this.seen.set(name, pending);
    }
    return pending;
  }

  private async load(name: string): Promise<Packument> {
    if (!/^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/i.test(name))
      throw new PackageError('INVALID_ARGUMENTS', name, 'is not a valid package name');
    const response = await this.fetchFn(this.packumentUrl(name), { headers: { accept: ACCEPT } }).catch(
      (error: unknown) => {
        throw new PackageError(
          'IO_ERROR',
          name,
          `could not reach the registry (${error instanceof Error ? error.message : String(error)})`,
          'Check the network and the registry address (.npmrc registry=).',
        );
      },
    );
    if (response.status === 404)
      throw new PackageError('NOT_FOUND', name, 'is not in the registry (404)', 'Check the name.');
    if (!response.ok)
      throw new PackageError('IO_ERROR', name, `the registry answered ${response.status} for its packument`);
    const body = (await response.json().catch(() => null)) as Packument | null;
    if (!body || typeof body.versions !== 'object')
      throw new PackageError('IO_ERROR', name, 'the registry sent a packument that is not one');
    return { ...body, name: body.name ?? name };
  }
}

/** The registry an `.npmrc` names (`registry=URL`), if it names one. */
export function registryFromNpmrc(text: string): string | undefined {
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*registry\s*=\s*(\S+)\s*$/.exec(line);
    if (m) return m[1];
  }
  return undefined;
}
