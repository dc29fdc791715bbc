/**
 * What a port contract runs against: a coordination store backend (SQLite, PostgreSQL). Every port's
 * contract suite (`<port>-contract.ts` here, listed in `port-contracts.ts`) is one spec that every
 * backend passes, as LangGraph's checkpoint validation runs one spec against every saver.
 *
 * `createStorage` gives fresh, empty storage; two stores opened on it are two processes/replicas on
 * the same data (their replica ids differ). `dispose` removes the storage after its stores closed.
 */
import { afterEach } from 'vitest';
import type { CoordinationStore } from '../../../src/core/coordination-store.ts';

export interface CoordinationStorage {
  /** A store on this storage, as a new process/replica would open it. */
  open(): Promise<CoordinationStore>;
  /** Removes the storage (after every store of it closed). */
  dispose(): Promise<void>;
}

export interface CoordinationBackend {
  /** As test names show it (`SQLite`, `Postgres`). */
  name: string;
  createStorage(): Promise<CoordinationStorage>;
  /**
   * Takes the shared storage from `store` the hard way (its connections end, as if its machine died),
   * resolving once the store noticed. Only a backend shared by replicas can lose its storage: one
   * process alone has none to lose (undefined).
   */
  lose: ((store: CoordinationStore) => Promise<void>) | undefined;
}

/** A port's contract suite: registers its tests for `backend`. */
export type PortContract = (backend: CoordinationBackend) => void;

/**
 * Storage for the tests of one contract suite: each call gives fresh storage; every store opened on
 * it is closed, then the storage disposed, after each test.
 */
export function contractStorage(backend: CoordinationBackend) {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  return async () => {
    const storage = await backend.createStorage();
    cleanups.push(() => storage.dispose());
    return {
      open: async () => {
        const store = await storage.open();
        cleanups.push(() => store.close());
        return store;
      },
    };
  };
}
