/**
 * `handoff @group` (who manages the place): who follows up in this channel when an answer gets 👎 or
 * is not found — a group, role or person from the platform's own mention; without one (`off`) the
 * channel goes back to the operator's default. Stored as a setting of the channel's set (a thread's
 * parent), so every replica reads the same.
 */
import { setHandOffTarget } from '../turns/hand-off.ts';
import {
  handOffClearedText,
  handOffDeniedText,
  handOffHereText,
  handOffSetText,
} from '../turns/messages-en.ts';
import { adminWords, type CommandOperation } from './command-request.ts';

export const handOffCommand: CommandOperation = async (request, services) => {
  const { place, markup } = request;
  if (place.inDirectMessage || !place.sets.channel) return handOffHereText;
  if (!(await request.actor.managesPlace()))
    return `${markup.icons.warning} ${handOffDeniedText(adminWords(markup, 'place'))}`;
  const value = request.arguments.target;
  const target = typeof value === 'string' ? value : null;
  await setHandOffTarget(services.coordination, place.sets.channel, target);
  // Shown by id or as a mention the platform sends without pinging: nobody is pinged by setting it.
  const shown = (stored: string | undefined) =>
    stored ? (markup.mention ? markup.mention(stored) : markup.code(stored)) : undefined;
  return target ? handOffSetText(shown(target) ?? target) : handOffClearedText(shown(place.handOffDefault));
};
