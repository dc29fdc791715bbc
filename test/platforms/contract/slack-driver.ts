/** The contract driver for Slack: the real Slack module against the fake Web API, over HTTP or Socket Mode. */
import type { ChatScript } from '../../fakes/fake-ollama.ts';
import { messageTs } from '../../fakes/fake-slack-events.ts';
import { blockText, defaultChannel, isPlaceholder, startSlackHarness } from '../../slack/slack-harness.ts';
import { slackModel, userMessageOf } from '../../slack/slack-model.ts';
import type { ContractThread, DriverFactory, PlatformDriver } from './platform-driver.ts';
import { toolMessages } from './tool-messages.ts';

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
      let fileCounter = 0;
      const otherChannel = 'C0OTHER';
      const otherChannelThreads = new Set<string>();
      const channelOf = (thread: ContractThread) =>
        otherChannelThreads.has(thread.id) ? otherChannel : defaultChannel;
      const finished = (thread: ContractThread) =>
        slack
          .messages(channelOf(thread), thread.id)
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
          await harness.waitForReply(channelOf(thread), thread.id, count);
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
