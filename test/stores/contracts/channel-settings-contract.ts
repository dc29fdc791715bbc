/**
 * The contract of `ChannelSettings` (src/core/channel-settings.ts): channel links, one way, and named
 * settings per channel, seen by every replica.
 */
import { describe, expect, it } from 'vitest';
import { type CoordinationBackend, contractStorage } from './coordination-backend.ts';

export function channelSettingsContract(backend: CoordinationBackend) {
  describe(`${backend.name}: ChannelSettings contract`, () => {
    const storage = contractStorage(backend);

    it('keeps channel links, seen by every replica, per channel', async () => {
      const shared = await storage();
      const first = await shared.open();
      expect(await first.linkChannel('slack:T1:C1', 'slack:T1:C9')).toBe(true);
      expect(await first.linkChannel('slack:T1:C1', 'slack:T1:C9')).toBe(false);
      expect(await first.linkChannel('slack:T1:C1', 'slack:T1:C2')).toBe(true);
      const second = await shared.open();
      expect(await second.linkedChannels('slack:T1:C1')).toEqual(['slack:T1:C2', 'slack:T1:C9']);
      // A link goes one way: the linked channel searches only its own set.
      expect(await second.linkedChannels('slack:T1:C9')).toEqual([]);
      expect(await second.unlinkChannel('slack:T1:C1', 'slack:T1:C9')).toBe(true);
      expect(await second.unlinkChannel('slack:T1:C1', 'slack:T1:C9')).toBe(false);
      expect(await first.linkedChannels('slack:T1:C1')).toEqual(['slack:T1:C2']);
    });

    it('keeps named settings per channel, seen by every replica; null clears one', async () => {
      const shared = await storage();
      const first = await shared.open();
      expect(await first.channelSetting('slack:T1:C1', 'auto-answer')).toBeUndefined();
      await first.setChannelSetting('slack:T1:C1', 'auto-answer', 'on');
      await first.setChannelSetting('slack:T1:C1', 'hand-off', 'G1');
      await first.setChannelSetting('slack:T1:C2', 'auto-answer', 'off');
      const second = await shared.open();
      expect(await second.channelSetting('slack:T1:C1', 'auto-answer')).toBe('on');
      await second.setChannelSetting('slack:T1:C1', 'auto-answer', 'off');
      expect(await first.channelSetting('slack:T1:C1', 'auto-answer')).toBe('off');
      await second.setChannelSetting('slack:T1:C1', 'hand-off', null);
      await second.setChannelSetting('slack:T1:C9', 'hand-off', null);
      expect(await first.channelSetting('slack:T1:C1', 'hand-off')).toBeUndefined();
      expect(await first.channelSetting('slack:T1:C2', 'auto-answer')).toBe('off');
      // Settings are not links, nor links settings.
      expect(await first.linkedChannels('slack:T1:C1')).toEqual([]);
    });
  });
}
