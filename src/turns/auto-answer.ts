/**
 * Auto-answer, once for every platform: a channel where an admin turned it on (`/ragent autoanswer
 * on`) has its top-level questions answered in a thread without a mention (the rule is
 * `decide-turn.ts` with `is-question.ts`). The switch is a named channel setting in the shared store
 * (`ChannelSettings`), so every replica sees it and it survives restarts.
 *
 * Reading it is cheap: the runner asks only for a top-level human message that reads as a question,
 * and keeps each answer for a few seconds (a burst of questions reads the store once). A change made
 * through this module is seen at once by this process; another replica sees it within `cacheMs`.
 */
import type { ChannelSettings } from '../core/channel-settings.ts';
import type { Scope } from '../core/types.ts';
import type { Logger } from '../logger.ts';

/** The channel setting's name; its value is `on` (absent or anything else: off). */
export const autoAnswerSetting = 'auto-answer';
/** How long a read is reused (other replicas see a change within this). */
export const autoAnswerCacheMs = 5_000;
/** Channels remembered at most (the oldest is dropped first): memory stays bounded in a busy server. */
const maxCachedChannels = 10_000;

interface CachedValue {
  on: boolean;
  until: number;
}

const caches = new WeakMap<ChannelSettings, Map<Scope, CachedValue>>();

function cacheOf(store: ChannelSettings): Map<Scope, CachedValue> {
  let cache = caches.get(store);
  if (!cache) {
    cache = new Map();
    caches.set(store, cache);
  }
  return cache;
}

/** Whether auto-answer is on for the channel (a store failure reads as off, and is logged). */
export async function isAutoAnswerOn(
  store: ChannelSettings,
  channel: Scope,
  logger: Logger,
): Promise<boolean> {
  const cache = cacheOf(store);
  const now = Date.now();
  const cached = cache.get(channel);
  if (cached && cached.until > now) return cached.on;
  let on: boolean;
  try {
    on = (await store.channelSetting(channel, autoAnswerSetting)) === 'on';
  } catch (error) {
    // Off is the safe side: a missed question can be asked with a mention; chatter answered cannot be undone.
    logger.warn({ err: error, channel }, 'could not read the auto-answer setting; not auto-answering');
    return false;
  }
  cache.delete(channel);
  if (cache.size >= maxCachedChannels) {
    const oldest = cache.keys().next().value;
    if (oldest !== undefined) cache.delete(oldest);
  }
  cache.set(channel, { on, until: now + autoAnswerCacheMs });
  return on;
}

/** Turns auto-answer on or off for the channel; true when that changed it. The caller checked who may. */
export async function setAutoAnswer(
  store: ChannelSettings,
  request: { channel: Scope; on: boolean; user: string; logger: Logger },
): Promise<boolean> {
  const before = (await store.channelSetting(request.channel, autoAnswerSetting)) === 'on';
  await store.setChannelSetting(request.channel, autoAnswerSetting, request.on ? 'on' : null);
  cacheOf(store).delete(request.channel);
  request.logger.info({ channel: request.channel, on: request.on, user: request.user }, 'auto-answer set');
  return before !== request.on;
}

/** The setting as stored now (no cache: what a command shows), off when it cannot be read. */
export async function readAutoAnswer(
  store: ChannelSettings,
  channel: Scope,
  logger: Logger,
): Promise<boolean> {
  try {
    return (await store.channelSetting(channel, autoAnswerSetting)) === 'on';
  } catch (error) {
    logger.warn({ err: error, channel }, 'could not read the auto-answer setting');
    return false;
  }
}

/** Parses `on` / `off` (and the usual synonyms); undefined for anything else. */
export function parseOnOff(text: string): boolean | undefined {
  const word = text.trim().toLowerCase();
  if (['on', 'yes', 'true', 'enable', 'enabled'].includes(word)) return true;
  if (['off', 'no', 'false', 'disable', 'disabled'].includes(word)) return false;
  return undefined;
}
