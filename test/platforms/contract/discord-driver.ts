/** The contract driver for Discord: the real Discord module against the fake gateway and REST API. */

import { startDiscordHarness } from '../../discord/discord-harness.ts';
import { randomUser } from '../../fakes/fake-discord.ts';
import type { FakeMessage } from '../../fakes/fake-discord-payloads.ts';
import { slackModel, userMessageOf } from '../../slack/slack-model.ts';
import { type Role, roleOf } from '../../support/model-roles.ts';
import type { ContractThread, DriverFactory, PlatformDriver } from './platform-driver.ts';

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
    const someoneElse = randomUser('Dana');
    const otherBot = { ...randomUser('otherbot'), bot: true };
    const last = new Map<string, FakeMessage>();
    /** The newest person's message per thread, for "Ask ragent"; who posts and who asks. */
    const newest = new Map<string, FakeMessage>();
    const poster = randomUser('poster');
    const asker = randomUser('asker');
    const post = (thread: ContractThread, options: Parameters<typeof discord.postMessage>[0]) => {
      last.set(thread.id, discord.postMessage(options));
    };
    const finished = (thread: ContractThread) =>
      discord
        .channelMessages(thread.id)
        .filter((message) => message.author.id === discord.bot.id)
        .filter((message) => !message.content.startsWith('⏳') && !message.content.endsWith('✍️ writing…'))
        // The text and, under it, the sources embed (as people see them).
        .map((message) =>
          [
            message.content,
            ...message.embeds.map((embed) => (embed as { description?: string }).description ?? ''),
          ]
            .join('\n')
            .trim(),
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
      threadWithHistory: async (history) => {
        const people = new Map<string, ReturnType<typeof randomUser>>();
        const personOf = (name: string) => {
          const person = people.get(name) ?? randomUser(name);
          people.set(name, person);
          return person;
        };
        let threadId: string | undefined;
        for (const entry of history) {
          const message = discord.postMessage({
            channelId: threadId ?? harness.channelId,
            author: personOf(entry.author),
            content: `${entry.pingEveryone ? '@everyone ' : ''}${entry.text}`,
            ...(entry.mentionSomeone ? { mentionUsers: [someoneElse] } : {}),
          });
          // The first message starts the thread, as a person does from the message's menu.
          threadId ??= discord.addThreadFromMessage(message, 'team discussion');
          newest.set(threadId, message);
        }
        if (!threadId) throw new Error('a thread needs a message');
        return { id: threadId };
      },
      askOnNewMessage: async (text) => {
        const message = discord.postMessage({ channelId: harness.channelId, author: poster, content: text });
        newest.set(message.id, message);
        discord.runMessageCommand({ message, name: 'Ask ragent', user: asker });
        return { id: message.id };
      },
      askOnLatest: async (thread) => {
        const message = newest.get(thread.id);
        if (!message) throw new Error('no person’s message in that thread');
        discord.runMessageCommand({ message, name: 'Ask ragent', user: asker });
      },
      someoneElseMention: `<@${someoneElse.id}>`,
      failNextThreadRead: () => discord.failNext(/^GET \/api\/v10\/channels\/\d+\/messages$/, 403),
      modelRequests: () =>
        harness.ollama.chatRequests().map((request) => ({
          role: roleOf(request),
          text: request.messages.map((message) => message.content).join('\n'),
        })),
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
    };
    return driver;
  },
};
