/**
 * The palette's questions for Simulate, Execute and Deploy, or the argument object's answers. Each input
 * is checked where it is typed with the rule the panel and the argument object get
 * (core/contracts/inputRules.ts); a value the core refuses later sends the person back to that step with
 * everything typed kept (`askDeployValues`).
 */
import * as vscode from 'vscode';
import {
  ArgumentError,
  STD_ID_FIELD,
  standardInterfaceField,
  type ArtifactRegistry,
  type ContractArtifact,
} from '../core/artifacts';
import { argumentHint, argumentProblem } from '../core/contracts/call';
import type { DeployRequest, MethodCallRequest } from '../core/contracts/actionViews';
import { scalarText } from '../core/util/guards';
import { inert } from '../core/text/inert';
import { inertCheck } from '../core/text/inertInput';
import { actionsEngine } from '../platform/lazyEngine';
import { argString, argValue, askMethodCall, askText, pick } from '../platform/prompts';
import { FROM_EDITOR } from '../platform/commands';
import { watchedOrPick } from './contractsService';
import type { Services } from '../services';

/** The prompts read the workspace's artifacts through the contracts service, which resolves them. */
export type PromptDeps = Pick<Services, 'contracts'>;

export function stringList(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
}

export function tokensOf(value: unknown): { id: string; amount: string }[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.map((t: unknown) => {
    const o = (typeof t === 'object' && t !== null ? t : {}) as Record<string, unknown>;
    return { id: scalarText(o.id) ?? '', amount: scalarText(o.amount) ?? '' };
  });
}

/** The artifact that describes the contract, refusing drift (a method index of other code). */
export async function contractArtifact(
  deps: PromptDeps,
  address: string,
  args: unknown,
): Promise<{ artifact: ContractArtifact; registry: ArtifactRegistry }> {
  const registry = await deps.contracts.artifacts.registry();
  const resolved = await deps.contracts.resolve(address);
  const artifact = resolved.artifact;
  if (!artifact) {
    throw new Error(`No artifact in the workspace describes ${address}; add its .ral.json to call it.`);
  }
  if (resolved.drift.status === 'drift' && argValue(args, 'allowDrift') !== true) {
    throw new Error(
      `Not run: ${resolved.drift.message}. The method index comes from the artifact, so it could call another method.`,
    );
  }
  return { artifact, registry };
}

/** Whether the person started this from the palette or an editor gesture, and so reads a toast for its result. */
export function askedInteractively(args: unknown, methodGiven: boolean): boolean {
  return !methodGiven || argValue(args, FROM_EDITOR) === true;
}

export interface AskedMethodCall {
  readonly request: MethodCallRequest;
  readonly artifact: ContractArtifact;
  readonly registry: ArtifactRegistry;
  /** The argument object named the method (the panel, keybindings, tests). */
  readonly methodGiven: boolean;
  /** For Execute of a getter: the person chose to simulate it instead. */
  readonly simulateInstead?: boolean;
}

/** For Execute: the signer that will run it, so what it cannot do is said before anything is asked. */
export interface ExecuteFacts {
  readonly signerAddress: string;
}

/**
 * Fills what the argument object leaves out with prompts (palette use). With `execute`, a signer of
 * another group is refused as soon as the contract is known, a getter needs a deliberate choice that says
 * what it costs, and the approval is asked only of a method that takes one.
 */
