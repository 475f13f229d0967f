import * as git from 'isomorphic-git';
import { toGitError } from './errors.js';
import { splitRemoteUrl } from './redact.js';
import { authCallback, http, type RemoteOptions } from './transport.js';

/** What a remote said when asked which refs it has (git's `info/refs` discovery). */
export interface ProbeResult {
  /** the remote's URL, credentials taken out */
  url: string;
  /** its branch names, sorted (empty for a new, empty repository) */
  branches: string[];
  /** true when it has no refs at all: a push of a new workspace starts it */
  empty: boolean;
}

/**
 * Ask a remote for its refs, as `git ls-remote` does, and change nothing: whether a URL names a
 * git repository that answers (an empty one included) before anything is pushed to or pulled
 * from it. It needs no workspace files and no snapshots.
 */
export async function probeRemote(options: RemoteOptions): Promise<ProbeResult> {
  let url = typeof options?.url === 'string' ? options.url : '';
  const secrets: string[] = [];
  try {
    const remote = splitRemoteUrl(options?.url);
    url = remote.url;
    const info = await git.getRemoteInfo2({
      http,
      url,
      protocolVersion: 1,
      ...(options.corsProxy ? { corsProxy: options.corsProxy } : {}),
      onAuth: authCallback(options.auth, remote.auth, secrets),
    });
    const refs = info.protocolVersion === 1 ? (info.refs ?? []) : [];
    const branches = refs
      .map((r) => r.ref)
      .filter((ref) => ref.startsWith('refs/heads/'))
      .map((ref) => ref.slice('refs/heads/'.length))
      .sort();
    return { url, branches, empty: refs.length === 0 };
  } catch (error) {
    throw toGitError(error, 'reach', url, secrets);
  }
}
