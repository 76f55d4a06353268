// Issue 32's journey: ten watched contracts on a Free key, as `npm start` runs, and events reach the tree
// by themselves within 30 s. Polling each contract on Free gave each of ten a turn every few minutes;
// one scan of the chain's new blocks a round serves them all. Set up through the palette, then hands off:
// only the rendered workbench is read, polling with a bound.
import type { Sandbox } from '../../../sandbox';
import { ui } from './hooks';
import {
  freeProfileSettings,
  mergeWorkspaceSettings,
  sandboxControl,
  sandboxProfile,
  writeArtifacts,
  writeDeployments,
  type DeployedInstance,
} from './sandbox';
import { expandRows, setApiKey, setSection, watchDeployment, watchUntil } from './journeyHelpers';
import { runCommandByTitle } from './workbench';

const FREE_PROFILE = 'UI Free Scan';
const CONTRACTS = 10;
/** The contracts whose Events the person has open (a tree renders only the rows in view). */
const OPEN = [0, 4, 9];

describe('UI journey: ten watched contracts, their events within 30 s (one scan serves them all)', () => {
  let sandbox: Sandbox;
  let restoreSettings: () => void = () => undefined;
  const instances: DeployedInstance[] = [];

  before(async function () {
    this.timeout(300_000);
    const page = ui.page;
    sandbox = await sandboxProfile(page);
    for (let i = 0; i < CONTRACTS; i++)
      instances.push((await sandboxControl('/contracts/deploy', { name: 'Counter' })) as DeployedInstance);
    writeArtifacts(sandbox, { only: ['Counter'] });
    writeDeployments(sandbox, Object.fromEntries(instances.map((c, i) => [`Counter:${i}`, c])));
    const { key } = (await sandboxControl('/keys', { plan: 'free' })) as { key: string };
    restoreSettings = mergeWorkspaceSettings(
      ui.workspace,
      freeProfileSettings(sandbox, FREE_PROFILE, { 'alephium.events.pageSize': 3 }),
    );
    await setApiKey(page, FREE_PROFILE, key);
    for (let i = 0; i < CONTRACTS; i++) await watchDeployment(page, `Counter:${i}`, runCommandByTitle);
    await runCommandByTitle(page, 'View: Show Alephium');
    await setSection(page, /^Node/i, false);
    await setSection(page, /^Transactions/i, false);
  });

  after(() => restoreSettings());

  it('events triggered on three of ten contracts are listed in the tree within 30 s, without a click', async function () {
    this.timeout(300_000);
    const page = ui.page;
    for (const i of OPEN)
      await expandRows(page, [
        // A row reads its label then its description (the address): Counter:0 is followed by a digit.
        [new RegExp(`^Counter:${i}`), /^Events/],
        [/^Events/, /shown|Incremented|no events/i],
      ]);
    const sidebar = page.locator('.part.sidebar');
    const newestListed = (text: string) =>
      Math.max(-1, ...[...text.matchAll(/newCount=(\d+)/g)].map((m) => Number(m[1])));
    // Every contract's first count is read at once when it is watched, which spends the Free key's
    // tokens: the first round may wait for them (60 s). Then the person only looks, and each round's
    // events are listed within 30 s.
    for (const [round, boundMs] of [
      ['first', 60_000],
      ['second', 30_000],
      ['third', 30_000],
    ] as const) {
      const targets = new Map<number, number>();
      for (const i of OPEN) {
        const { events } = (await sandboxControl('/events/trigger', {
          contract: instances[i]!.address,
          count: 1,
        })) as { events: { fields: { value: unknown }[] }[] };
        targets.set(i, Math.max(...events.map((e) => Number(e.fields[1]?.value ?? -1))));
      }
      const triggeredAt = Date.now();
      await watchUntil(
        page,
        `the ${round} round's events of Counter:${OPEN.join(', ')} are listed`,
        () => sidebar.innerText(),
        (t) => listedPerContract(t).every((n, k) => n >= (targets.get(OPEN[k]!) ?? Infinity)),
        boundMs,
      );
      console.log(
        `      ${round} round listed ${((Date.now() - triggeredAt) / 1000).toFixed(1)} s after the trigger`,
      );
    }

    /** The newest newCount listed under each open contract, in OPEN's order (the tree's order). */
    function listedPerContract(text: string): number[] {
      const parts = text.split(/\n(?=Counter:\d)/);
      return OPEN.map((i) => {
        const part = parts.find((p) => p.startsWith(`Counter:${i}`)) ?? '';
        return newestListed(part);
      });
    }
  });
});
