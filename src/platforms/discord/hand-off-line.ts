/**
 * Discord's side of the hand-off (`turns/hand-off.ts`). A target is written `role:<id>` or
 * `user:<id>` (a role and a user can share no id, but the prefix says which mention to make without
 * a lookup); the line mentions it as `<@&id>` / `<@id>` with `allowed_mentions` allowing that one
 * role or user and nothing else — never @everyone/@here, never anyone a text names.
 */
import { type Client, Routes } from 'discord.js';
import { threadParts } from '../../core/ids.ts';
import type { ThreadId } from '../../core/types.ts';
import { handOffText } from '../../turns/messages-en.ts';

export interface DiscordMention {
  content: string;
  allowedMentions: { parse: []; roles?: string[]; users?: string[] };
}

export function discordHandOffMention(target: string): DiscordMention | undefined {
  const [, kind, id] = /^(role|user):(\d{15,22})$/.exec(target) ?? [];
  if (!id) return undefined;
  return kind === 'role'
    ? { content: `<@&${id}>`, allowedMentions: { parse: [], roles: [id] } }
    : { content: `<@${id}>`, allowedMentions: { parse: [], users: [id] } };
}

export async function postDiscordHandOff(client: Client, threadId: ThreadId, target: string): Promise<void> {
  const [, channelId] = threadParts(threadId, 'discord', 2) ?? [];
  const mention = discordHandOffMention(target);
  if (!channelId || !mention) throw new Error(`cannot hand off ${threadId} to ${target}`);
  await client.rest.post(Routes.channelMessages(channelId), {
    body: { content: handOffText(mention.content), allowed_mentions: mention.allowedMentions },
  });
}
