import { describe, expect, it } from 'vitest';
import { shardLeases } from '../../src/platforms/discord/discord-shards.ts';

describe('Discord shard leases', () => {
  it('keep the lock numbers earlier versions used, so old and new replicas never hold the same shard', () => {
    expect(shardLeases).toMatchObject({ leaseNamespace: 72_617_010, memberNamespace: 72_617_011 });
  });
});
