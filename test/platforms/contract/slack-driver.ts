/** The contract driver for Slack: the real Slack module against the fake Web API, over HTTP or Socket Mode. */
import type { ChatScript } from '../../fakes/fake-ollama.ts';
import type { FakeSlackMessage } from '../../fakes/fake-slack-api.ts';
import { blockAction, messageTs, slashCommand, viewSubmission } from '../../fakes/fake-slack-events.ts';
import {
  blockText,
  defaultChannel,
  defaultUser,
  isPlaceholder,
  startSlackHarness,
} from '../../slack/slack-harness.ts';
import { slackModel, userMessageOf } from '../../slack/slack-model.ts';
import {
  type ContractThread,
  type DriverFactory,
  type HandOffLine,
  isHandOffLine,
  type PlatformDriver,
  waitForStoredReason,
} from './platform-driver.ts';

const admin = 'UADMIN';
const member = 'UMEMBER';
const handOffTargets = { default: 'S0SUPPORT', other: 'S0ONCALL' };

export function slackDriver(mode: 'http' | 'socket'): DriverFactory {
  return {
    name: `Slack (${mode === 'http' ? 'HTTP' : 'Socket Mode'})`,
    start: async (options = {}) => {
      const harness = await startSlackHarness({
        mode,
        model: options.model ?? (slackModel as ChatScript),
        environment: {
          RAGENT_ADMINS: admin,
          ...(options.handOff ? { RAGENT_HANDOFF_SLACK: handOffTargets.default } : {}),
          ...options.environment,
        },
      });
      const { slack } = harness;
      slack.addUser({ id: admin, name: 'ada' });
      slack.addUser({ id: member, name: 'max' });
      slack.addUser({ id: defaultUser, name: 'alice' });
      if (options.streaming === false) slack.setStreamingSupported(false);
      /** The latest person's message per thread, as sent (to redeliver it). */
      const lastEnvelope = new Map<string, Record<string, unknown>>();
      const someoneElse = 'UDANA';
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
      const finished = (thread: ContractThread) =>
        slack
          .messages(defaultChannel, thread.id)
          .filter((message) => message.ts !== thread.id && !isPlaceholder(message))
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
            ...(user === admin ? { userName: 'ada' } : {}),
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
        replies: async (thread, count) => {
          await harness.waitForReply(defaultChannel, thread.id, count);
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
        barrier: async () => {
          await harness.barrier();
        },
        pressVerify: (thread, as) => {
          const answer = latestAnswer(thread);
          return pressFor(as === 'admin' ? admin : member, answer, thread, {
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
            user: admin,
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
