/**
 * The background scheduler of a GatewayClient: one per client, found by everything that uses it (the
 * event watcher, the Node view, transaction tracking), budgeted from the profile's plan and metered by
 * the client itself, so every background request it sends counts against the one share.
 */
import type { GatewayClient } from '../gateway/client';
import { limitsOf } from '../gateway/profile';
import { BackgroundScheduler, sharedScheduler, type SchedulerTimers } from './backgroundScheduler';

export function clientScheduler(client: GatewayClient, timers?: SchedulerTimers): BackgroundScheduler {
  return sharedScheduler(client, () => {
    const scheduler = new BackgroundScheduler({
      budget: { monthlyLimit: limitsOf(client.profile).perMonth },
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
