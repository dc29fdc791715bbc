/**
 * `autoanswer on|off [channel]`: questions posted in a channel — or new posts in a forum — are answered
 * without a mention. The channel defaults to the one the command runs in (a thread or a post: its
 * parent). Who may: who manages this channel, for this channel; another channel takes who manages the
 * place (the permissions a platform sends are this channel's). The switch and what counts as a
 * question are the runner's (turns/auto-answer.ts, turns/decide-turn.ts).
 */
import { setAutoAnswer } from '../turns/auto-answer.ts';
import {
  autoAnswerDeniedText,
  autoAnswerNotHereText,
  autoAnswerSetText,
  autoAnswerUnknownChannelText,
} from '../turns/messages-en.ts';
import { adminWords, type CommandOperation, textArgument } from './command-request.ts';
import { unreadableNote } from './with-auto-answer-status.ts';

export const autoAnswerCommand: CommandOperation = async (request, services) => {
  const { place, markup, actor } = request;
  const here = place.channelId;
  if (place.inDirectMessage || !here || !place.sets.channel) return autoAnswerNotHereText;
  const on = textArgument(request, 'state') === 'on';
  const target = textArgument(request, 'channel') || here;
  const level = target === here ? 'channel' : 'place';
  const allowed = level === 'channel' ? await actor.managesChannel() : await actor.managesPlace();
  if (!allowed) return `${markup.icons.warning} ${autoAnswerDeniedText(adminWords(markup, level))}`;
  let channel = place.sets.channel;
  if (target !== here) {
    // Only a channel of this place, of a kind whose posts can be answered.
    const found = await place.lookUpChannel(target);
    if (!found.inPlace || !found.answerable) return `${markup.icons.warning} ${autoAnswerUnknownChannelText}`;
    channel = found.scope;
  }
  const changed = await setAutoAnswer(services.coordination, {
    channel,
    on,
    user: actor.id,
    logger: services.logger,
  });
  return `${autoAnswerSetText(markup.channel(target), on, changed)}${unreadableNote(on, request)}`;
};
