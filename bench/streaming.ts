/**
 * `npm run bench:streaming`: 20 threads asked at once; the fake model thinks 2 s, then streams its
 * answer at 30 tokens/s (90 tokens). Over the real clients (Bolt + fake Slack Web API, discord.js +
 * fake Discord) with the production intervals and edit budgets, it measures:
 * - model's first token → first answer text visible in the fake platform, p50/p95/max per thread
 *   (goal ≤ 500 ms). The first token's time is when the fake model was asked + 2 s + one token
 *   interval (a loaded machine only makes the real one later, so the figure errs high);
 * - answer edits (chat.update / message edits and posts of streamed text) per thread and overall.
 * Usage: npm run bench:streaming [-- <threads>] (default 20).
 */
import { startDiscord } from '../src/platforms/discord/start-discord.ts';
import { writingMark } from '../src/platforms/slack/render-reply.ts';
import { defaultScripts } from '../test/discord/discord-harness.ts';
import { fakeApplicationId, fakeBotToken, startFakeDiscord } from '../test/fakes/fake-discord.ts';
import { type ChatScript, type FakeChatRequest, startFakeOllama } from '../test/fakes/fake-ollama.ts';
import { eventEnvelope, messageTs } from '../test/fakes/fake-slack-events.ts';
import { defaultUser, startSlackHarness } from '../test/slack/slack-harness.ts';
import { roleOf } from '../test/support/model-roles.ts';
import { createTestServices } from '../test/support/test-services.ts';

const threads = Number(process.argv[2] ?? 20);
const thinkMs = 2_000;
const tokenMs = Math.round(1_000 / 30);
const tokens = 90;

/** The model: like the tests', but the final answer of question N is `N-answer word word …`, streamed slowly. */
function streamingModel(firstTokenAt: Map<number, number>): ChatScript {
  return (request: FakeChatRequest, index) => {
    const role = roleOf(request);
    if (role === 'unknown') return { content: 'unexpected' };
    const text = request.messages.map((message) => message.content ?? '').join('\n');
    const number = Number(/Question number (\d+)/.exec(text)?.[1] ?? 0);
    if (role === 'orchestrator' && request.messages.some((message) => message.role === 'tool')) {
      firstTokenAt.set(number, Date.now() + thinkMs + tokenMs);
      const words = Array.from({ length: tokens - 1 }, (_, i) => `word${i}`).join(' ');
      return { content: `A${number}-answer ${words}`, delayMs: thinkMs, tokenDelayMs: tokenMs };
    }
    return defaultScripts[role](request, index);
  };
}

function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? Number.NaN;
}

function summary(values: number[]): string {
  if (values.length === 0) return 'no samples';
  return `p50 ${percentile(values, 0.5)} ms, p95 ${percentile(values, 0.95)} ms, max ${Math.max(...values)} ms (${values.length} threads)`;
}

/** The most events in any window of `windowMs`. */
function peak(times: number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  let start = 0;
  for (let end = 0; end < sorted.length; end++) {
    while ((sorted[end] ?? 0) - (sorted[start] ?? 0) >= windowMs) start++;
    best = Math.max(best, end - start + 1);
  }
  return best;
}

async function benchSlack(native: boolean): Promise<void> {
  const firstTokenAt = new Map<number, number>();
  const harness = await startSlackHarness({
    model: streamingModel(firstTokenAt),
    // Generous timeouts: with two model calls at a time, a loaded machine must not fail answers (the
    // bench measures streaming, not the queue).
    environment: { RAGENT_ANSWER_TIMEOUT_S: '300', RAGENT_NODE_TIMEOUT_S: '240', OLLAMA_TIMEOUT_S: '120' },
    // Production intervals and edit budget (the adapter's defaults).
    adapter: {
      statusThrottleMs: 1_000,
      textIntervalMs: 1_000,
      progressEditsPerMinute: 30,
      streamAppendsPerMinute: 80,
    },
  });
  const { slack } = harness;
  slack.setStreamingSupported(native);
  try {
    const channel = 'CSTREAM';
    const asked = Array.from({ length: threads }, (_, index) => ({ number: index + 1, ts: messageTs() }));
    const started = Date.now();
    await Promise.all(
      asked.map(async ({ number, ts }) => {
        const text = `<@${slack.botUserId}> Question number ${number}: how do loops work?`;
        const envelope = eventEnvelope(
          'app_mention',
          { team: slack.teamId, channel, user: defaultUser, ts, text },
          slack.botUserId,
        );
        await harness.sender.event(envelope);
      }),
    );
    const finished = () =>
      asked.filter(({ ts }) =>
        slack
          .messages(channel, ts)
          .some((message) => JSON.stringify(message.blocks).includes('ragent_feedback')),
      ).length;
    await slack
      .waitFor(() => finished() === threads || undefined, 300_000, 'every answer')
      .catch(() => undefined);
    const seconds = (Date.now() - started) / 1000;

    const delays: number[] = [];
    const perThreadRates: number[] = [];
    const allEdits: number[] = [];
    const allAppends: number[] = [];
    let beforeDone = 0;
    for (const { number, ts } of asked) {
      const own = new Set(slack.messages(channel, ts).map((message) => message.ts));
      const streamed = slack.calls.filter(
        (call) =>
          (call.method === 'chat.startStream' && call.body.thread_ts === ts) ||
          ((call.method === 'chat.update' || call.method === 'chat.postMessage') &&
            call.body.channel === channel &&
            (call.body.thread_ts === ts || own.has(String(call.body.ts))) &&
            JSON.stringify(call.body.blocks ?? []).includes(writingMark)),
      );
      const first = streamed[0];
      const tokenAt = firstTokenAt.get(number);
      if (first && tokenAt) delays.push(Math.max(0, first.at - tokenAt));
      // The answer is complete when the model's last token is out (90 tokens after the first).
      if (first && tokenAt && first.at < tokenAt + (tokens - 1) * tokenMs) beforeDone++;
      const streamTs = new Set(
        slack.messages(channel, ts).flatMap((message) => (message.streamed ? [message.ts] : [])),
      );
      allAppends.push(
        ...slack.calls
          .filter(
            (call) =>
              (call.method === 'chat.startStream' && call.body.thread_ts === ts) ||
              (call.method === 'chat.appendStream' && streamTs.has(String(call.body.ts))),
          )
          .map((call) => call.at),
      );
      const edits = slack.calls.filter(
        (call) =>
          call.method === 'chat.update' && call.body.channel === channel && own.has(String(call.body.ts)),
      );
      allEdits.push(...edits.map((call) => call.at));
      perThreadRates.push(
        peak(
          edits.map((call) => call.at),
          60_000,
        ),
      );
    }
    console.log(
      `Slack (${native ? 'chat.startStream/appendStream' : 'chat.update fallback'}; budgets: chat.update 30/min burst 20, stream 80/min burst 20; text ≤ 1/s/thread) — ${threads} threads`,
    );
    console.log(`  first token → first text visible: ${summary(delays)}`);
    console.log(`  threads showing text before their answer was complete: ${beforeDone}/${threads}`);
    console.log(
      `  chat.update per thread: max ${Math.max(...perThreadRates)} in a minute; overall: ${allEdits.length} in ${seconds.toFixed(1)} s, peak ${peak(allEdits, 60_000)} in any minute (Slack Tier 3: ~50/min per workspace)`,
    );
    if (native)
      console.log(
        `  chat.startStream + appendStream: ${allAppends.length}, peak ${peak(allAppends, 60_000)} in any minute (appendStream Tier 4: 100+/min)`,
      );
    console.log(`  answered: ${finished()}/${threads}`);
  } finally {
    await harness.close();
  }
}

