/**
 * Simulate, execute and deploy: from what the user chose (a watched contract's public method with typed
 * arguments and approved assets, or a contract artifact with initial fields) to a script, a dry run, a
 * built transaction that is verified before signing, and the submitted transaction.
 *
 * What you sign is what you called: the script is built here, from the artifact and the arguments, and
 * the transaction the gateway builds must carry exactly those bytes (for a deploy, exactly the script the
 * node compiles around exactly this bytecode and these fields). Plain Node; the glue only prompts, shows
 * the confirmation and tracks.
 *
 * shared.ts reads the typed arguments; call.ts prepares and dry-runs a method call; execute.ts and
 * deploy.ts build and verify; deployments.ts records a deployment in the CLI's file.
 */
export {
  approvalText,
  blake2b256Hex,
  changeText,
  type ApprovedToken,
  type BuiltScriptTx,
  type ScriptClient,
  type ScriptVerifier,
} from './shared';
export * from './call';
export * from './execute';
export * from './deploy';
export * from './deployments';
export * from './methodTraits';
export * from '../inputRules';
export * from '../resultWords';
