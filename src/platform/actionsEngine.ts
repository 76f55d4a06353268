// The code of money and contract actions, loaded on the first Send, Sweep, Simulate, Execute or Deploy:
// Loaded on first use as a chunk of its own (its `import()` in platform/lazyEngine.ts), so verification, the signing path,
// the script and bytecode code and the deployments file writer are not part of the activation bundle.
// Everything that signs lives in this one module instance, so a VerifiedTransfer made here is the one its
// signing path accepts (the brand is a WeakSet of this bundle).
export * from '../core/contracts/actions';
export { projectRootOf, updateDeploymentsFile } from '../core/artifacts/deploymentsFile';
export { TransferVerificationError, verifyScriptTx, isVerifiedTransfer } from '../core/signing/verify';
export { SweepIncompleteError, sendSweep, sendTransfer } from '../core/transfers/sendTransfer';
export { scriptConfirmation } from '../core/signing/confirmation';
export { TransferDeclinedError, confirmSignAndSubmit, networkPin } from '../core/signing/signingPath';
export { shortOfAlph, shortOfAlphText } from '../core/transfers/balanceWords';
export { buildCall, callMarkdown, summariseCall } from '../core/contracts/call';