export async function methodRequest(
  deps: PromptDeps,
  args: unknown,
  title: string,
  execute?: ExecuteFacts,
): Promise<AskedMethodCall> {
  const address =
    argString(args, 'address') ?? (await watchedOrPick(deps.contracts, args, inert`${title}`)).address;
  const { artifact, registry } = await contractArtifact(deps, address, args);
  // The rules load with the actions engine (core/contracts/inputRules.ts), not at activation.
  const rules = await actionsEngine();
  if (execute) {
    const problem = rules.callerGroupProblem(artifact.name, address, execute.signerAddress);
    if (problem !== undefined) throw new Error(`Not executed: ${problem}`);
  }
  const traits = rules.methodTraits(artifact.bytecode);
  const { method, fn, methodGiven, inputs } = await askMethodCall(
    artifact,
    registry,
    args,
    inert`${title}: a method of ${artifact.name}`,
    (index) => (traits?.[index]?.viewOnly === true ? 'view-only: Simulate reads it for free' : undefined),
  );
  const index = artifact.functions.indexOf(fn);
  const payable = traits?.[index]?.payable ?? true;
  const base = { address, method, args: stringList(inputs) ?? [] };
  if (execute && traits?.[index]?.viewOnly === true) {
    const words = rules.viewOnlyExecuteWords(fn.name);
    const refusal = rules.viewOnlyExecuteProblem(
      fn.name,
      true,
      argValue(args, 'viewOnlyAsTransaction') === true,
    );
    // The palette and an Execute lens ask; an argument object must have chosen already.
    const asks = askedInteractively(args, methodGiven);
    if (!asks && refusal !== undefined) throw new Error(refusal);
    if (asks && refusal !== undefined) {
      const choice = await pick(
        [
          { label: inert`${words.simulate}`, simulate: true },
          { label: inert`${words.executeAnyway}`, simulate: false },
        ],
        { title: inert`${artifact.name}.${fn.name} is view-only: no assets, no field changed` },
      );
      if (choice.simulate) return { request: base, artifact, registry, methodGiven, simulateInstead: true };
    }
  }
  // An argument object naming the method is a complete request (keybindings, the panel, tests): only
  // what it cannot leave out (the parameters of a method that has some) is ever asked for.
  const alph =
    argString(args, 'alph') ??
    (!methodGiven && payable
      ? await askText({
          title: inert`${artifact.name}.${fn.name}: ALPH to approve (optional)`,
          prompt: inert`ALPH the method may take from you, e.g. 1.5; leave empty for none`,
          validate: inertCheck(rules.approvedAlphProblem),
        })
      : undefined);
  const tokens = tokensOf(argValue(args, 'tokens'));
  const gas = argValue(args, 'gasAmount');
  return {
    artifact,
    registry,
    methodGiven,
    request: {
      ...base,
      ...(alph !== undefined && alph.trim() !== '' ? { alph } : {}),
      ...(tokens ? { tokens } : {}),
      ...(typeof gas === 'number' ? { gasAmount: gas } : {}),
    },
  };
}

/** The artifact a deploy is of: the argument object's, or the one picked. */
export async function deployArtifact(
  deps: PromptDeps,
  args: unknown,
): Promise<{ artifact: ContractArtifact; registry: ArtifactRegistry }> {
  const registry = await deps.contracts.artifacts.reload();
  const name = argString(args, 'artifact');
  if (name) {
    const artifact = registry.byName(name) ?? registry.contracts.find((c) => c.file?.endsWith(name));
    if (!artifact) throw new ArgumentError(`No contract artifact named ${name} in the workspace`, 'artifact');
    return { artifact, registry };
  }
  if (registry.contracts.length === 0)
    throw new Error('No contract artifact (.ral.json) is in the workspace.');
  const chosen = await pick(
    registry.contracts.map((c) => ({
      // A file's path in the workspace is outside text (a cloned repository names its files).
      label: inert`${c.name}`,
      description: inert`${vscode.workspace.asRelativePath(c.file ?? '')}`,
      artifact: c,
    })),
    { title: inert`Deploy Contract: which artifact?` },
  );
  return { artifact: chosen.artifact, registry };
}

/** What a person typed for a deploy: each field's text and the deposit. */
export interface DeployValues {
  readonly fields: Readonly<Record<string, string>>;
  readonly alph?: string;
}

/** A step the core refused after it was typed: asked again, with its value and the reason shown. */
export interface RefusedStep {
  /** `fields.<name>` or `alph`, as the core's ArgumentError names it. */
  readonly step: string;
  readonly message: string;
  /**
   * The same value may be accepted again: the refusal was about the moment (the node could not fund it
   * then), not the value, so Enter on it unchanged tries again.
   */
  readonly sameValueMayPass?: boolean;
}

/**
 * Asks each initial field and the deposit that `typed` does not hold yet; with `refused`, only that step
 * again, its typed value kept and the reason shown until it is changed. Every box checks as it is typed.
 */
