/** The contract driver for Discord: the real Discord module against the fake gateway and REST API. */

import { startDiscordHarness } from '../../discord/discord-harness.ts';
import { type InteractionRecord, randomUser } from '../../fakes/fake-discord.ts';
import type { FakeMessage, FakeUser } from '../../fakes/fake-discord-payloads.ts';
import { slackModel, userMessageOf } from '../../slack/slack-model.ts';
import type { Role } from '../../support/model-roles.ts';
import {
  type ContractThread,
  type DriverFactory,
  type HandOffLine,
  isHandOffLine,
  type PlatformDriver,
  waitForStoredReason,
} from './platform-driver.ts';

const admin: FakeUser = { ...randomUser('ada'), id: '900000000000000001' };
const member = randomUser('max');
const roleIds = { default: '900000000000000010', other: '900000000000000011' };
const handOffTargets = { default: `role:${roleIds.default}`, other: `role:${roleIds.other}` };

export const discordDriver: DriverFactory = {
  name: 'Discord',
  start: async (options = {}) => {
    const harness = await startDiscordHarness({
      // Follow-ups without a mention need the message text: the intent is on for the contract.
      environment: {
        DISCORD_MESSAGE_CONTENT: 'true',
        RAGENT_ADMINS: admin.id,
        ...(options.handOff ? { RAGENT_HANDOFF_DISCORD: handOffTargets.default } : {}),
        ...options.environment,
      },
    });
    // The contract's one model on every platform.
    for (const role of Object.keys(harness.scripts) as Role[])
      harness.scripts[role] = options.model ?? slackModel;
    const { discord } = harness;
    const someoneElse = randomUser('dana');
    const otherBot = { ...randomUser('otherbot'), bot: true };
    const last = new Map<string, FakeMessage>();
    const post = (thread: ContractThread, options: Parameters<typeof discord.postMessage>[0]) => {
      last.set(thread.id, discord.postMessage(options));
    };
    const finished = (thread: ContractThread) =>
      discord
        .channelMessages(thread.id)
        .filter((message) => message.author.id === discord.bot.id)
        .filter((message) => !message.content.startsWith('⏳') && !message.content.endsWith('✍️ writing…'))
        .filter((message) => !isHandOffLine(message.content))
        .map((message) => message.content);
    const latestAnswer = (thread: ContractThread) => {
      const answer = discord
        .channelMessages(thread.id)
        .filter((message) => message.author.id === discord.bot.id && message.components.length > 0)
        .at(-1);
      if (!answer) throw new Error('no answer in the thread');
      return answer;
    };
    const button = (message: FakeMessage, prefix: string) => {
      const found = (message.components as Array<{ components: Array<{ custom_id: string }> }>)
        .flatMap((row) => row.components)
        .find((component) => component.custom_id.startsWith(prefix));
      if (!found) throw new Error(`no ${prefix} button`);
      return found.custom_id;
    };
    /** The private reply to an interaction: its reply, its edited deferred reply, or its first follow-up. */
    const privateReply = (record: InteractionRecord) =>
      discord.waitFor(() => {
        const [first] = record.callbacks;
        if (first?.type === 4) return String(first.data?.content ?? '');
        if (first?.type === 5 && record.original?.content) return record.original.content;
        return record.followUps[0]?.content;
      });
    let chooser: InteractionRecord | undefined;
    const driver: PlatformDriver = {
      name: 'discord',
      mention: async (text) => {
        const { message, threadId } = await harness.mention(text);
        last.set(threadId, message);
        return { id: threadId };
      },
      foreignThread: async () => ({ id: discord.addThread(harness.channelId, 'team discussion') }),
      mentionInThread: async (thread, text) =>
        post(thread, { channelId: thread.id, content: text, mentionBot: true }),
      reply: async (thread, text, replyOptions = {}) =>
        post(thread, {
          channelId: thread.id,
          content: text,
          ...(replyOptions.mentionSomeoneElse ? { mentionUsers: [someoneElse] } : {}),
        }),
      replyAsBot: async (thread, text) =>
        post(thread, { channelId: thread.id, content: text, author: otherBot }),
      editInThread: async (thread, text) => {
        const message = last.get(thread.id);
        if (!message) throw new Error('nothing to edit');
        discord.editUserMessage(message, text);
      },
      redeliverLast: async (thread) => {
        const message = last.get(thread.id);
        if (!message) throw new Error('nothing to redeliver');
        discord.redeliver(message);
      },
      replies: async (thread, count) => {
        await harness.settled(thread.id, count);
        await discord.waitFor(() => finished(thread).length >= count);
        return finished(thread);
      },
      repliesNow: finished,
      shownTexts: () => discord.sentBodies().map((sent) => JSON.stringify(sent.body)),
      questionsAsked: () => harness.requestsOf('rewrite').map(userMessageOf),
      barrier: async () => {
        const { threadId } = await harness.mention('barrier: how do loops work?');
        await harness.settled(threadId);
      },
      pressVerify: async (thread, as) => {
        const answer = latestAnswer(thread);
        const record = discord.clickButton({
          message: answer,
          customId: button(answer, 'ragent:verify:'),
          user: as === 'admin' ? admin : member,
        });
        return privateReply(record);
      },
      answerControls: (thread) => JSON.stringify(latestAnswer(thread).components),
      pressThumbsDown: async (thread) => {
        const answer = latestAnswer(thread);
        chooser = discord.clickButton({ message: answer, customId: button(answer, 'ragent:feedback:down:') });
        return privateReply(chooser);
      },
      chooseReason: async (thread, reason, comment) => {
        const shown = chooser?.original;
        if (!shown) throw new Error('no reason chooser');
        // The ephemeral chooser lives in the thread it was shown in.
        const message = { ...shown, channel_id: thread.id };
        const record = discord.clickButton({
          message,
          customId: button(message, `ragent:reason:${reason}:`),
        });
        if (reason === 'other') {
          const modal = await discord.waitFor(() => record.callbacks.find((callback) => callback.type === 9));
          discord.submitModal({
            channelId: thread.id,
            customId: String(modal.data?.custom_id),
            values: { comment: comment ?? '' },
          });
        }
        await waitForStoredReason(harness.services, reason, comment);
      },
      pressAskPerson: async (thread) => {
        const answer = latestAnswer(thread);
        return privateReply(
          discord.clickButton({ message: answer, customId: button(answer, 'ragent:askperson:') }),
        );
      },
      setHandOff: async (target) => {
        const role = {
          id: roleIds.other,
          name: 'oncall',
          color: 0,
          hoist: false,
          position: 1,
          permissions: '0',
          managed: false,
          mentionable: true,
          flags: 0,
        };
        const record = discord.runCommand({
          guildId: harness.guildId,
          channelId: harness.channelId,
          user: admin,
          subcommand: 'handoff',
          ...(target === 'other'
            ? {
                options: [{ name: 'target', type: 9, value: roleIds.other }],
                resolved: { roles: { [roleIds.other]: role } },
              }
            : {}),
        });
        return privateReply(record);
      },
      handOffTargets,
      handOffLines: (thread) =>
        discord
          .channelMessages(thread.id)
          .filter(
            (message) => message.author.id === discord.bot.id && message.content.includes('will follow up'),
          )
          .map((message): HandOffLine => ({ text: message.content, pings: discordPings(message) })),
      chatRequests: () => harness.ollama.chatRequests().length,
      modelPrompts: () =>
        harness.ollama
          .chatRequests()
          .map((request) => request.messages.map((message) => message.content).join('\n')),
      services: () => harness.services,
      close: () => harness.close(),
    };
    return driver;
  },
};

/**
 * Whom Discord would notify for this message: what `allowed_mentions` lets through of what the content
 * mentions (no `allowed_mentions` at all: everything it mentions, @everyone included).
 */
function discordPings(message: FakeMessage): string[] {
  const allowed = message.allowed_mentions as
    | { parse?: string[]; roles?: string[]; users?: string[] }
    | undefined;
  const roles = [...message.content.matchAll(/<@&(\d+)>/g)].map((match) => match[1] ?? '');
  const users = [...message.content.matchAll(/<@!?(\d+)>/g)].map((match) => match[1] ?? '');
  const everyone = /@(everyone|here)/.test(message.content);
  if (!allowed) return ['unrestricted'];
  const parse = allowed.parse ?? [];
  // Listed ids may ping even where the text does not show them yet (an edit could add them).
  const pingRoles = new Set([...(allowed.roles ?? []), ...(parse.includes('roles') ? roles : [])]);
  const pingUsers = new Set([...(allowed.users ?? []), ...(parse.includes('users') ? users : [])]);
  return [
    ...[...pingRoles].map((id) => `role:${id}`),
    ...[...pingUsers].map((id) => `user:${id}`),
    ...(everyone && parse.includes('everyone') ? ['everyone'] : []),
  ];
}
