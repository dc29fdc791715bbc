/**
 * The contract of `StoreLiveness` (src/core/store-liveness.ts): a store that works, and one closed as
 * it should be, never reports itself lost; a store whose shared storage is taken away (replicas only:
 * a backend with `lose`) tells every listener once, with a RagentError.
 */
import { describe, expect, it } from 'vitest';
import type { RagentError } from '../../../src/errors.ts';
import { type CoordinationBackend, contractStorage } from './coordination-backend.ts';

export function storeLivenessContract(backend: CoordinationBackend) {
  describe(`${backend.name}: StoreLiveness contract`, () => {
    const storage = contractStorage(backend);

    it('never reports a working store lost, nor one that closed', async () => {
      const shared = await storage();
      const store = await shared.open();
      const lost: RagentError[] = [];
      store.onLost((error) => lost.push(error));
      expect(await store.claimEvent('slack:Ev1')).toBe(true);
      await store.beginTurn({ key: 'k', platform: 'slack', kind: 'answer', location: {} });
      await store.endTurn('k');
      await store.close();
      // A barrier: another store on the same storage works after the close.
      expect(await (await shared.open()).claimEvent('slack:Ev1')).toBe(false);
      expect(lost).toEqual([]);
    });

    const lose = backend.lose;
    if (lose) {
      it('tells every listener once when its shared storage is taken away', async () => {
        const store = await (await storage()).open();
        const first: RagentError[] = [];
        const second: RagentError[] = [];
        store.onLost((error) => first.push(error));
        store.onLost((error) => second.push(error));
        await lose(store);
        expect(first).toHaveLength(1);
        expect(second).toHaveLength(1);
        expect(first[0]?.code).toEqual(expect.any(String));
        expect(first[0]?.message.length).toBeGreaterThan(0);
      });
    }
  });
}
