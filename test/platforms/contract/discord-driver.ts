/** The contract driver for Discord: the real Discord module against the fake gateway and REST API. */

import { startDiscordHarness } from '../../discord/discord-harness.ts';
import { randomUser } from '../../fakes/fake-discord.ts';
import type { FakeMessage } from '../../fakes/fake-discord-payloads.ts';
import { slackModel, userMessageOf } from '../../slack/slack-model.ts';
import type { Role } from '../../support/model-roles.ts';
import type { ContractThread, DriverFactory, PlatformDriver } from './platform-driver.ts';
import { toolMessages } from './tool-messages.ts';

export const discordDriver: DriverFactory = {
  name: 'Discord',
  start: async (options = {}) => {
    const harness = await startDiscordHarness({
      // Follow-ups without a mention need the message text: the intent is on for the contract.
      environment: { DISCORD_MESSAGE_CONTENT: 'true', ...options.environment },
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
    let otherChannel: string | undefined;
    const threadStartedFrom = async (messageId: string) =>
      (
        await discord.waitFor(
          () => discord.threads().find((each) => each.id === messageId),
          10_000,
          'the thread started from the mention',
        )
      ).id;
    const finished = (thread: ContractThread) =>
      discord
        .channelMessages(thread.id)
        .filter((message) => message.author.id === discord.bot.id)
        .filter((message) => !message.content.startsWith('⏳') && !message.content.endsWith('✍️ writing…'))
        // The sources show in an embed.
        .map((message) =>
          message.embeds.length > 0
            ? `${message.content}\n${JSON.stringify(message.embeds)}`
            : message.content,
        );
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
        return finished(thread);
      },
      repliesNow: finished,
      shownTexts: () => discord.sentBodies().map((sent) => JSON.stringify(sent.body)),
      questionsAsked: () => harness.requestsOf('rewrite').map(userMessageOf),
      barrier: async () => {
        const { threadId } = await harness.mention('barrier: how do loops work?');
        await harness.settled(threadId);
      },
      close: () => harness.close(),
      mentionWithFile: async (text, files) => {
        const attachments = files.map((file) => discord.addAttachment(file.name, file.bytes, 'text/plain'));
        const message = discord.postMessage({
          channelId: harness.channelId,
          content: text,
          mentionBot: true,
          attachments,
        });
        return { id: await threadStartedFrom(message.id) };
      },
      mentionInOtherChannel: async (text) => {
        otherChannel ??= discord.addChannel(harness.guildId, 'other');
        const { threadId } = await harness.mention(text, { channelId: otherChannel });
        return { id: threadId };
      },
      toolResults: () => harness.ollama.chatRequests().flatMap(toolMessages),
    };
    return driver;
  },
};
