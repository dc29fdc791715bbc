/** The contract driver for Slack: the real Slack module against the fake Web API, over HTTP or Socket Mode. */

import { privateWorkingText } from '../../../src/turns/messages-en.ts';
import type { ChatScript } from '../../fakes/fake-ollama.ts';
import type { FakeSlackMessage } from '../../fakes/fake-slack-api.ts';
import {
  blockAction,
  messageShortcut,
  messageTs,
  slashCommand,
  viewSubmission,
} from '../../fakes/fake-slack-events.ts';
import {
  blockText,
  defaultChannel,
  defaultUser,
  isPlaceholder,
  startSlackHarness,
} from '../../slack/slack-harness.ts';
import { slackModel, userMessageOf } from '../../slack/slack-model.ts';
import { roleOf } from '../../support/model-roles.ts';
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

/** Listed in RAGENT_ADMINS (the Verify and hand-off scenarios), and a member who is not. */
const listedAdmin = 'UADA';
const listedMember = 'UMAX';
const handOffTargets = { default: 'S0SUPPORT', other: 'S0ONCALL' };

/** The most answer text one Slack message holds: its markdown blocks together (Slack's limit). */
const markdownPerMessage = 12_000;
const userIds = new Map<string, string>();
let sharedFiles = 0;

/** A stable Slack user id for a name of the scenario's. */
function userId(name: string): string {
  const known = userIds.get(name);
  if (known) return known;
  const id = `U0${name.toUpperCase().replace(/[^A-Z0-9]/g, '')}`;
  userIds.set(name, id);
  return id;
}

function hasFeedback(message: FakeSlackMessage): boolean {
  return message.blocks.some((block) =>
    ['context_actions', 'actions'].includes((block as { type: string }).type),
  );
}

/** The answer text of a message: its markdown blocks (the sources and buttons are other blocks). */
function markdownOf(message: FakeSlackMessage): string {
  return message.blocks
    .filter((block) => (block as { type: string }).type === 'markdown')
    .map((block) => String((block as { text: string }).text))
    .join('\n');
}

