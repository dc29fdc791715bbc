import { startSlack } from './src/adapters/slack/start-slack.ts';
import { createLogger } from './src/logger.ts';
import { startFakeSlackApi } from './test/fakes/fake-slack-api.ts';
import { createSlackEventSender, eventEnvelope, messageTs } from './test/fakes/fake-slack-events.ts';
import { startFakeOllama } from './test/fakes/fake-ollama.ts';
import { createTestServices } from './test/support/test-services.ts';
import { freePort, signingSecret } from './test/slack/slack-harness.ts';
const slack = await startFakeSlackApi();
const ollama = await startFakeOllama();
const port = await freePort();
const services = await createTestServices({ ollamaUrl: ollama.url, environment: { SLACK_BOT_TOKEN: slack.botToken, SLACK_API_URL: slack.apiUrl, SLACK_PORT: String(port), SLACK_SIGNING_SECRET: signingSecret, RAGENT_EMBEDDINGS: 'none' } });
const conversations = { ...services.conversations, handle: async () => ({ kind: 'stopped' as const, message: 'x' }) };
const adapter = await startSlack({ ...services, conversations, logger: createLogger({ level: 'silent' }) }, { statusThrottleMs: 20 });
const sender = createSlackEventSender(`http://127.0.0.1:${port}/slack/events`, signingSecret);
for (const round of [1, 2, 3]) {
const sent = new Map<string, number>();
const tss = Array.from({ length: 100 }, () => messageTs());
const t0 = Date.now();
await Promise.all(tss.map(async (ts) => { sent.set(ts, Date.now()); await sender.event(eventEnvelope('app_mention', { team: slack.teamId, channel: 'C1', user: 'U1', ts, text: `<@${slack.botUserId}> q` }, slack.botUserId)); }));
const acked = Date.now() - t0;
await new Promise((r) => setTimeout(r, 3000));
const lat = tss.map((ts) => (slack.calls.find((c) => c.method === 'chat.postMessage' && c.body.thread_ts === ts)?.at ?? 1e9) - (sent.get(ts) ?? 0)).sort((a, b) => a - b);
console.log(round, 'acked in', acked, 'adapter-only status p50', lat[49], 'p99', lat[98]);
}
await adapter.stop(); await services.dispose(); await slack.close(); await ollama.close();
