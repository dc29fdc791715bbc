/**
 * The contract of `EventClaims` (src/core/event-claims.ts): an event is claimed once, by one process or
 * replica, also when replicas claim it at the same moment.
 */
import { describe, expect, it } from 'vitest';
import { type CoordinationBackend, contractStorage } from './coordination-backend.ts';

export function eventClaimsContract(backend: CoordinationBackend) {
  describe(`${backend.name}: EventClaims contract`, () => {
    const storage = contractStorage(backend);

    it('claims an event once, also for another replica', async () => {
      const shared = await storage();
      const first = await shared.open();
      expect(await first.claimEvent('slack:Ev1')).toBe(true);
      expect(await first.claimEvent('slack:Ev1')).toBe(false);
      const second = await shared.open();
      expect(second.replicaId).not.toBe(first.replicaId);
      expect(await second.claimEvent('slack:Ev1')).toBe(false);
      expect(await second.claimEvent('slack:Ev2')).toBe(true);
    });

    it('lets a released claim be claimed again, by this replica or another', async () => {
      const shared = await storage();
      const [first, second] = [await shared.open(), await shared.open()];
      expect(await first.claimEvent('handoff:2026-12-02:chat:T1:C1:1')).toBe(true);
      await first.releaseEvent('handoff:2026-12-02:chat:T1:C1:1');
      expect(await second.claimEvent('handoff:2026-12-02:chat:T1:C1:1')).toBe(true);
      expect(await first.claimEvent('handoff:2026-12-02:chat:T1:C1:1')).toBe(false);
      // Releasing a key nobody claimed is harmless, and touches no other claim.
      await second.releaseEvent('never-claimed');
      expect(await first.claimEvent('slack:Ev-other')).toBe(true);
      await first.releaseEvent('slack:Ev-missing');
      expect(await second.claimEvent('slack:Ev-other')).toBe(false);
    });

    it('claims an event once among replicas claiming at the same moment', async () => {
      const shared = await storage();
      const [first, second] = [await shared.open(), await shared.open()];
      const keys = Array.from({ length: 20 }, (_, index) => `slack:event-${index}`);
      const results = await Promise.all(
        keys.flatMap((key) => [first.claimEvent(key), second.claimEvent(key)]),
      );
      expect(results.filter(Boolean)).toHaveLength(keys.length);
      expect(await first.claimEvent('slack:event-0')).toBe(false);
      expect(await second.claimEvent('slack:event-0')).toBe(false);
    });
  });
}
