/**
 * One rule per input of Simulate, Execute and Deploy. The palette's input boxes (as the user types), the
 * contract panel's form and a command's argument object all call these, so an input is refused where it
 * is typed, with the same words everywhere, and never accepted first and refused later.
 *
 * Each `…Problem` returns the sentence that says what is wrong, or undefined when the input is fine.
 * Plain Node, and only the protocol's units and addresses: the palette's prompts use these at activation.
 */
import {
  DEFAULT_GAS_AMOUNT,
  DEFAULT_GAS_PRICE,
  DUST_ATTO,
  ONE_ALPH,
  alphToAtto,
  attoToAlph,
  groupOfAddress,
} from '../protocol';

/** The smallest deposit a new contract may hold: the node's minimal contract deposit (0.1 ALPH since Rhone). */
export const MINIMAL_CONTRACT_DEPOSIT = ONE_ALPH / 10n;

/** Reads an ALPH amount; a sentence for the user on anything that is not one. */
function alphAtto(text: string): { atto: bigint } | { problem: string } {
  try {
    return { atto: alphToAtto(text.trim()) };
  } catch (e) {
    return { problem: (e as Error).message };
  }
}

/**
 * ALPH a method call approves (the caller's assets the method may take). Empty or 0 is none; anything
 * else is an exact ALPH amount of at least the dust minimum, since the approval moves through an output.
 */
export function approvedAlphProblem(text: string): string | undefined {
  if (text.trim() === '') return undefined;
  const read = alphAtto(text);
  if ('problem' in read) return read.problem;
  if (read.atto === 0n || read.atto >= DUST_ATTO) return undefined;
  return `${attoToAlph(read.atto)} ALPH is below the dust minimum of ${attoToAlph(DUST_ATTO)} ALPH: approve none (leave it empty) or at least that.`;
}

/** The approved ALPH in atto (0 for none), after {@link approvedAlphProblem} said nothing. */
export function approvedAlphAtto(text: string | undefined): bigint {
  if (text === undefined || text.trim() === '') return 0n;
  const problem = approvedAlphProblem(text);
  if (problem) throw new Error(problem);
  return alphToAtto(text.trim());
}

/**
 * The deposit a new contract holds. Empty takes the minimal deposit; less than the node's minimal
 * contract deposit is refused here, where it is typed, rather than by the node after every other step.
 */
export function depositProblem(text: string): string | undefined {
  if (text.trim() === '') return undefined;
  const read = alphAtto(text);
  if ('problem' in read) return read.problem;
  if (read.atto >= MINIMAL_CONTRACT_DEPOSIT) return undefined;
  return `A new contract must hold at least ${attoToAlph(MINIMAL_CONTRACT_DEPOSIT)} ALPH (the node's minimal contract deposit); ${attoToAlph(read.atto)} ALPH is less.`;
}

/** The deposit in atto (the minimal one when empty), after {@link depositProblem} said nothing. */
export function depositAtto(text: string | undefined): bigint {
  if (text === undefined || text.trim() === '') return MINIMAL_CONTRACT_DEPOSIT;
  const problem = depositProblem(text);
  if (problem) throw new Error(problem);
  return alphToAtto(text.trim());
}

/**
 * Whether this signer can call the contract in a transaction: a script runs in its inputs' group and
 * reaches only contracts of that group. Known as soon as the signer and the contract are, so it is said
 * before the method, its arguments and the approval are asked for.
 */
export function callerGroupProblem(
  contractName: string,
  contractAddress: string,
  signerAddress: string,
): string | undefined {
  const contractGroup = groupOfAddress(contractAddress);
  const signerGroup = groupOfAddress(signerAddress);
  if (contractGroup === signerGroup) return undefined;
  return `${contractName} at ${contractAddress} is in group ${contractGroup}, but the signer ${signerAddress} is in group ${signerGroup}: a script can only call contracts of its sender's group. Import a signer key of group ${contractGroup} to execute it (Simulate still works).`;
}

/** A method that does not use approved assets cannot be given any: the node would refuse the call. */
export function unusedAssetsProblem(
  methodName: string,
  payable: boolean,
  approving: boolean,
): string | undefined {
  if (payable || !approving) return undefined;
  return `${methodName} does not use approved assets (no @using(preapprovedAssets = true)); leave ALPH and tokens empty.`;
}

/**
 * What executing a view-only method (a getter) means, for the deliberate choice that allows it: it changes
 * nothing on chain and still costs a fee, at least {@link LEAST_FEE_ALPH}.
 */
export function viewOnlyExecuteWords(methodName: string): {
  readonly simulate: string;
  readonly executeAnyway: string;
  readonly refusal: string;
} {
  return {
    simulate: `Simulate ${methodName} (free: reads the result, nothing is signed)`,
    executeAnyway: `Execute anyway as a transaction (costs ~${LEAST_FEE_ALPH} ALPH, changes nothing)`,
    refusal: `${methodName} is view-only (it uses no assets and changes no field): executing it as a transaction changes nothing and costs ~${LEAST_FEE_ALPH} ALPH. Simulate it instead, or pass viewOnlyAsTransaction: true to execute it anyway.`,
  };
}

/** The least a transaction costs (the minimal gas at the default price): the estimate a getter's choice shows. */
export const LEAST_FEE_ALPH = attoToAlph(BigInt(DEFAULT_GAS_AMOUNT) * DEFAULT_GAS_PRICE);

/**
 * Executing a getter as a transaction is refused unless the person chose it deliberately (the palette's
 * "Execute anyway" item, the panel's "Execute anyway" button, `viewOnlyAsTransaction: true`).
 */
export function viewOnlyExecuteProblem(
  methodName: string,
  viewOnly: boolean,
  chosenDeliberately: boolean,
): string | undefined {
  if (!viewOnly || chosenDeliberately) return undefined;
  return viewOnlyExecuteWords(methodName).refusal;
}
