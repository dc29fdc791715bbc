/**
 * A new post in a Discord forum: a thread whose parent is a forum (or media) channel, opened with a
 * starter message whose id is the thread's id. The post is judged and answered as one question — its
 * title, its tags and its first message together — inside the post itself.
 */
import { ChannelType, type Message } from 'discord.js';

/** Tag names shown at most (a forum allows 5 per post; the text stays short). */
const maxTags = 5;

/** The post's question (title, tags, then the first message), or undefined when `message` does not start a forum post. */
export function forumPostText(message: Message, firstMessage: string): string | undefined {
  const thread = message.channel;
  if (!thread.isThread() || message.id !== thread.id) return undefined;
  const forum = thread.parent;
  if (!forum || (forum.type !== ChannelType.GuildForum && forum.type !== ChannelType.GuildMedia))
    return undefined;
  const tags = thread.appliedTags
    .slice(0, maxTags)
    .map((id) => forum.availableTags.find((tag) => tag.id === id)?.name)
    .filter((name): name is string => Boolean(name));
  const title = thread.name.trim();
  const parts = [title];
  if (tags.length > 0) parts.push(`Tags: ${tags.join(', ')}`);
  if (firstMessage !== title) parts.push(firstMessage);
  return parts.filter((part) => part !== '').join('\n');
}
