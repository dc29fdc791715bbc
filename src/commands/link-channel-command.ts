/**
 * `use #oncall` / `unuse #oncall` (who manages the channel): this channel (a thread: its parent) also
 * searches that channel's set. The channel comes from the platform's own channel argument; one of
 * another workspace or server gets that place's scope, which linking refuses.
 */
import { linkChannel, unlinkChannel } from '../turns/channel-links.ts';
import { linkDeniedText, linkedText, unlinkedText, useHereText } from '../turns/messages-en.ts';
import { adminWords, type CommandOperation, textArgument } from './command-request.ts';

export function linkChannelCommand(link: boolean): CommandOperation {
  return async (request, services) => {
    const { place, markup } = request;
    if (place.inDirectMessage || !place.sets.channel) return useHereText;
    if (!(await request.actor.managesChannel()))
      return `${markup.icons.warning} ${linkDeniedText(adminWords(markup, 'channel'))}`;
    const target = textArgument(request, 'channel');
    const channel = place.sets.channel;
    const shown = markup.channel(target);
    const { coordination, logger } = services;
    if (!link) {
      // No lookup: a deleted channel's link can still be removed.
      const linked = place.channelScope(target);
      return unlinkedText(shown, await unlinkChannel(coordination, { channel, linked, logger }));
    }
    const { scope: linked } = await place.lookUpChannel(target);
    const placeName = place.sets.placeName;
    return linkedText(shown, await linkChannel(coordination, { channel, linked, placeName, logger }));
  };
}
