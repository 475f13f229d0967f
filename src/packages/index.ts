/** Installing packages from an npm registry without npm: resolve, fetch, check, unpack, lock. */
export { cacheStorageTarballCache, defaultTarballCache, memoryTarballCache, type TarballCache } from './cache.js';
export { PackageError } from './errors.js';
export { type InstallCommand, type InstallOptions, planInstall, type ProjectReader, registryFor } from './install.js';
export { hostPlatform, type Platform } from './manifest-entry.js';
export type { InstallPlan, PackageChange, PlannedFile } from './plan.js';
export { DEFAULT_REGISTRY } from './registry.js';
export type { InstallProgress, Lockfile, LockEntry } from './types.js';
