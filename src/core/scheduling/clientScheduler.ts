/**
 * The background scheduler of a GatewayClient: one per client, found by everything that uses it (the
 * event watcher, the Node view, transaction tracking), budgeted from the profile's plan (its monthly and
 * per-second limits) and metered by the client itself, so every background request it sends counts
 * against the one share. Where the month's activity persists is the glue's to say
 * (`setActivityStore`, where the client is built).
 */
import type { GatewayClient } from '../gateway/client';
import { limitsOf } from '../profiles/profile';
import { BackgroundScheduler, sharedScheduler } from './backgroundScheduler';
import type { Timers } from '../util/clock';

export function clientScheduler(client: GatewayClient, timers?: Timers): BackgroundScheduler {
  return sharedScheduler(client, () => {
    const limits = limitsOf(client.profile);
    const scheduler = new BackgroundScheduler({
      budget: { monthlyLimit: limits.perMonth, perSecond: limits.perSecond },
      ...(timers ? { timers } : {}),
    });
    scheduler.meter((charge) =>
      client.onRequest((r) => {
        if (r.priority === 'background') charge();
      }),
    );
    return scheduler;
  });
}
