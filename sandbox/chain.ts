/**
 * The sandbox's chain, assembled from its parts, each a layer over the one before:
 * - ledger/ledger.ts: UTXOs, mempool, blocks and mining, contract records, event logs, queries;
 * - ledger/transfers.ts: building, decoding and submitting transfers and sweeps;
 * - vm/contractState.ts: the sample contracts' methods and the state the node reports;
 * - vm/execution.ts: scripts run on staged contract state, simulations, mined calls and scripts;
 * - vm/scriptBuilds.ts: execute-script and deploy-contract builds.
 * The shared vocabulary (records, constants, errors, tamper modes) is ledger/types.ts.
 */
import { ScriptBuildLedger } from './vm/scriptBuilds';

export class Chain extends ScriptBuildLedger {}

export * from './ledger/types';
export type { ForkResult } from './ledger/ledger';
