/**
 * Every port of the coordination store with its contract suite. Adding a port: its interface in
 * `src/core/<port>.ts` (joined into `CoordinationStore`), both backends implementing it, its suite
 * `<port>-contract.ts` here, and one line below — `sqlite-ports.test.ts` and `postgres-ports.test.ts`
 * then run it against both backends.
 */
import { channelSettingsContract } from './channel-settings-contract.ts';
import type { PortContract } from './coordination-backend.ts';
import { eventClaimsContract } from './event-claims-contract.ts';
import { feedbackStoreContract } from './feedback-store-contract.ts';
import { storeLivenessContract } from './store-liveness-contract.ts';
import { threadOrderContract } from './thread-order-contract.ts';
import { turnRecordsContract } from './turn-records-contract.ts';

export const portContracts: readonly PortContract[] = [
  eventClaimsContract,
  turnRecordsContract,
  threadOrderContract,
  feedbackStoreContract,
  channelSettingsContract,
  storeLivenessContract,
];
