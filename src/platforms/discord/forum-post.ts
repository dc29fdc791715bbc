/**
 * A new post in a Discord forum: a thread whose parent is a forum (or media) channel, opened with a
 * starter message whose id is the thread's id. Asked as one question (`turns/forum-post-question.ts`).
 */
import { ChannelType, type Message } from 'discord.js';
import { forumPostQuestion } from '../../turns/forum-post-question.ts';

/** The post's question, or undefined when `message` does not start a forum post. */
export function forumPostText(message: Message, firstMessage: string): string | undefined {
  const thread = message.channel;
  if (!thread.isThread() || message.id !== thread.id) return undefined;
  const forum = thread.parent;
  if (!forum || (forum.type !== ChannelType.GuildForum && forum.type !== ChannelType.GuildMedia))
    return undefined;
  const tags = thread.appliedTags.flatMap(
    (id) => forum.availableTags.find((tag) => tag.id === id)?.name ?? [],
  );
  return forumPostQuestion({ title: thread.name, tags, firstMessage });
}
