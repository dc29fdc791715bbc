/**
 * Liveness of the coordination store: replicas share theirs through PostgreSQL and may lose it (a
 * dropped connection, a hung event loop), then their turns are the other replicas' to take over. One
 * process alone (SQLite) never loses it. A port of the coordination store (`coordination-store.ts`);
 * its contract is `test/stores/contracts/store-liveness-contract.ts`.
 */
import type { RagentError } from '../errors.ts';

export interface StoreLiveness {
  /**
   * `listener` is called once if this replica loses the shared store (its turns are then other
   * replicas' to take over): it must take no new work. Never called for a store of one process.
   */
  onLost(listener: (error: RagentError) => void): void;
}