async function benchDiscord(): Promise<void> {
  const firstTokenAt = new Map<number, number>();
  const ollama = await startFakeOllama({ chat: streamingModel(firstTokenAt) });
  const discord = await startFakeDiscord();
  const { channelId } = discord.addGuild('bench');
  const services = await createTestServices({
    ollamaUrl: ollama.url,
    environment: {
      DISCORD_TOKEN: fakeBotToken,
      DISCORD_APPLICATION_ID: fakeApplicationId,
      DISCORD_API_URL: discord.apiUrl,
      RAGENT_ANSWER_TIMEOUT_S: '300',
      RAGENT_NODE_TIMEOUT_S: '240',
      OLLAMA_TIMEOUT_S: '120',
    },
  });
  const adapter = await startDiscord(services, {});
  try {
    const started = Date.now();
    const mentions = Array.from({ length: threads }, (_, index) =>
      discord.postMessage({
        channelId,
        content: `Question number ${index + 1}: how do loops work?`,
        mentionBot: true,
      }),
    );
    const done = (threadId: string) =>
      discord.channelMessages(threadId).some((message) => message.components.length > 0);
    await discord
      .waitFor(() => mentions.every((message) => done(message.id)) || undefined, 300_000, 'every answer')
      .catch(() => undefined);
    const seconds = (Date.now() - started) / 1000;

    const delays: number[] = [];
    const perChannelPeaks: number[] = [];
    const all: number[] = [];
    for (const [index, mention] of mentions.entries()) {
      const threadId = mention.id;
      const writes = discord.requests.filter(
        (request) =>
          (request.method === 'PATCH' || request.method === 'POST') &&
          request.path.startsWith(`/api/v10/channels/${threadId}/messages`),
      );
      const streamed = writes.filter((request) =>
        String((request.body as { content?: string } | undefined)?.content ?? '').endsWith('✍️ writing…'),
      );
      const tokenAt = firstTokenAt.get(index + 1);
      if (streamed[0] && tokenAt) delays.push(Math.max(0, streamed[0].at - tokenAt));
      const edits = writes.filter((request) => request.method === 'PATCH').map((request) => request.at);
      perChannelPeaks.push(peak(edits, 5_000));
    }
    all.push(
      ...discord.requests.filter((request) => request.path.startsWith('/api/')).map((request) => request.at),
    );
    console.log(`Discord (message edits, text ≤ 1/s/thread) — ${threads} threads`);
    console.log(`  first token → first text visible: ${summary(delays)}`);
    console.log(
      `  edits per thread: max ${Math.max(...perChannelPeaks)} in any 5 s (Discord: 5 / 5 s per channel); all requests: ${all.length} in ${seconds.toFixed(1)} s, peak ${peak(all, 1_000)} in any second (Discord: 50/s)`,
    );
    console.log(`  answered: ${mentions.filter((message) => done(message.id)).length}/${threads}`);
  } finally {
    await adapter.stop();
    await services.dispose();
    await discord.close();
    await ollama.close();
  }
}

async function main(): Promise<void> {
  console.log(
    `ragent streaming bench — model thinks ${thinkMs} ms, then ${tokens} tokens at 30/s; goal: first text ≤ 500 ms after the first token`,
  );
  await benchSlack(true);
  await benchSlack(false);
  await benchDiscord();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
