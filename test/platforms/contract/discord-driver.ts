/** The contract driver for Discord: the real Discord module against the fake gateway and REST API. */

import { startDiscordHarness } from '../../discord/discord-harness.ts';
import { type InteractionRecord, randomUser } from '../../fakes/fake-discord.ts';
import type { FakeMessage, FakeUser } from '../../fakes/fake-discord-payloads.ts';
import { slackModel, userMessageOf } from '../../slack/slack-model.ts';
import { type Role, roleOf } from '../../support/model-roles.ts';
import {
  type CommandReply,
  type ContractThread,
  type DriverFactory,
  type HandOffLine,
  isHandOffLine,
  type PlatformDriver,
  waitForStoredReason,
} from './platform-driver.ts';
import { toolMessages } from './tool-messages.ts';

const listedAdmin: FakeUser = { ...randomUser('ada'), id: '900000000000000001' };
const listedMember = randomUser('max');
const roleIds = { default: '900000000000000010', other: '900000000000000011' };
const handOffTargets = { default: `role:${roleIds.default}`, other: `role:${roleIds.other}` };

export const discordDriver: DriverFactory = {
  name: 'Discord',
  start: async (options = {}) => {
    const harness = await startDiscordHarness({
      // Follow-ups without a mention need the message text: the intent is on for the contract.
      environment: {
        DISCORD_MESSAGE_CONTENT: 'true',
        RAGENT_ADMINS: listedAdmin.id,
        ...(options.handOff ? { RAGENT_HANDOFF_DISCORD: handOffTargets.default } : {}),
        ...options.environment,
      },
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
    const messageAsker = randomUser('asker');
    const asker = randomUser('alice');
    const asks = new Map<string, InteractionRecord>();
    const shareButtons = new Map<string, string>();
    const post = (thread: ContractThread, options: Parameters<typeof discord.postMessage>[0]) => {
      last.set(thread.id, discord.postMessage(options));
    };
    const users = new Map<string, FakeUser>();
    const userNamed = (name: string) => {
      const user = users.get(name) ?? randomUser(name);
      users.set(name, user);
      return user;
    };
    const nameOf = (id: string) => [...users].find(([, user]) => user.id === id)?.[0] ?? id;
    /** The answer's messages, once the last one carries its buttons. */
    const answerMessages = (thread: ContractThread) =>
      discord.waitFor(
        () => {
          const messages = discord
            .channelMessages(thread.id)
            .filter((message) => message.author.id === discord.bot.id);
          return messages.at(-1)?.components.length ? messages : undefined;
        },
        20_000,
        'the answer with its buttons',
      );
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
        .filter((message) => !isHandOffLine(message.content))
        // The sources show in an embed.
        .map((message) =>
          message.embeds.length > 0
            ? `${message.content}\n${JSON.stringify(message.embeds)}`
            : message.content,
        );
    /** Send Messages + View Channel; with Manage Channels for an admin. */
    const memberPermissions = 3072n;
    const manageServer = 32n;
    // Who added the documents `forget` is asked about.
    const documentOwner = randomUser('owner');
    const manageChannels = 16n;
    const command = async (
      subcommand: string,
      options: Array<{ name: string; type: number; value: string }>,
      permissions: bigint,
      user?: FakeUser,
    ): Promise<CommandReply> => {
      const interaction = discord.runCommand({
        guildId: harness.guildId,
        channelId: harness.channelId,
        subcommand,
        permissions: String(permissions),
        options,
        ...(user ? { user } : {}),
      });
      // Acknowledged first (a reply or a deferral), then the text: two versions of the reply.
      await discord.waitFor(() => interaction.history.length >= 2, 10_000, `/ragent ${subcommand}`);
      return {
        text: interaction.original?.content ?? '',
        onlyToThem: ((Number(interaction.callbacks[0]?.data?.flags ?? 0) & 64) as number) !== 0,
      };
    };
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
        discord.runMessageCommand({ message, name: 'Ask ragent', user: messageAsker });
        return { id: message.id };
      },
      askOnLatest: async (thread) => {
        const message = newest.get(thread.id);
        if (!message) throw new Error('no person’s message in that thread');
        discord.runMessageCommand({ message, name: 'Ask ragent', user: messageAsker });
      },
      askOnBotReply: async (thread) => {
        const reply = discord
          .channelMessages(thread.id)
          .filter((message) => message.author.id === discord.bot.id)
          .at(-1);
        if (!reply) throw new Error('no reply of the bot in that thread');
        const asked = discord.runMessageCommand({ message: reply, name: 'Ask ragent', user: messageAsker });
        const told = await discord.waitFor(() => asked.callbacks[0]);
        if (told.data?.flags !== 64) throw new Error('the notice was not private');
        return String(told.data?.content);
      },
      someoneElseMention: `<@${someoneElse.id}>`,
      failNextThreadRead: () => discord.failNext(/^GET \/api\/v10\/channels\/\d+\/messages$/, 403),
      modelCalls: () =>
        harness.ollama.chatRequests().map((request) => ({
          role: roleOf(request),
          text: request.messages.map((message) => message.content).join('\n'),
        })),
      replies: async (thread, count) => {
        await harness.settled(thread.id, count);
        await discord.waitFor(() => finished(thread).length >= count);
        return finished(thread);
      },
      repliesNow: finished,
      shownTexts: () => discord.sentBodies().map((sent) => JSON.stringify(sent.body)),
      questionsAsked: () => harness.requestsOf('rewrite').map(userMessageOf),
      postTopLevel: async (text, postOptions = {}) => {
        const message = discord.postMessage({
          channelId: harness.channelId,
          content: text,
          ...(postOptions.mentionSomeoneElse ? { mentionUsers: [someoneElse] } : {}),
        });
        // A thread started from a message takes the message's id.
        last.set(message.id, message);
        return { id: message.id };
      },
      setAutoAnswer: (on, commandOptions = {}) =>
        command(
          'autoanswer',
          [{ name: 'state', type: 3, value: on ? 'on' : 'off' }],
          commandOptions.admin === false ? memberPermissions : memberPermissions | manageChannels,
        ),
      command: (subcommand) => command(subcommand, [], memberPermissions),
      addChannelDocument: async (name, text) => {
        const scope = `discord:${harness.guildId}:${harness.channelId}`;
        const bytes = new TextEncoder().encode(text);
        await harness.services.ingestion.ingest({
          name,
          bytes,
          scope,
          uploader: `discord:${documentOwner.id}`,
        });
      },
      forget: (name, as) =>
        command(
          'forget',
          [{ name: 'name', type: 3, value: name }],
          as === 'admin' ? memberPermissions | manageServer : memberPermissions,
          as === 'uploader' ? documentOwner : randomUser('someone'),
        ),
      barrier: async () => {
        const { threadId } = await harness.mention('barrier: how do loops work?');
        await harness.settled(threadId);
      },
      messageLimit: 2_000,
      answerParts: async (thread) => (await answerMessages(thread)).map((message) => message.content),
      pingsSent: () =>
        discord
          .sentBodies()
          .map(({ body }) => body)
          .filter((body) => {
            const allowed = body.allowed_mentions as
              | { parse?: string[]; users?: string[]; roles?: string[] }
              | undefined;
            // Discord pings what a message's allowed mentions let through (all of them when unset).
            const open =
              !allowed ||
              (allowed.parse ?? []).length > 0 ||
              (allowed.users ?? []).length > 0 ||
              (allowed.roles ?? []).length > 0;
            return open && /@everyone|@here|<@/.test(JSON.stringify(body));
          })
          .map((body) => JSON.stringify(body)),
      pingTexts: ['@everyone', '@here', '<@223456789012345678>', '<@&123456789012345678>'],
      vote: async (thread, value, user) => {
        const [answer] = (await answerMessages(thread)).slice(-1);
        const row = answer?.components[0] as
          | { components: Array<{ custom_id: string; emoji: { name: string } }> }
          | undefined;
        const button = row?.components.find(
          (candidate) => candidate.emoji.name === (value === 'up' ? '👍' : '👎'),
        );
        if (!answer || !button) throw new Error(`no ${value} button under the answer`);
        const click = discord.clickButton({
          message: answer,
          customId: button.custom_id,
          user: userNamed(user),
        });
        await discord.waitFor(() => click.callbacks.length >= 1, 10_000, 'the click acknowledged');
      },
      votes: async (thread) =>
        (
          await harness.services.coordination.listFeedback({
            threadId: `discord:${harness.guildId}:${thread.id}`,
          })
        ).map(({ user, value }) => ({ user: nameOf(user), value })),
      ingest: async (file) => {
        const attachment = discord.addAttachment(file.name, file.bytes);
        const interaction = discord.runCommand({
          guildId: harness.guildId,
          channelId: harness.channelId,
          subcommand: 'ingest',
          attachments: [attachment],
        });
        const result = await discord.waitFor(
          () => {
            const content = interaction.original?.content ?? '';
            return /^(✅|⚠️|❌)/.test(content) ? content : undefined;
          },
          20_000,
          'the ingest result',
        );
        return { statuses: [...interaction.history], result };
      },
      crashMidAnswer: async (text) => {
        const { threadId } = await harness.crashMidTurn(() => harness.mention(text));
        return { id: threadId };
      },
      resume: () => harness.resume(),
      restart: () => harness.restart(),
      botMessages: (thread) =>
        discord
          .channelMessages(thread.id)
          .filter((message) => message.author.id === discord.bot.id)
          .map((message) => message.content),
      askPrivately: async (text) => {
        const record = discord.runCommand({
          guildId: harness.guildId,
          channelId: harness.channelId,
          user: asker,
          subcommand: 'ask',
          options: [{ name: 'question', type: 3, value: text }],
        });
        asks.set(record.token, record);
        return { id: record.token };
      },
      privateReply: async (ask) => {
        const record = asks.get(ask.id);
        if (!record) throw new Error(`no ask ${ask.id}`);
        return discord.waitFor(
          () => {
            const original = record.original;
            if (!original || original.content === '' || original.content.startsWith('⏳')) return undefined;
            return JSON.stringify({ content: original.content, components: original.components });
          },
          15_000,
          'the private reply',
        );
      },
      share: async (ask, shareOptions = {}) => {
        const record = asks.get(ask.id);
        const message = record?.original;
        // The button as first shown: a second press comes from a client that still shows it.
        const button = JSON.stringify(message?.components ?? []);
        const customId = shareButtons.get(ask.id) ?? /"custom_id":"(ragent:share:[^"]+)"/.exec(button)?.[1];
        if (!message || !customId) throw new Error(`no Share button on ${ask.id}`);
        shareButtons.set(ask.id, customId);
        const before = message.content;
        const click = discord.clickButton({
          message,
          customId,
          user: shareOptions.bySomeoneElse ? someoneElse : asker,
          channelId: harness.channelId,
        });
        // Answered: told privately (a follow-up), or the private reply now says it was shared.
        await discord.waitFor(
          () => click.followUps.length > 0 || (click.original !== undefined && message.content !== before),
          15_000,
          'the answer to the Share press',
        );
        return [
          ...click.followUps.map((followUp) => followUp.content),
          ...(message.content !== before ? [message.content] : []),
        ];
      },
      publicTexts: () =>
        discord
          .sentBodies()
          .filter((sent) => sent.path.startsWith('/api/v10/channels/'))
          .map((sent) => JSON.stringify(sent.body)),
      modelRequests: () =>
        harness.ollama
          .chatRequests()
          .map((request) => request.messages.map((message) => message.content).join('\n')),
      pressVerify: async (thread, as) => {
        const answer = latestAnswer(thread);
        const record = discord.clickButton({
          message: answer,
          customId: button(answer, 'ragent:verify:'),
          user: as === 'admin' ? listedAdmin : listedMember,
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
          user: listedAdmin,
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
