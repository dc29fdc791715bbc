/**
 * `npm run bench:discord`: 100 people mention the bot at the same moment, the model answering with no
 * latency (fake Ollama). Measures, over the real discord.js client and a local fake Discord:
 * - mention → status message: from the MESSAGE_CREATE dispatch to the bot's first message in the
 *   new thread arriving at Discord (p50/p95/p99/max);
 * - mention → answer: until the status message was replaced by the answer;
 * - how many of the mentions were answered.
 * Note: discord.js enforces Discord's global limit of 50 requests per second per bot, as production
 * would; the second run lifts it to show the adapter's own overhead.
 */
import { startDiscord } from '../src/platforms/discord/start-discord.ts';
import { defaultScripts, roleOf } from '../test/discord/discord-harness.ts';
import {
  type FakeDiscord,
  fakeApplicationId,
  fakeBotToken,
  startFakeDiscord,
} from '../test/fakes/fake-discord.ts';
import { startFakeOllama } from '../test/fakes/fake-ollama.ts';
import { createTestServices } from '../test/support/test-services.ts';

const mentions = Number(process.argv[2] ?? 100);

async function run(label: string, restGlobalRequestsPerSecond: number | undefined): Promise<void> {
  const ollama = await startFakeOllama({
    chat: (request, index) => {
      const role = roleOf(request);
      return role === 'unknown' ? { content: 'unexpected' } : defaultScripts[role](request, index);
    },
  });
  const discord: FakeDiscord = await startFakeDiscord();
  const { channelId } = discord.addGuild('bench');
  const services = await createTestServices({
    ollamaUrl: ollama.url,
    environment: {
      DISCORD_TOKEN: fakeBotToken,
      DISCORD_APPLICATION_ID: fakeApplicationId,
      DISCORD_API_URL: discord.apiUrl,
      RAGENT_ANSWER_TIMEOUT_S: '300',
    },
  });
  const adapter = await startDiscord(services, {
    ...(restGlobalRequestsPerSecond ? { restGlobalRequestsPerSecond } : {}),
  });
  try {
    const started = Date.now();
    const posted = Array.from({ length: mentions }, (_, i) =>
      discord.postMessage({
        channelId,
        content: `Question number ${i + 1}: how do loops work?`,
        mentionBot: true,
      }),
    );
    const statusAt = (threadId: string) =>
      discord.requests.find(
        (request) => request.method === 'POST' && request.path === `/api/v10/channels/${threadId}/messages`,
      )?.at;
    const answered = (threadId: string) => {
      const [reply] = discord.channelMessages(threadId);
      return reply !== undefined && !reply.content.startsWith('⏳') ? reply : undefined;
    };
    await discord
      .waitFor(() => posted.every((message) => answered(message.id)), 120_000, 'every answer')
      .catch(() => undefined);
    const firstStatus = posted.map(
      (message) => (statusAt(message.id) ?? Number.NaN) - Date.parse(message.timestamp),
    );
    const answerLatency = posted.map((message) => {
      const reply = answered(message.id);
      return reply?.edited_timestamp
        ? Date.parse(reply.edited_timestamp) - Date.parse(message.timestamp)
        : Number.NaN;
    });
    const good = posted.filter((message) => {
      const reply = answered(message.id);
      return reply && !reply.content.startsWith('⚠️') && reply.components.length > 0;
    }).length;
    console.log(`\n${label}`);
    console.log(`  mention → status message: ${summary(firstStatus)}`);
    console.log(`  mention → answer:         ${summary(answerLatency)}`);
    console.log(`  answered: ${good}/${mentions} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await adapter.stop();
    await services.dispose();
    await discord.close();
    await ollama.close();
  }
}

function summary(values: number[]): string {
  const known = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  if (known.length === 0) return 'no data';
  const at = (p: number) => known[Math.min(known.length - 1, Math.ceil((p / 100) * known.length) - 1)]!;
  const missing = values.length - known.length;
  return `p50 ${at(50)} ms · p95 ${at(95)} ms · p99 ${at(99)} ms · max ${known.at(-1)} ms${missing ? ` (${missing} missing)` : ''}`;
}

console.log(
  `ragent Discord bench: ${mentions} mentions at once, zero-latency fake model, real discord.js client`,
);
await run("Discord's global REST limit (50 requests/s, as in production)", undefined);
await run('REST global limit lifted (the adapter and services alone)', 10_000);
