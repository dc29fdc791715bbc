/**
 * Event claims: which platform events were already taken (dedupe of a redelivered event, across
 * restarts and replicas). A port of the coordination store (`coordination-store.ts`); its contract
 * is `test/stores/contracts/event-claims-contract.ts`.
 */
export interface EventClaims {
  /** True the first time `key` is claimed (remembered a day); false for a duplicate delivery. */
  claimEvent(key: string): Promise<boolean>;
  /**
   * Forgets the claim `key` because the work it stood for failed before anything was shown (a
   * hand-off line or a shared answer that could not be posted): the next press or delivery may then
   * claim it and try again, instead of being told it was done.
   */
  releaseEvent(key: string): Promise<void>;
}
