import type { TreeNode } from './tree.js';

/**
 * The `.bin` entry npm writes where a filesystem has no symbolic links (cmd-shim's sh script): it
 * runs the package's bin file with `node`, found relative to the shim. The workspace's backends
 * do not all keep links, and the shell does not follow them, so every backend gets this file.
 */
export function binShim(targetFromBin: string): string {
  return `#!/bin/sh
basedir=$(dirname "$(echo "$0" | sed -e 's,\\\\,/,g')")

case \`uname\` in
    *CYGWIN*|*MINGW*|*MSYS*)
        if command -v cygpath > /dev/null 2>&1; then
            basedir=\`cygpath -w "$basedir"\`
        fi
    ;;
esac

if [ -x "$basedir/node" ]; then
  exec "$basedir/node"  "$basedir/${targetFromBin}" "$@"
else 
  exec node  "$basedir/${targetFromBin}" "$@"
fi
`;
}

/** One `.bin` entry: where it goes and the package file it runs. */
export interface BinLink {
  /** `node_modules/.bin/NAME` or `node_modules/a/node_modules/.bin/NAME` */
  path: string;
  /** the target relative to the `.bin` folder, as a link would hold it (`../pkg/cli.js`) */
  target: string;
}

/** The `.bin` entries of the installed packages: each in the node_modules folder that holds the package, first one wins a name. */
export function binLinks(nodes: TreeNode[]): BinLink[] {
  const taken = new Set<string>();
  const links: BinLink[] = [];
  for (const node of nodes) {
    if (!node.parent || !node.entry.bin) continue;
    const folder = `${node.parent.location ? `${node.parent.location}/` : ''}node_modules`;
    for (const [name, file] of Object.entries(node.entry.bin)) {
      const path = `${folder}/.bin/${name}`;
      if (taken.has(path)) continue;
      taken.add(path);
      links.push({ path, target: `../${node.name}/${file}` });
    }
  }
  return links;
}
