export { faultyFs, MUTATING_OPS, type FaultPlan, type FsOp } from '../../src/conformance/faulty-fs.js';
