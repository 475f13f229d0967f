// The registry lives beside the benchmarks (plain JavaScript), so `npm run bench` serves the same one.
export {
  type FixturePackage,
  type FolderPackage,
  type LocalRegistry,
  packTarball,
  startNpmRegistry,
} from '../../bench/npm-registry.mjs';