export async function askDeployValues(
  artifact: ContractArtifact,
  registry: ArtifactRegistry,
  typed: DeployValues,
  refused?: RefusedStep,
): Promise<DeployValues> {
  const { depositProblem } = await actionsEngine();
  const fields: Record<string, string> = { ...typed.fields };
  const sig = artifact.fieldsSig;
  const again = (step: string, value: string | undefined) =>
    refused?.step === step
      ? { value, refusedValue: refused.sameValueMayPass ? undefined : value, message: refused.message }
      : undefined;
  for (let i = 0; i < sig.names.length; i++) {
    const fieldName = sig.names[i] as string;
    const type = sig.types[i] as string;
    // The standard's id comes from the artifact (prepareDeploy fills it), as the SDK and the CLI do.
    if (fieldName === STD_ID_FIELD && standardInterfaceField(artifact) !== undefined) continue;
    const retry = again(`fields.${fieldName}`, fields[fieldName]);
    if (fields[fieldName] !== undefined && !retry) continue;
    fields[fieldName] = await askText({
      // `mut` in the literal: an interpolated value is trimmed (core/text/inert.ts), its space would go.
      title: sig.isMutable[i]
        ? inert`Deploy ${artifact.name}: mut ${fieldName} (${i + 1}/${sig.names.length})`
        : inert`Deploy ${artifact.name}: ${fieldName} (${i + 1}/${sig.names.length})`,
      // VS Code shows a validation message only once the value changes: the reason for coming back is the
      // prompt until then. The names, the type and the reason (it may quote the value) are outside text.
      prompt: retry ? inert`${retry.message}` : inert`${fieldName}: ${type}`,
      placeHolder: inert`${argumentHint(type)}`,
      ...(retry?.value !== undefined ? { value: retry.value } : {}),
      validate: inertCheck((v) =>
        retry?.refusedValue !== undefined && v === retry.refusedValue
          ? retry.message
          : argumentProblem(type, fieldName, v, registry),
      ),
    });
  }
  const retry = again('alph', typed.alph);
  const alph =
    typed.alph !== undefined && !retry
      ? typed.alph
      : await askText({
          title: inert`Deploy ${artifact.name}: initial ALPH`,
          // Empty takes the minimal deposit and records none, as a CLI deploy script without
          // initialAttoAlphAmount does (the CLI redeploys when the recorded amounts differ).
          prompt: retry
            ? inert`${retry.message}`
            : inert`ALPH the new contract holds; empty for the minimal deposit (0.1, the node's minimum)`,
          placeHolder: inert`0.1`,
          ...(retry?.value !== undefined ? { value: retry.value } : {}),
          validate: inertCheck((v) =>
            retry?.refusedValue !== undefined && v === retry.refusedValue ? retry.message : depositProblem(v),
          ),
        });
  return { fields, alph };
}

/** The deploy request from the argument object, or from what was typed (`values`). */
export function deployRequestOf(
  artifact: ContractArtifact,
  args: unknown,
  values: DeployValues | undefined,
): DeployRequest {
  const given = argValue(args, 'fields');
  const fields: Record<string, string> = { ...values?.fields };
  if (typeof given === 'object' && given !== null) {
    for (const [k, v] of Object.entries(given as Record<string, unknown>)) {
      fields[k] = typeof v === 'string' ? v : JSON.stringify(v);
    }
  }
  // Typed values win: an argument's deposit seeded the box, and a refused deposit was typed again there.
  const alph = values !== undefined ? values.alph : argString(args, 'alph');
  const issueTokenAmount = argString(args, 'issueTokenAmount');
  const issueTokenTo = argString(args, 'issueTokenTo');
  const tokens = tokensOf(argValue(args, 'tokens'));
  const gas = argValue(args, 'gasAmount');
  return {
    artifact: artifact.name,
    fields,
    ...(alph !== undefined ? { alph } : {}),
    ...(tokens ? { tokens } : {}),
    ...(issueTokenAmount ? { issueTokenAmount } : {}),
    ...(issueTokenTo ? { issueTokenTo } : {}),
    ...(typeof gas === 'number' ? { gasAmount: gas } : {}),
  };
}

/** Whether the argument object gives the fields (a complete request) rather than leaving them to prompts. */
export function deployFieldsGiven(args: unknown): boolean {
  const given = argValue(args, 'fields');
  return typeof given === 'object' && given !== null;
}

/** The step a core refusal names (an ArgumentError from the actions engine, matched by name across bundles). */
export function refusedStep(error: unknown): RefusedStep | undefined {
  if (!(error instanceof Error) || error.name !== 'ArgumentError') return undefined;
  const param = (error as Partial<ArgumentError>).param;
  if (typeof param !== 'string' || (param !== 'alph' && !param.startsWith('fields.'))) return undefined;
  return { step: param, message: error.message };
}
