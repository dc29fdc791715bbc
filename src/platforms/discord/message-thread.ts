/**
 * The thread a Discord message is answered in. In a server, as the core's `MessageThread`: the thread
 * it was posted in, else the one started from it when the answer opens (named after the question; one
 * people already started from it is taken), searching its channel's sets (a thread's: its parent's).
 * A DM is answered in place.
 */
import {
  type Channel,
  type Message,
  Routes,
  type SendableChannels,
  ThreadAutoArchiveDuration,
  type ThreadChannel,
} from 'discord.js';
import { RagentError } from '../../errors.ts';
import type { AnswerThread as CoreAnswerThread } from '../../turns/answer-thread.ts';
import type { MessageThread } from '../../turns/ask-on-message.ts';
import { threadTitle } from '../../turns/thread-title.ts';
import type { DiscordContext } from './discord-context.ts';
import { discordErrorMessages } from './discord-error-messages-en.ts';
import { guildChannelScopes, placeInDirectMessages, setChannelOf, threadIdOf } from './discord-scopes.ts';
import { openAnswerSurface } from './discord-surfaces.ts';
import { readDiscordThread } from './read-discord-thread.ts';

/** Discord's answer when a message already started a thread. */
const threadAlreadyCreated = 160004;

/** The core's thread, and `setChannel`: the channel whose sets it searches. */
export type AnswerThread = CoreAnswerThread & { setChannel: string };

/** `channel`: where `target` was posted. */
export function guildMessageThread(
  context: DiscordContext,
  target: Message,
  channel: Channel,
  guildId: string,
): MessageThread & AnswerThread {
  const setChannel = setChannelOf(channel);
  let thread: ThreadChannel | undefined = channel.isThread() ? channel : undefined;
  return {
    setChannel,
    // A message outside a thread is answered in the thread started from it, which takes its id.
    threadId: threadIdOf({ id: thread ? thread.id : target.id, guildId }),
    startsThread: !thread,
    // Until the status message exists, the thread is told with a reply to the question itself.
    location: { channelId: target.channelId, replyTo: target.id },
    scopes: () => guildChannelScopes(context.services.coordination, context.logger, guildId, setChannel),
    open: async (question) => {
      thread ??= await threadFromMessage(target, threadName(question, target.author.username));
      return openAnswerSurface(context.surfaces, thread as SendableChannels);
    },
    read: async (range, limit) =>
      thread ? readDiscordThread(thread, range, target.client.user.id, limit) : [],
  };
}

/** A DM belongs to no server: it searches `shared` alone (discord-scopes.ts). `messageId`: the question. */
export function directMessageThread(
  context: DiscordContext,
  channel: SendableChannels,
  messageId: string,
): AnswerThread {
  const { threadId, scopes } = placeInDirectMessages(channel.id);
  return {
    threadId,
    setChannel: channel.id,
    location: { channelId: channel.id, replyTo: messageId },
    scopes: async () => [...scopes],
    open: () => openAnswerSurface(context.surfaces, channel),
    read: async () => [],
  };
}

/** Discord allows thread names of 100 characters. */
export const threadName = (text: string, author: string) => threadTitle(text, author, 100);

/** The thread started from the message: started now, or the one people already started from it. */
async function threadFromMessage(target: Message, name: string): Promise<ThreadChannel> {
  const refused = (cause?: unknown) =>
    new RagentError('PERMISSION_DENIED', discordErrorMessages.PERMISSION_DENIED.threadNotStarted(), {
      cause,
    });
  const started = (error: unknown) => {
    if ((error as { code?: unknown }).code !== threadAlreadyCreated) throw refused(error);
  };
  const { client } = target;
  // Where the channel is known here (its shard is this replica's), one request starts the thread and
  // returns it: the answer's status follows at once. Otherwise (another replica's shard, or a thread
  // people already started from the message) the thread is started by REST and then read.
  if (client.channels.cache.has(target.channelId) && !target.hasThread) {
    const thread = await target
      .startThread({ name, autoArchiveDuration: ThreadAutoArchiveDuration.OneDay })
      .catch(started);
    if (thread) return thread;
  } else {
    const body = { name, auto_archive_duration: ThreadAutoArchiveDuration.OneDay };
    await client.rest.post(Routes.threads(target.channelId, target.id), { body }).catch(started);
  }
  const thread = await client.channels.fetch(target.id, { allowUnknownGuild: true });
  if (!thread?.isThread()) throw refused();
  return thread;
}
