/**
 * `StatefulScript.mockup()` (`Contract.scala`, `Instr.mockup` in `Instr.scala`): gas estimation runs
 * the script with its signature checks replaced by stand-ins that pop the same operands (and the
 * same script signature) at the same gas, but verify nothing, since the tx is not signed yet. Only
 * the script's own methods are mocked; contract code runs as it is.
 */
import type { Instr, Method } from './decode';
import type { Frame } from './frame';
import type { HandlerTable } from './instructions/handler';
import { vByteVec } from './values';

const MOCKED: Readonly<Record<string, string>> = {
  VerifyTxSignature: 'VerifyTxSignatureMockup',
  VerifySecP256K1: 'GenericVerifySignatureMockup',
  VerifyED25519: 'GenericVerifySignatureMockup',
  VerifyBIP340Schnorr: 'GenericVerifySignatureMockup',
  VerifySignature: 'VerifySignatureMockup',
  GetSegregatedWebAuthnSignature: 'GetSegregatedWebAuthnSignatureMockup',
};

/** The mockups' fixed gas: `GasSignature`, and `GasMid` for the WebAuthn signature. */
export const MOCKUP_GAS: Readonly<Record<string, number>> = {
  VerifyTxSignatureMockup: 2000,
  GenericVerifySignatureMockup: 2000,
  VerifySignatureMockup: 2000,
  GetSegregatedWebAuthnSignatureMockup: 8,
};

const popByteVecs = (frame: Frame, n: number): void => {
  for (let i = 0; i < n; i++) frame.popByteVec();
};

export const MOCKUP_HANDLERS: HandlerTable = {
  VerifyTxSignatureMockup: (frame) => {
    frame.popByteVec();
    frame.ctx.popSignature();
  },
  GenericVerifySignatureMockup: (frame) => popByteVecs(frame, 3),
  VerifySignatureMockup: (frame) => popByteVecs(frame, 4),
  GetSegregatedWebAuthnSignatureMockup: (frame) => frame.push(vByteVec(frame.ctx.popSignature())),
};

function mockInstr(instr: Instr): Instr {
  const name = MOCKED[instr.name];
  // A mockup is no fork-gated instruction: its `runWith` skips the check of the one it replaces.
  return name === undefined ? instr : { ...instr, name, info: { ...instr.info, name, since: 'Genesis' } };
}

export function mockupMethods(methods: readonly Method[]): Method[] {
  return methods.map((m) => ({ ...m, instrs: m.instrs.map(mockInstr) }));
}
