/** The contract driver for Slack: the real Slack module against the fake Web API, over HTTP or Socket Mode. */

import { privateWorkingText } from '../../../src/turns/messages-en.ts';
import type { ChatScript } from '../../fakes/fake-ollama.ts';
import { blockAction, messageTs, slashCommand } from '../../fakes/fake-slack-events.ts';
import {
  blockText,
  defaultChannel,
  defaultUser,
  isPlaceholder,
  startSlackHarness,
} from '../../slack/slack-harness.ts';
import { slackModel, userMessageOf } from '../../slack/slack-model.ts';
import type { ContractThread, DriverFactory, PlatformDriver } from './platform-driver.ts';

export function slackDriver(mode: 'http' | 'socket'): DriverFactory {
  return {
    name: `Slack (${mode === 'http' ? 'HTTP' : 'Socket Mode'})`,
    start: async (options = {}) => {
      const harness = await startSlackHarness({
        mode,
        model: options.model ?? (slackModel as ChatScript),
        ...(options.environment ? { environment: options.environment } : {}),
      });
      const { slack } = harness;
      if (options.streaming === false) slack.setStreamingSupported(false);
      /** The latest person's message per thread, as sent (to redeliver it). */
      const lastEnvelope = new Map<string, Record<string, unknown>>();
      const someoneElse = 'UDANA';
      let asked = 0;
      let pressed = 0;
      const command = async (fields: Record<string, string>) => {
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
      const finished = (thread: ContractThread) =>
        slack
          .messages(defaultChannel, thread.id)
          .filter((message) => message.ts !== thread.id && !isPlaceholder(message))
          .map((message) => `${message.text}\n${blockText(message)}`);
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
        askPrivately: async (text) => {
          const id = `ask-${++asked}`;
          await command(
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
        close: () => harness.close(),
      };
      return driver;
    },
  };
}
