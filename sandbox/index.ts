/**
 * The sandbox gateway's public face: what `npm start`, the integration tests, the component tests and the
 * benches use. Import from here (`sandbox`), not from its folders, which are the sandbox's own business:
 * - `http/`: the server (routes, the control API, plumbing, rate limits, faults);
 * - `ledger/`: the chain (genesis, mining, blocks, mempool, UTXOs, transfers, queries, events);
 * - `vm/`: contracts and scripts (staged execution, contract state, the script codec and interpreter,
 *   the sample contracts Counter and TokenFaucet, their artifacts).
 * Test plumbing (an in-process sandbox with an unlimited key, the control API) is in `testing/`.
 */
export {
  startSandbox,
  type ForkResult,
  type RequestLogEntry,
  type Sandbox,
  type SandboxInfo,
  type SandboxOptions,
} from './http/server';
export { RateLimiter, type Plan } from './http/ratelimit';
export {
  SCRIPT_TAMPER_MODES,
  TAMPER_MODES,
  type Account,
  type ScriptTamperMode,
  type TamperMode,
} from './chain';
export { counterDef } from './vm/projectContracts';
