/**
 * Discord's side of the hand-off line (`answer-actions/hand-off-line.ts`). A target is written
 * `role:<id>` or `user:<id>` (the prefix says which mention to make without a lookup); the line
 * allows that one role or user to be pinged and nobody else — never @everyone/@here.
 */
import { type Client, Routes } from 'discord.js';
import { postHandOffLine } from '../../answer-actions/hand-off-line.ts';
import { threadParts } from '../../core/ids.ts';
import type { ThreadId } from '../../core/types.ts';
import { discordHandOffPattern } from '../../platform-settings/discord-settings.ts';

export interface DiscordMention {
  content: string;
  allowedMentions: { parse: []; roles?: string[]; users?: string[] };
}

export function discordHandOffMention(target: string): DiscordMention | undefined {
  const [, kind, id] = discordHandOffPattern.exec(target) ?? [];
  if (!id) return undefined;
  return kind === 'role'
    ? { content: `<@&${id}>`, allowedMentions: { parse: [], roles: [id] } }
    : { content: `<@${id}>`, allowedMentions: { parse: [], users: [id] } };
}

export async function postDiscordHandOff(client: Client, threadId: ThreadId, target: string) {
  const [, channelId] = threadParts(threadId, 'discord', 2) ?? [];
  if (!channelId) throw new Error(`cannot hand off ${threadId}: not a Discord thread`);
  const mention = discordHandOffMention(target);
  const body = (content: string) => ({ content, allowed_mentions: mention?.allowedMentions });
  await postHandOffLine(target, mention?.content, (content) =>
    client.rest.post(Routes.channelMessages(channelId), { body: body(content) }),
  );
}
