/**
 * Per-path serialisation: a holder of `a` excludes holders of `a`, `a/...` and its ancestors,
 * so parallel calls on different files run together while calls on the same file queue in order.
 */
export class PathLocks {
  private held: string[][] = [];
  private waiters: Array<{ keys: string[]; wake: () => void }> = [];

  async run<T>(keys: string[], work: () => Promise<T>): Promise<T> {
    const wanted = [...new Set(keys)];
    await this.acquire(wanted);
    try {
      return await work();
    } finally {
      this.release(wanted);
    }
  }

  private acquire(keys: string[]): Promise<void> {
    if (this.waiters.length === 0 && this.free(keys)) {
      this.held.push(keys);
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiters.push({ keys, wake: resolve }));
  }

  private release(keys: string[]): void {
    const index = this.held.indexOf(keys);
    if (index !== -1) this.held.splice(index, 1);
    // First come, first served: a waiter is only passed by later ones that do not overlap it.
    const blocked: string[][] = [];
    this.waiters = this.waiters.filter((waiter) => {
      if (this.free(waiter.keys) && !blocked.some((b) => overlapsAny(b, waiter.keys))) {
        this.held.push(waiter.keys);
        waiter.wake();
        return false;
      }
      blocked.push(waiter.keys);
      return true;
    });
  }

  private free(keys: string[]): boolean {
    return !this.held.some((h) => overlapsAny(h, keys));
  }
}

function overlapsAny(a: string[], b: string[]): boolean {
  return a.some((x) => b.some((y) => overlaps(x, y)));
}

function overlaps(a: string, b: string): boolean {
  if (a === b || a === '' || b === '') return true;
  return a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
}
