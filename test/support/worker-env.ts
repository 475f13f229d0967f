/**
 * vitest.config.ts starts the node workers with glibc's huge-page tunable (cheaper spawns from a
 * large worker). glibc read it when the worker started; the tests and every process they start see
 * the environment they were given, as before.
 */
const childTunables = process.env.SANDPIT_CHILD_GLIBC_TUNABLES;
if (childTunables !== undefined) {
  if (childTunables) process.env.GLIBC_TUNABLES = childTunables;
  else delete process.env.GLIBC_TUNABLES;
  delete process.env.SANDPIT_CHILD_GLIBC_TUNABLES;
}
