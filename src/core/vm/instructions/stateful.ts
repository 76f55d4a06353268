/** Every stateful instruction except the calls, which the interpreter runs itself. */
import { ASSET_HANDLERS } from './assets';
import { CONTRACT_STATE_HANDLERS } from './contractState';
import type { HandlerTable } from './handler';
import { LIFECYCLE_HANDLERS } from './lifecycle';

export const STATEFUL_HANDLERS: HandlerTable = {
  ...ASSET_HANDLERS,
  ...CONTRACT_STATE_HANDLERS,
  ...LIFECYCLE_HANDLERS,
};
