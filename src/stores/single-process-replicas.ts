/** Replicas when ragent runs as one process (no DATABASE_URL): the whole budget, every lease granted. */
import type { Leases, Replicas } from '../core/replicas.ts';

export function singleProcessReplicas(): Replicas {
  return {
    budgetShare: () => 1,
    openLeases: async (): Promise<Leases> => ({
      shared: false,
      members: async () => 1,
      tryTake: async () => true,
      release: async () => {},
      onLost: () => {},
      close: async () => {},
    }),
    close: async () => {},
  };
}
