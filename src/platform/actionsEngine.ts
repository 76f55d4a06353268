// The code of money and contract actions, loaded on the first Send, Sweep, Simulate, Execute or Deploy:
// Loaded on first use as a chunk of its own (its `import()` in platform/lazyEngine.ts), so verification, the signing path,
// the script and bytecode code and the deployments file writer are not part of the activation bundle.
// One import loads the whole of it, so the first action pays one chunk's load, not one per module.
export * from '../core/contracts/actions';
export { projectRootOf, updateDeploymentsFile } from '../core/artifacts/deploymentsFile';
export { TransferVerificationError, verifyScriptTx, isVerifiedTransfer } from '../core/signing/verify';
export { SweepIncompleteError, sendSweep, sendTransfer } from '../core/transactions/sendTransfer';
export { scriptConfirmation } from '../core/signing/confirmation';
export { TransferDeclinedError, confirmSignAndSubmit, networkPin } from '../core/signing/signingPath';
export { shortOfAlph, shortOfAlphText } from '../core/transactions/balanceWords';
export { buildCall, callMarkdown, summariseCall } from '../core/contracts/call';
