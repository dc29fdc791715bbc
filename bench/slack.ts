/**
 * `npm run bench:slack`: 100 people mention the bot in 100 different threads at the same moment, the
 * model answering with no latency (fake Ollama). Over the real Bolt app (HTTP receiver, signed
 * events) and the local fake Slack Web API, it measures:
 * - event → first status visible in the thread (assistant status or placeholder message reaching
 *   the fake Slack), p50/p95/p99/max — the goal is ≤ 1 s at p99;
 * - event → answer in the thread, p50/p99;
 * - how many of the mentions were answered.
 * Usage: npm run bench:slack [-- <mentions>] (default 100). Set BENCH_SOCKET=1 for Socket Mode.
 */
import { eventEnvelope, messageTs } from '../test/fakes/fake-slack-events.ts';
import { defaultUser, isPlaceholder, startSlackHarness } from '../test/slack/slack-harness.ts';

const mentions = Number(process.argv[2] ?? 100);
const socket = process.env.BENCH_SOCKET === '1';

function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? Number.NaN;
}

function describe(label: string, values: number[]): string {
  if (values.length === 0) return `${label}: no samples`;
  const figures = [0.5, 0.95, 0.99].map(
    (fraction) => `p${Math.round(fraction * 100)} ${percentile(values, fraction)} ms`,
  );
  return `${label}: ${figures.join(', ')}, max ${Math.max(...values)} ms`;
}

async function main(): Promise<void> {
  const harness = await startSlackHarness({
    mode: socket ? 'socket' : 'http',
    environment: { RAGENT_ANSWER_TIMEOUT_S: '300', RAGENT_NODE_TIMEOUT_S: '120', OLLAMA_TIMEOUT_S: '120' },
  });
  const { slack } = harness;
  try {
    // Warm up once so that module loading and the first SQLite pages are not measured.
    const warm = await harness.mention('warm up', { channel: 'CWARM' });
    await harness.waitForReply('CWARM', warm);

    const channel = 'CBENCH';
    const threads = Array.from({ length: mentions }, (_unused, index) => ({
      ts: messageTs(),
      text: `<@${slack.botUserId}> Question number ${index + 1}: how do loops work?`,
    }));
    const sentAt = new Map<string, number>();
    const started = Date.now();
    await Promise.all(
      threads.map(async ({ ts, text }) => {
        const envelope = eventEnvelope(
          'app_mention',
          { team: slack.teamId, channel, user: defaultUser, ts, text },
          slack.botUserId,
        );
        sentAt.set(ts, Date.now());
        if (socket) await slack.sendEnvelope(envelope, { type: 'events_api' });
        else {
          const delivery = await harness.sender.event(envelope);
          if (delivery.status !== 200) throw new Error(`event rejected: HTTP ${delivery.status}`);
        }
      }),
    );
    const acked = Date.now() - started;

    const answered = () =>
      threads.filter(({ ts }) =>
        slack.messages(channel, ts).some((message) => message.ts !== ts && !isPlaceholder(message)),
      ).length;
    await slack
      .waitFor(() => answered() === mentions || undefined, 300_000, 'every answer')
      .catch(() => undefined);

    const statusLatencies: number[] = [];
    const answerLatencies: number[] = [];
    for (const { ts } of threads) {
      const sent = sentAt.get(ts) ?? started;
      const firstStatus = slack.calls.find(
        (call) =>
          (call.method === 'chat.postMessage' && call.body.thread_ts === ts) ||
          (call.method === 'assistant.threads.setStatus' && call.body.thread_ts === ts),
      );
      if (firstStatus) statusLatencies.push(firstStatus.at - sent);
      const answer = slack.calls.find(
        (call) =>
          call.method === 'chat.update' &&
          call.body.channel === channel &&
          JSON.stringify(call.body.blocks ?? '').includes('ragent_feedback') &&
          slack.messages(channel, ts).some((message) => message.ts === call.body.ts),
      );
      if (answer) answerLatencies.push(answer.at - sent);
    }

    console.log(
      `ragent Slack bench — ${mentions} mentions at once, ${socket ? 'Socket Mode' : 'HTTP receiver'}, zero-latency model`,
    );
    console.log(`all events acknowledged by the receiver in ${acked} ms`);
    console.log(describe('event → first status in the thread', statusLatencies));
    console.log(describe('event → answer in the thread', answerLatencies));
    console.log(`answered: ${answered()}/${mentions}`);
    const p99 = percentile(statusLatencies, 0.99);
    console.log(`goal p99 status ≤ 1000 ms: ${p99 <= 1000 ? 'met' : 'NOT met'} (${p99} ms)`);
  } finally {
    await harness.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
