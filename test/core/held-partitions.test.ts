import { describe, expect, it, vi } from 'vitest';
import { holdPartitions } from '../../src/core/held-partitions.ts';
import type { Leases } from '../../src/core/replicas.ts';
import { createLogger } from '../../src/logger.ts';

/** Leases shared with `others` replicas that hold `taken`; this replica's lost-listener is kept. */
function sharedLeases(members: number, taken: Set<number>) {
  let lost: ((error: Error) => void) | undefined;
  const mine = new Set<number>();
  const leases: Leases = {
    shared: true,
    members: async () => members,
    tryTake: async (id) => {
      if (taken.has(id)) return false;
      taken.add(id);
      mine.add(id);
      return true;
    },
    release: async (id) => {
      taken.delete(id);
      mine.delete(id);
    },
    onLost: (listener) => {
      lost = listener;
    },
    close: async () => {},
  };
  return { leases, mine, loseAll: (error: Error) => lost?.(error) };
}

function partitions(leases: Leases, count: number) {
  const closers = new Map<number, () => void>();
  const disconnect = vi.fn(async (_id: number) => {});
  const held = holdPartitions<number>({
    count,
    leases,
    logger: createLogger({ level: 'silent' }),
    names: { one: 'test partition', many: 'test partitions' },
    intervalMs: 10,
    connect: async (id, closedForGood) => {
      closers.set(id, closedForGood);
      return id;
    },
    disconnect,
  });
  return { held, closers, disconnect };
}

describe('partitions held through leases among replicas', () => {
  it('holds its fair part only, leaving the rest to the other replicas', async () => {
    const { leases } = sharedLeases(2, new Set());
    const { held } = partitions(leases, 5);
    await held.start();
    expect(held.held()).toEqual([0, 1, 2]);
    await held.stop();
  });

  it('skips partitions another replica holds, and takes one freed later', async () => {
    const taken = new Set([0]);
    const { leases } = sharedLeases(1, taken);
    const { held } = partitions(leases, 2);
    await held.start();
    expect(held.held()).toEqual([1]);
    taken.delete(0);
    await vi.waitFor(() => expect(held.held()).toEqual([0, 1]));
    await held.stop();
  });

  it('gives a partition up (disconnected, lease freed) when its connection closes for good', async () => {
    const taken = new Set<number>();
    const { leases } = sharedLeases(1, taken);
    const { held, closers, disconnect } = partitions(leases, 2);
    await held.start();
    // Taken back by a later round: here the only replica; what matters is that it was let go first.
    closers.get(1)?.();
    await vi.waitFor(() => expect(disconnect).toHaveBeenCalledWith(1));
    await held.stop();
  });

  it('drops every partition at once when the leases are lost', async () => {
    const taken = new Set<number>();
    const lease = sharedLeases(1, taken);
    const { held, disconnect } = partitions(lease.leases, 3);
    await held.start();
    expect(held.held()).toEqual([0, 1, 2]);
    // Nothing can be taken again while the lease connection is down.
    lease.leases.tryTake = async () => false;
    lease.loseAll(new Error('connection ended'));
    expect(held.held()).toEqual([]);
    await vi.waitFor(() => expect(disconnect).toHaveBeenCalledTimes(3));
    await held.stop();
  });

  it('stops: every partition disconnected', async () => {
    const { leases } = sharedLeases(1, new Set());
    const { held, disconnect } = partitions(leases, 2);
    await held.start();
    await held.stop();
    expect(disconnect).toHaveBeenCalledTimes(2);
    expect(held.held()).toEqual([]);
  });
});
