/**
 * Slack's side of private answers (`/ragent ask`), over the wire with two replicas on one PostgreSQL
 * behind one fake Slack: the answer (with its sources) reaches only the asker through the command's
 * `response_url` (or `chat.postEphemeral` where that URL fails); Share — pressed on either replica, or
 * on both at once — posts it in the channel once, credited by name (no ping), with its sources and
 * 👍/👎; a Share whose post Slack refuses says so.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type SlackAdapter, startSlack } from '../../src/platforms/slack/start-slack.ts';
import { alreadySharedText, privateWorkingText, sharedNoteText } from '../../src/turns/messages-en.ts';
import {
  blockAction,
  createSlackEventSender,
  messageTs,
  type SlackEventSender,
  slashCommand,
} from '../fakes/fake-slack-events.ts';
import { createTestDatabase } from '../support/postgres-database.ts';
import { createTestServices, type TestServices } from '../support/test-services.ts';
import { sharePdfForIngest } from './share-pdf-for-ingest.ts';
import {
  defaultChannel,
  defaultUser,
  freePort,
  type SlackHarness,
  signingSecret,
  startSlackHarness,
} from './slack-harness.ts';

describe('Slack: private answers with two replicas on PostgreSQL', () => {
  let harness: SlackHarness;
  let other: { services: TestServices; adapter: SlackAdapter; sender: SlackEventSender };
  let counter = 0;

  beforeAll(async () => {
    const databaseUrl = await createTestDatabase();
    harness = await startSlackHarness({
      environment: { DATABASE_URL: databaseUrl, RAGENT_REPLICA_ID: 'replica-a' },
    });
    const port = await freePort();
    const services = await createTestServices({
      ollamaUrl: harness.ollama.url,
      environment: {
        SLACK_BOT_TOKEN: harness.slack.botToken,
        SLACK_API_URL: harness.slack.apiUrl,
        SLACK_PORT: String(port),
        SLACK_SIGNING_SECRET: signingSecret,
        RAGENT_EMBEDDINGS: 'none',
        DATABASE_URL: databaseUrl,
        RAGENT_REPLICA_ID: 'replica-b',
      },
    });
    const adapter = await startSlack(services, {
      statusThrottleMs: 20,
      textIntervalMs: 50,
      progressEditsPerMinute: 6_000,
      retryConfig: { retries: 3, minTimeout: 10, maxTimeout: 50 },
    });
    other = {
      services,
      adapter,
      sender: createSlackEventSender(`http://127.0.0.1:${port}/slack/events`, signingSecret),
    };
    harness.slack.addUser({ id: defaultUser, name: 'Alice Example' });
    await sharePdfForIngest(
      harness,
      defaultChannel,
      'zebra-care.pdf',
      'The zebracount builtin counts the stripes of a zebra.',
    );
  });

  afterAll(async () => {
    await other?.adapter.stop();
    await other?.services.dispose();
    await harness?.close();
  });

  /** `/ragent ask <question>` on replica a; resolves with its response_url's id once the answer is there. */
  const ask = async (question: string, responseUrl?: string) => {
    const id = `ask-${++counter}`;
    const delivery = await harness.sender.command(
      slashCommand({
        team: harness.slack.teamId,
        channel: defaultChannel,
        user: defaultUser,
        text: `ask ${question}`,
        responseUrl: responseUrl ?? harness.slack.responseUrl(id),
      }),
    );
    expect(delivery.status).toBe(200);
    return id;
  };
  const finalReply = (id: string) =>
    harness.slack.waitFor(
      () => harness.slack.responses(id).find((post) => !String(post.text).includes(privateWorkingText)),
      20_000,
      `the private answer of ${id}`,
    );
  const shareValue = (post: Record<string, unknown>) =>
    ((post.blocks ?? []) as Array<{ elements?: Array<{ action_id?: string; value?: string }> }>)
      .flatMap((block) => block.elements ?? [])
      .find((element) => element.action_id === 'ragent_share')?.value;
  /** Presses Share through `sender` (a replica) and waits for what the presser is told. */
  const press = async (sender: SlackEventSender, value: string) => {
    const id = `press-${++counter}`;
    const delivery = await sender.interaction(
      blockAction({
        team: harness.slack.teamId,
        user: defaultUser,
        channel: defaultChannel,
        messageTs: messageTs(),
        actionId: 'ragent_share',
        value,
        responseUrl: harness.slack.responseUrl(id),
        isEphemeral: true,
      }),
    );
    expect(delivery.status).toBe(200);
    return harness.slack.waitFor(
      () => (harness.slack.responses(id).length > 0 ? harness.slack.responses(id) : undefined),
      20_000,
      `the answer to ${id}`,
    );
  };
  const sharedCopies = (question: string) =>
    harness.slack.messages(defaultChannel).filter((message) => JSON.stringify(message).includes(question));

  it('answers only the asker, through response_url, with sources and Share; Share on the other replica posts once, credited by name', async () => {
    const question = 'How are zebras looked after?';
    const id = await ask(question);
    const answer = await finalReply(id);
    const [working] = harness.slack.responses(id);
    expect(working).toMatchObject({ response_type: 'ephemeral', replace_original: false });
    expect(answer).toMatchObject({ response_type: 'ephemeral', replace_original: true });
    expect(JSON.stringify(answer.blocks)).toContain('zebra-care.pdf');
    const value = shareValue(answer);
    expect(value).toBeTruthy();
    expect(sharedCopies(question)).toEqual([]);
    // Recorded like every turn: platform, asker, the channel's scopes, the outcome — and no thread link.
    await vi.waitFor(async () => {
      const turn = (await harness.services.turnHistory.listTurns()).find(
        (each) => each.question === question,
      );
      expect(turn).toMatchObject({ platform: 'slack', user: defaultUser, outcome: 'answered' });
      expect(turn?.scopes).toContain(`slack:${harness.slack.teamId}:${defaultChannel}`);
      expect(turn?.threadId).toContain('private-');
      expect(turn?.link).toBeUndefined();
    });

    const [told] = await press(other.sender, String(value));
    expect(JSON.stringify(told)).toContain(sharedNoteText);
    expect(told).toMatchObject({ replace_original: true });
    const [copy, ...more] = sharedCopies(question);
    expect(more).toEqual([]);
    const shown = JSON.stringify(copy);
    expect(shown).toContain('*Alice Example* asked: How are zebras looked after?');
    expect(shown).not.toContain(`<@${defaultUser}>`);
    expect(shown).toContain('zebra-care.pdf');
    expect(shown).toContain('ragent_feedback');
    expect(shown).not.toContain('ragent_share');
    // The barrier is the press's own answer.
    const [again] = await press(harness.sender, String(value));
    expect(JSON.stringify(again)).toContain(alreadySharedText);
    expect(sharedCopies(question)).toHaveLength(1);
  });

  it('shares once when both replicas take a press at the same moment', async () => {
    const question = 'How are zebras counted?';
    const value = shareValue(await finalReply(await ask(question)));
    const told = await Promise.all([
      press(harness.sender, String(value)),
      press(other.sender, String(value)),
    ]);
    const texts = told.map((posts) => JSON.stringify(posts));
    expect(texts.filter((text) => text.includes(sharedNoteText))).toHaveLength(1);
    expect(texts.filter((text) => text.includes(alreadySharedText))).toHaveLength(1);
    expect(sharedCopies(question)).toHaveLength(1);
  });

  it('posts the private answer by chat.postEphemeral where the response_url fails', async () => {
    const question = 'How are zebras fed?';
    await ask(question, `${harness.slack.url}/expired-response-url`);
    const call = await harness.slack.waitFor(
      () =>
        harness.slack
          .callsTo('chat.postEphemeral')
          .find((each) => JSON.stringify(each.body).includes('ragent_share')),
      20_000,
      'the ephemeral answer',
    );
    expect(call.body).toMatchObject({ channel: defaultChannel, user: defaultUser });
    expect(sharedCopies(question)).toEqual([]);
  });

  it('says so when Slack refuses the shared post', async () => {
    const question = 'How are zebras washed?';
    const value = shareValue(await finalReply(await ask(question)));
    harness.slack.failNext('chat.postMessage', 'not_in_channel');
    const [told] = await press(harness.sender, String(value));
    expect(JSON.stringify(told)).toContain('not_in_channel');
    expect(sharedCopies(question)).toEqual([]);
  });
});
