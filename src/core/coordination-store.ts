/**
 * The coordination store: what the turn runner remembers outside the process, as small required
 * ports, each in its own file with its own contract suite (`test/stores/contracts/`, run against
 * SQLite and PostgreSQL):
 * - `EventClaims` (event-claims.ts): which platform events were already claimed (dedupe);
 * - `TurnRecords` (turn-records.ts): turns in flight and their owners, so a crash never leaves a
 *   silent thread;
 * - `ThreadOrder` (thread-order.ts): a thread's answer turns one at a time, in order;
 * - `FeedbackStore` (feedback-store.ts): 👍/👎 feedback and the answers it is about;
 * - `ChannelSettings` (channel-settings.ts): channel links and named per-channel settings;
 * - `StoreLiveness` (store-liveness.ts): whether this replica still holds the shared store.
 * Every implementation has every method (nothing is probed at run time): an embedded SQLite file
 * (`stores/sqlite-coordination-store.ts`, one process) and a Postgres database shared by replicas
 * (`stores/postgres/postgres-coordination-store.ts`). A part that needs one port takes only that port.
 */
import type { ChannelSettings } from './channel-settings.ts';
import type { EventClaims } from './event-claims.ts';
import type { FeedbackStore } from './feedback-store.ts';
import type { StoreLiveness } from './store-liveness.ts';
import type { ThreadOrder } from './thread-order.ts';
import type { TurnRecords } from './turn-records.ts';

export type { ChannelSettings } from './channel-settings.ts';
export type { EventClaims } from './event-claims.ts';
export type { DeliveredAnswer, FeedbackStore } from './feedback-store.ts';
export type { StoreLiveness } from './store-liveness.ts';
export type { OrderedRun, OrderedTurn, ThreadOrder, ThreadOrderEvents } from './thread-order.ts';
export type {
  NewTurn,
  QueuedAnswer,
  ThreadPosition,
  TurnInFlight,
  TurnKind,
  TurnRecords,
} from './turn-records.ts';

/** Every port of the coordination store, on one storage, closed together. */
export interface CoordinationStore
  extends EventClaims,
    TurnRecords,
    ThreadOrder,
    FeedbackStore,
    ChannelSettings,
    StoreLiveness {
  close(): Promise<void>;
}
