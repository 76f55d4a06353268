/**
 * The sandbox project as `@alephium/cli` leaves it, for tests that make a workspace of it: which compiled
 * artifact files to copy, and the text of a devnet deployments file. The UI journeys write them with
 * `fs`, the extension-host tests through `vscode.workspace.fs`; what they write is decided here once.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { groupOfAddress } from '../../src/core/protocol';
import type { Sandbox } from '../http/server';

/** A deployed contract as the CLI's deployments file records it. */
export interface DeployedInstance {
  readonly address: string;
  readonly txId: string;
  readonly contractId: string;
}

/**
 * The artifact files to copy into a workspace's `artifacts/` (names as the compiler wrote them), with
 * `.project.json`: the chain runs the debug builds it records, as a devnet deployed by the CLI does.
 * `only` names the artifacts (`Counter`); without it, every one, scripts included.
 */
export function artifactFiles(
  sandbox: Sandbox,
  only?: readonly string[],
): { name: string; source: string }[] {
  const dir = path.dirname(sandbox.contracts[0]!.artifact);
  return fs
    .readdirSync(dir)
    .filter((file) => {
      if (file === '.project.json') return true;
      if (!file.endsWith('.ral.json')) return false;
      return only === undefined || only.includes(file.slice(0, -'.ral.json'.length));
    })
    .map((name) => ({ name, source: path.join(dir, name) }));
}

/** The sandbox's own Counter, as its deployments entry names it. */
export function sandboxCounter(sandbox: Sandbox): DeployedInstance {
  const counter = sandbox.contracts.find((c) => c.name === 'Counter')!;
  return { address: counter.address, txId: counter.deployTxId, contractId: counter.contractId };
}

/** The CLI's devnet deployments file naming each entry a Counter instance (the Counter's code hash). */
export function deploymentsFileText(
  sandbox: Sandbox,
  entries: Readonly<Record<string, DeployedInstance>>,
): string {
  const { codeHash } = sandbox.contracts.find((c) => c.name === 'Counter')!;
  return JSON.stringify({
    deployerAddress: sandbox.accounts[0]!.address,
    contracts: Object.fromEntries(
      Object.entries(entries).map(([name, instance]) => [
        name,
        {
          txId: instance.txId,
          codeHash,
          contractInstance: {
            address: instance.address,
            contractId: instance.contractId,
            groupIndex: groupOfAddress(instance.address),
          },
        },
      ]),
    ),
    scripts: {},
    migrations: {},
  });
}