export function slackDriver(mode: 'http' | 'socket'): DriverFactory {
  return {
    name: `Slack (${mode === 'http' ? 'HTTP' : 'Socket Mode'})`,
    start: async (options = {}) => {
      const harness = await startSlackHarness({
        mode,
        model: options.model ?? (slackModel as ChatScript),
        environment: {
          RAGENT_ADMINS: listedAdmin,
          ...(options.handOff ? { RAGENT_HANDOFF_SLACK: handOffTargets.default } : {}),
          ...options.environment,
        },
      });
      const { slack } = harness;
      slack.addUser({ id: listedAdmin, name: 'ada' });
      slack.addUser({ id: listedMember, name: 'max' });
      if (options.streaming === false) slack.setStreamingSupported(false);
      /** The latest person's message per thread, as sent (to redeliver it). */
      const lastEnvelope = new Map<string, Record<string, unknown>>();
      const someoneElse = 'UDANA';
      slack.addUser({ id: someoneElse, name: 'dana', displayName: 'Dana' });
      let asked = 0;
      let pressed = 0;
      const sendCommand = async (fields: Record<string, string>) => {
        if (mode === 'socket') await slack.sendEnvelope(fields, { type: 'slash_commands' });
        else {
          const delivery = await harness.sender.command(fields);
          if (delivery.status !== 200) throw new Error(`command rejected: HTTP ${delivery.status}`);
        }
      };
      const send = async (
        thread: ContractThread,
        type: 'app_mention' | 'message',
        text: string,
        fields = {},
      ) => {
        const { envelope } = harness.envelope(type, text, { threadTs: thread.id, ...fields });
        lastEnvelope.set(thread.id, envelope);
        await deliver(envelope);
      };
      const deliver = async (envelope: Record<string, unknown>) => {
        if (mode === 'socket') await slack.sendEnvelope(envelope, { type: 'events_api' });
        else {
          const delivery = await harness.sender.event(envelope);
          if (delivery.status !== 200) throw new Error(`event rejected: HTTP ${delivery.status}`);
        }
      };
      /** The answer's messages, once the last one carries its feedback controls. */
      const answerMessages = (thread: ContractThread) =>
        slack.waitFor(() => {
          const messages = slack
            .messages(defaultChannel, thread.id)
            .filter((message) => message.ts !== thread.id && !isPlaceholder(message));
          const last = messages.at(-1);
          return last && hasFeedback(last) ? messages : undefined;
        }, 20_000);
      // A workspace admin, and a member who is not one (users.info says which).
      const admin = 'UADMIN';
      const member = 'UMEMBER';
      slack.addUser({ id: admin, name: 'admin', isAdmin: true });
      slack.addUser({ id: member, name: 'member' });
      let commands = 0;
      const command = async (text: string, user: string): Promise<CommandReply> => {
        commands += 1;
        const responseId = `contract-command-${commands}`;
        const fields = slashCommand({
          team: slack.teamId,
          channel: defaultChannel,
          user,
          text,
          responseUrl: slack.responseUrl(responseId),
        });
        if (mode === 'socket') await slack.sendEnvelope(fields, { type: 'slash_commands' });
        else {
          const delivery = await harness.sender.command(fields);
          if (delivery.status !== 200) throw new Error(`command rejected: HTTP ${delivery.status}`);
        }
        const [reply] = await slack.waitFor(() => {
          const posts = slack.responses(responseId);
          return posts.length > 0 ? posts : undefined;
        });
        return { text: String(reply?.text), onlyToThem: reply?.response_type === 'ephemeral' };
      };
      let fileCounter = 0;
      const otherChannel = 'C0OTHER';
      const otherChannelThreads = new Set<string>();
      const channelOf = (thread: ContractThread) =>
        otherChannelThreads.has(thread.id) ? otherChannel : defaultChannel;
      /** The newest person's message per thread (root ts), for "Ask ragent". */
      const latest = new Map<string, { ts: string; threadTs?: string; text: string; user: string }>();
      /** "Ask ragent" chosen on `message` by the asker (UASKER): HTTP interactivity or Socket Mode. */
      const shortcut = async (message: { ts: string; threadTs?: string; text: string; user: string }) => {
        const payload = messageShortcut({
          team: slack.teamId,
          user: 'UASKER',
          channel: defaultChannel,
          callbackId: 'ask_ragent',
          message,
        });
        if (mode === 'socket') await slack.sendEnvelope(payload, { type: 'interactive' });
        else {
          const delivery = await harness.sender.interaction(payload);
          if (delivery.status !== 200) throw new Error(`shortcut rejected: HTTP ${delivery.status}`);
        }
      };
      const finished = (thread: ContractThread) =>
        slack
          .messages(channelOf(thread), thread.id)
          .filter((message) => message.ts !== thread.id && !message.user && !isPlaceholder(message))
          .filter((message) => !isHandOffLine(message.text))
          .map((message) => `${message.text}\n${blockText(message)}`);
      const interact = async (payload: Record<string, unknown>) => {
        if (mode === 'socket') await slack.sendEnvelope(payload, { type: 'interactive' });
        else {
          const delivery = await harness.sender.interaction(payload);
          if (delivery.status !== 200) throw new Error(`interaction rejected: HTTP ${delivery.status}`);
        }
      };
      const latestAnswer = (thread: ContractThread): FakeSlackMessage => {
        const answer = slack
          .messages(defaultChannel, thread.id)
          .filter((message) => JSON.stringify(message.blocks).includes('ragent_answer_actions'))
          .at(-1);
        if (!answer) throw new Error('no answer in the thread');
        return answer;
      };
      const elementOf = (message: FakeSlackMessage, actionId: string) => {
        const found = findElement(message.blocks, actionId);
        if (typeof found?.value !== 'string') throw new Error(`no ${actionId} on the message`);
        return found.value;
      };
      /** Presses a button and resolves with the next private message to `user`. */
      const pressFor = async (
        user: string,
        message: FakeSlackMessage,
        thread: ContractThread,
        action: { actionId: string; value: string; type?: 'button' | 'feedback_buttons' },
      ) => {
        const before = slack.callsTo('chat.postEphemeral').length;
        await interact(
          blockAction({
            team: slack.teamId,
            user,
            channel: defaultChannel,
            messageTs: message.ts,
            threadTs: thread.id,
            messageBlocks: message.blocks,
            ...(user === listedAdmin ? { userName: 'ada' } : {}),
            ...action,
          }),
        );
        const reply = await slack.waitFor(() =>
          slack
            .callsTo('chat.postEphemeral')
            .slice(before)
            .find((call) => call.body.user === user),
        );
        return String(reply.body.text);
      };
      const driver: PlatformDriver = {
        name: `slack-${mode}`,
        mention: async (text) => ({ id: await harness.mention(text) }),
        // A thread people started without the bot: its first message is theirs.
        foreignThread: async () => ({ id: messageTs() }),
        mentionInThread: (thread, text) => send(thread, 'app_mention', `<@${slack.botUserId}> ${text}`),
        reply: (thread, text, replyOptions = {}) =>
          send(thread, 'message', replyOptions.mentionSomeoneElse ? `<@${someoneElse}> ${text}` : text),
        replyAsBot: (thread, text) => send(thread, 'message', text, { botId: 'B0OTHER', user: 'UOTHERBOT' }),
        editInThread: (thread, text) => send(thread, 'message', text, { subtype: 'message_changed' }),
        redeliverLast: async (thread) => {
          const envelope = lastEnvelope.get(thread.id);
          if (!envelope) throw new Error('nothing to redeliver');
          await deliver(envelope);
        },
        threadWithHistory: async (history) => {
          let root: string | undefined;
          for (const [index, entry] of history.entries()) {
            const user = `U${entry.author.toUpperCase().replace(/[^A-Z0-9]/g, '')}`;
            slack.addUser({ id: user, name: entry.author.toLowerCase(), displayName: entry.author });
            const text = `${entry.pingEveryone ? '<!channel> ' : ''}${entry.mentionSomeone ? `<@${someoneElse}> ` : ''}${entry.text}`;
            const ts = slack.addMessage({
              channel: defaultChannel,
              user,
              text,
              ts: messageTs(),
              ...(index > 0 && root ? { threadTs: root } : {}),
            });
            root ??= ts;
            latest.set(root, { ts, text, user, ...(ts === root ? {} : { threadTs: root }) });
          }
          if (!root) throw new Error('a thread needs a message');
          return { id: root };
        },
        askOnNewMessage: async (text) => {
          const ts = slack.addMessage({ channel: defaultChannel, user: 'UPOSTER', text, ts: messageTs() });
          latest.set(ts, { ts, text, user: 'UPOSTER' });
          await shortcut(latest.get(ts)!);
          return { id: ts };
        },
        askOnLatest: async (thread) => {
          const message = latest.get(thread.id);
          if (!message) throw new Error('no person’s message in that thread');
          await shortcut(message);
        },
        askOnBotReply: async (thread) => {
          const reply = slack
            .messages(channelOf(thread), thread.id)
            .filter((message) => !message.user)
            .at(-1);
          if (!reply) throw new Error('no reply of the bot in that thread');
          const before = slack.callsTo('chat.postEphemeral').length;
          // As Slack sends a bot's message: its user is the bot's user.
          await shortcut({
            ts: reply.ts,
            threadTs: thread.id,
            text: reply.text ?? '',
            user: slack.botUserId,
          });
          const told = await slack.waitFor(
            () => slack.callsTo('chat.postEphemeral')[before],
            10_000,
            'the notice',
          );
          if (told.body.user !== 'UASKER') throw new Error('the notice went to someone else');
          return String(told.body.text);
        },
        someoneElseMention: `<@${someoneElse}>`,
        failNextThreadRead: () => slack.failNext('conversations.replies', 'missing_scope'),
        modelCalls: () =>
          harness.ollama.chatRequests().map((request) => ({
            role: roleOf(request),
            text: request.messages.map((message) => message.content).join('\n'),
          })),
        replies: async (thread, count) => {
          await harness.waitForReply(channelOf(thread), thread.id, count);
          await slack.waitFor(() => finished(thread).length >= count);
          return finished(thread);
        },
        repliesNow: finished,
        shownTexts: () => {
          const streams = new Map<string, string>();
          const texts: string[] = [];
          for (const call of slack.calls) {
            if (call.method === 'chat.startStream') continue;
            if (call.method === 'chat.appendStream') {
              const ts = String(call.body.ts);
              streams.set(ts, `${streams.get(ts) ?? ''}${String(call.body.markdown_text ?? '')}`);
            } else if (call.method === 'chat.postMessage' || call.method === 'chat.update')
              texts.push(JSON.stringify({ text: call.body.text, blocks: call.body.blocks }));
          }
          // A stream's first piece came with chat.startStream (its ts is in the fake's message list).
          const started = slack
            .callsTo('chat.startStream')
            .map((call) => String(call.body.markdown_text ?? ''));
          const streamed = slack
            .messages(defaultChannel)
            .filter((message) => message.streamed)
            .map((message, index) => `${started[index] ?? ''}${streams.get(message.ts) ?? ''}`);
          return [...texts, ...streamed];
        },
        questionsAsked: () =>
          harness.ollama
            .chatRequests()
            .filter((request) => request.format)
            .map(userMessageOf),
        postTopLevel: async (text, postOptions = {}) => {
          const { ts, envelope } = harness.envelope(
            'message',
            postOptions.mentionSomeoneElse ? `<@${someoneElse}> ${text}` : text,
          );
          lastEnvelope.set(ts, envelope);
          await deliver(envelope);
          return { id: ts };
        },
        setAutoAnswer: (on, commandOptions = {}) =>
          command(`autoanswer ${on ? 'on' : 'off'}`, commandOptions.admin === false ? member : admin),
        command: (subcommand) => command(subcommand, defaultUser),
        addChannelDocument: async (name, text) => {
          const scope = `slack:${slack.teamId}:${defaultChannel}`;
          const bytes = new TextEncoder().encode(text);
          await harness.services.ingestion.ingest({ name, bytes, scope, uploader: defaultUser });
        },
        forget: (name, as) =>
          command(`forget ${name}`, as === 'admin' ? admin : as === 'member' ? member : defaultUser),
        barrier: async () => {
          await harness.barrier();
        },
        messageLimit: markdownPerMessage,
        answerParts: async (thread) => answerMessages(thread).then((messages) => messages.map(markdownOf)),
        pingsSent: () =>
          slack.calls
            .filter((call) => call.method.startsWith('chat.'))
            .map((call) => JSON.stringify(call.body))
            .filter((body) => /<!(?:channel|here|everyone|subteam\^)|<@[UW]/.test(body)),
        pingTexts: [
          '<!channel>',
          '<!here>',
          '<!everyone>',
          '<!subteam^S0TEAM>',
          '<@U0BOB>',
          '@here',
          '@everyone',
        ],
        vote: async (thread, value, user) => {
          const [answer] = (await answerMessages(thread)).slice(-1);
          const block = answer?.blocks.find((candidate) =>
            ['context_actions', 'actions'].includes((candidate as { type: string }).type),
          ) as { type: string; block_id: string; elements: Array<Record<string, unknown>> } | undefined;
          if (!answer || !block) throw new Error('no feedback controls under the answer');
          const element = block.elements[0] as {
            type: string;
            action_id: string;
            positive_button?: { value: string };
            negative_button?: { value: string };
          };
          const feedbackElement = element.type === 'feedback_buttons';
          const clicked = feedbackElement
            ? {
                action_id: element.action_id,
                value: element[value === 'up' ? 'positive_button' : 'negative_button']?.value,
              }
            : (block.elements.find((candidate) => candidate.action_id === `ragent_feedback_${value}`) as
                | { action_id: string; value: string }
                | undefined);
          if (!clicked?.value) throw new Error(`no ${value} control under the answer`);
          const payload = blockAction({
            team: slack.teamId,
            user: userId(user),
            channel: defaultChannel,
            messageTs: answer.ts,
            threadTs: thread.id,
            actionId: clicked.action_id,
            value: clicked.value,
            ...(feedbackElement ? { type: 'feedback_buttons' as const, blockId: block.block_id } : {}),
          });
          if (mode === 'socket') await slack.sendEnvelope(payload, { type: 'interactive' });
          else {
            const delivery = await harness.sender.interaction(payload);
            if (delivery.status !== 200) throw new Error(`click rejected: HTTP ${delivery.status}`);
          }
        },
        votes: async (thread) =>
          (
            await harness.services.coordination.listFeedback({
              threadId: `slack:${slack.teamId}:${defaultChannel}:${thread.id}`,
            })
          ).map(({ user, value }) => ({
            user: [...userIds].find(([, id]) => id === user)?.[0] ?? user,
            value,
          })),
        ingest: async (file) => {
          sharedFiles += 1;
          const shared = slack.addFile({
            id: `FCONTRACT${sharedFiles}`,
            name: file.name,
            mimetype: 'application/octet-stream',
            bytes: file.bytes,
          });
          const ts = await harness.mention('ingest', { subtype: 'file_share', files: [shared] });
          const [status] = await harness.waitForReply(defaultChannel, ts);
          if (!status) throw new Error('no ingest status');
          const done = /:white_check_mark:|:x:|:warning:/;
          const final = await slack.waitFor(() => {
            const now = slack.messages(defaultChannel, ts).find((message) => message.ts === status.ts);
            return now && done.test(now.text) ? now : undefined;
          }, 20_000);
          const statuses = slack.calls
            .filter(
              (call) =>
                (call.method === 'chat.postMessage' && call.body.thread_ts === ts) ||
                (call.method === 'chat.update' && call.body.ts === status.ts),
            )
            .map((call) => `${String(call.body.text ?? '')}\n${JSON.stringify(call.body.blocks ?? [])}`);
          return { statuses, result: `${final.text}\n${blockText(final)}` };
        },
        crashMidAnswer: async (text) => ({ id: await harness.crashMidTurn(() => harness.mention(text)) }),
        resume: () => harness.resume(),
        restart: () => harness.restart(),
        botMessages: (thread) =>
          slack
            .messages(defaultChannel, thread.id)
            .filter((message) => message.ts !== thread.id)
            .map((message) => `${message.text}\n${blockText(message)}`),
        askPrivately: async (text) => {
          const id = `ask-${++asked}`;
          await sendCommand(
            slashCommand({
              team: slack.teamId,
              channel: defaultChannel,
              user: defaultUser,
              text: `ask ${text}`,
              responseUrl: slack.responseUrl(id),
            }),
          );
          return { id };
        },
        privateReply: async (ask) => {
          const reply = await slack.waitFor(
            () => slack.responses(ask.id).find((post) => !String(post.text).includes(privateWorkingText)),
            15_000,
            `the private reply to ${ask.id}`,
          );
          return JSON.stringify({ text: reply.text, blocks: reply.blocks });
        },
        share: async (ask, shareOptions = {}) => {
          const blocks = (slack.responses(ask.id).at(-1)?.blocks ?? []) as Array<{
            elements?: Array<{ action_id?: string; value?: string }>;
          }>;
          const value = blocks
            .flatMap((block) => block.elements ?? [])
            .find((element) => element.action_id === 'ragent_share')?.value;
          if (!value) throw new Error(`no Share button on ${ask.id}`);
          const id = `share-${++pressed}`;
          const payload = blockAction({
            team: slack.teamId,
            user: shareOptions.bySomeoneElse ? someoneElse : defaultUser,
            channel: defaultChannel,
            messageTs: messageTs(),
            actionId: 'ragent_share',
            value,
            responseUrl: slack.responseUrl(id),
            isEphemeral: true,
          });
          if (mode === 'socket') await slack.sendEnvelope(payload, { type: 'interactive' });
          else {
            const delivery = await harness.sender.interaction(payload);
            if (delivery.status !== 200) throw new Error(`press rejected: HTTP ${delivery.status}`);
          }
          const told = await slack.waitFor(
            () => (slack.responses(id).length > 0 ? slack.responses(id) : undefined),
            15_000,
            `the answer to ${id}`,
          );
          return told.map((post) => JSON.stringify({ text: post.text, blocks: post.blocks }));
        },
        publicTexts: () => driver.shownTexts(),
        modelRequests: () =>
          harness.ollama
            .chatRequests()
            .map((request) => request.messages.map((message) => message.content).join('\n')),
        pressVerify: (thread, as) => {
          const answer = latestAnswer(thread);
          return pressFor(as === 'admin' ? listedAdmin : listedMember, answer, thread, {
            actionId: 'ragent_verify',
            value: elementOf(answer, 'ragent_verify'),
          });
        },
        answerControls: (thread) => JSON.stringify(latestAnswer(thread).blocks),
        pressThumbsDown: (thread) => {
          const answer = latestAnswer(thread);
          const element = JSON.stringify(answer.blocks).includes('feedback_buttons')
            ? (answer.blocks as Array<{ elements?: Array<Record<string, unknown>> }>)
                .flatMap((block) => block.elements ?? [])
                .find((each) => each.type === 'feedback_buttons')
            : undefined;
          const value = element
            ? String((element.negative_button as { value: string }).value)
            : elementOf(answer, 'ragent_feedback_down');
          return pressFor(defaultUser, answer, thread, {
            actionId: element ? 'ragent_feedback' : 'ragent_feedback_down',
            value,
            ...(element ? { type: 'feedback_buttons' as const } : {}),
          });
        },
        chooseReason: async (thread, reason, comment) => {
          const chooser = slack
            .callsTo('chat.postEphemeral')
            .filter(
              (call) =>
                call.body.user === defaultUser &&
                JSON.stringify(call.body.blocks ?? []).includes('ragent_reason_'),
            )
            .at(-1);
          if (!chooser) throw new Error('no reason chooser');
          const blocks = chooser.body.blocks;
          const parsed: unknown = typeof blocks === 'string' ? JSON.parse(blocks) : blocks;
          const value = String(findElement(parsed, `ragent_reason_${reason}`)?.value ?? '');
          const opened = slack.callsTo('views.open').length;
          await interact(
            blockAction({
              team: slack.teamId,
              user: defaultUser,
              channel: defaultChannel,
              messageTs: messageTs(),
              threadTs: thread.id,
              actionId: `ragent_reason_${reason}`,
              value,
            }),
          );
          if (reason === 'other') {
            const open = await slack.waitFor(() => slack.callsTo('views.open')[opened]);
            const view = open.body.view as { private_metadata: string; callback_id: string };
            await interact(
              viewSubmission({
                team: slack.teamId,
                user: defaultUser,
                callbackId: view.callback_id,
                privateMetadata: view.private_metadata,
                values: {
                  ragent_reason_comment: { comment: { type: 'plain_text_input', value: comment ?? '' } },
                },
              }),
            );
          }
          await waitForStoredReason(harness.services, reason, comment);
        },
        pressAskPerson: (thread) => {
          const answer = latestAnswer(thread);
          return pressFor(defaultUser, answer, thread, {
            actionId: 'ragent_ask_person',
            value: elementOf(answer, 'ragent_ask_person'),
          });
        },
        setHandOff: async (target) => {
          const responseId = `handoff-${Math.random()}`;
          const fields = slashCommand({
            team: slack.teamId,
            channel: defaultChannel,
            user: listedAdmin,
            text: target === 'off' ? 'handoff off' : `handoff <!subteam^${handOffTargets.other}|@oncall>`,
            responseUrl: slack.responseUrl(responseId),
          });
          if (mode === 'socket') await slack.sendEnvelope(fields, { type: 'slash_commands' });
          else await harness.sender.command(fields);
          const [reply] = await slack.waitFor(() => {
            const posts = slack.responses(responseId);
            return posts.length > 0 ? posts : undefined;
          });
          return String(reply?.text);
        },
        handOffTargets,
        handOffLines: (thread) =>
          slack
            .messages(defaultChannel, thread.id)
            .filter((message) => isHandOffLine(message.text))
            .map((message): HandOffLine => ({ text: message.text, pings: slackPings(message.text) })),
        chatRequests: () => harness.ollama.chatRequests().length,
        modelPrompts: () =>
          harness.ollama
            .chatRequests()
            .map((request) => request.messages.map((message) => message.content).join('\n')),
        services: () => harness.services,
        close: () => harness.close(),
        mentionWithFile: async (text, files) => {
          const shared = files.map((file) => {
            fileCounter += 1;
            return harness.slack.addFile({
              id: `FCONTRACT${fileCounter}`,
              name: file.name,
              mimetype: 'application/octet-stream',
              bytes: file.bytes,
            });
          });
          return { id: await harness.mention(text, { subtype: 'file_share', files: shared }) };
        },
        mentionInOtherChannel: async (text) => {
          const ts = await harness.mention(text, { channel: otherChannel });
          otherChannelThreads.add(ts);
          return { id: ts };
        },
        toolResults: () => harness.ollama.chatRequests().flatMap(toolMessages),
      };
      return driver;
    },
  };
}

/** Whom Slack would notify for this text: user groups, users and the special mentions. */
function slackPings(text: string): string[] {
  return [...text.matchAll(/<(!subteam\^|@|!)([A-Za-z0-9]+)(?:\|[^>]*)?>/g)].map((match) => match[2] ?? '');
}

/** The element with this action id anywhere in the blocks. */
function findElement(blocks: unknown, actionId: string): Record<string, unknown> | undefined {
  if (Array.isArray(blocks)) {
    for (const item of blocks) {
      const found = findElement(item, actionId);
      if (found) return found;
    }
    return undefined;
  }
  if (!blocks || typeof blocks !== 'object') return undefined;
  const record = blocks as Record<string, unknown>;
  if (record.action_id === actionId) return record;
  for (const value of Object.values(record)) {
    const found = findElement(value, actionId);
    if (found) return found;
  }
  return undefined;
}
