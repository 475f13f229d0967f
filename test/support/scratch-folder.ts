import { readdirSync, rmSync, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Where the node test projects make their temporary folders (their TMPDIR). The files create and
 * remove tens of thousands of small files a run. On ext4 without a journal the kernel finds each
 * new inode by walking past every inode freed in the last minute or more (it will not reuse one
 * so soon), so creating a file cost about 15 times what it costs on tmpfs: the largest part of
 * the node projects' system time, in the tests, in `cp -a` and in git alike. When /dev/shm is a
 * tmpfs with room to spare, the run's temporary folders go there: real folders of a real
 * filesystem, which the node backend drives as it drives any other. A TMPDIR the caller set is
 * kept; elsewhere (no /dev/shm, or a container's small one) nothing changes.
 */
const SHM = '/dev/shm';
const TMPFS_MAGIC = 0x01021994;
/** Room the node projects may need at once: installed consumer projects, a 96 MiB clone, its server. */
const ROOM_BYTES = 4 * 1024 ** 3;
const PREFIX = 'sandpit-test-';

/**
 * The system's temporary folder, on its disk: for a test whose expected answers are a disk's (a
 * folder's size, blocks in use), which tmpfs reports differently.
 */
export function diskTmpdir(): string {
  return process.env.SANDPIT_DISK_TMPDIR ?? tmpdir();
}

export function scratchTmpdir(): string | undefined {
  if (process.env.TMPDIR || process.platform !== 'linux') return undefined;
  try {
    const fs = statfsSync(SHM);
    if (fs.type !== TMPFS_MAGIC || fs.bavail * fs.bsize < ROOM_BYTES) return undefined;
    removeAbandoned();
    // made by the projects' global setup (test/support/scratch-global-setup.ts), which removes it
    return join(SHM, `${PREFIX}${process.pid}`);
  } catch {
    return undefined;
  }
}

/** A killed run leaves its folder in memory until a reboot: the next run removes it. */
function removeAbandoned(): void {
  for (const name of readdirSync(SHM)) {
    if (!name.startsWith(PREFIX)) continue;
    const pid = Number(name.slice(PREFIX.length));
    if (!Number.isInteger(pid) || pid === process.pid || alive(pid)) continue;
    rmSync(join(SHM, name), { recursive: true, force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
