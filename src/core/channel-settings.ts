/**
 * Channel settings: what a channel was set to, by channel scope — its links (a channel that also
 * searches another channel's document set, `/ragent use #channel`) and named settings (a string
 * value per channel and name, e.g. a later auto-answer switch or hand-off group). A port of the
 * coordination store (`coordination-store.ts`); its contract is
 * `test/stores/contracts/channel-settings-contract.ts`.
 */
import type { Scope } from './types.ts';

export interface ChannelSettings {
  /**
   * Links `channel` to `linked` (both channel scopes). The caller checks that both are channels of
   * one workspace/server (turns/channel-links). True when the link is new.
   */
  linkChannel(channel: Scope, linked: Scope): Promise<boolean>;
  /** True when the link was there. */
  unlinkChannel(channel: Scope, linked: Scope): Promise<boolean>;
  /** The channel scopes `channel` is linked to, sorted (by code point). */
  linkedChannels(channel: Scope): Promise<Scope[]>;
  /** The value of the setting `name` of `channel`; undefined when it was never set (or cleared). */
  channelSetting(channel: Scope, name: string): Promise<string | undefined>;
  /** Sets the setting `name` of `channel` (null clears it). */
  setChannelSetting(channel: Scope, name: string, value: string | null): Promise<void>;
}
