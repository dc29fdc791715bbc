/**
 * Slack's agent surface at the wire: suggested prompts where a conversation starts (the assistant
 * split view's `assistant_thread_started`, the agent view's Messages tab), the assistant status with
 * rotating loading messages, task cards (`task_update` chunks, `plan` display mode) for a rewrite
 * that split the question, the text-only stream where Slack refuses chunks, and the scopes an app
 * made from an older manifest lacks (doctor and the start log).
 */
import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { checkPlatformsOnline } from '../../src/platforms/check-platforms.ts';
import { slackScopes } from '../../src/platforms/slack/slack-scopes.ts';
import { loadingLines } from '../../src/turns/messages-en.ts';
import type { ChatScript } from '../fakes/fake-ollama.ts';
import { defaultGrantedScopes, startFakeSlackApi } from '../fakes/fake-slack-api.ts';
import { appHomeOpenedEnvelope, assistantThreadEnvelope } from '../fakes/fake-slack-events.ts';
import { makePdf } from '../support/make-pdf.ts';
import { roleOf } from '../support/model-roles.ts';
import { blockText, defaultChannel, type SlackHarness, startSlackHarness } from './slack-harness.ts';
import { slackModel } from './slack-model.ts';

type Chunk = {
  type: string;
  id?: string;
  title?: string;
  status?: string;
  output?: string;
  sources?: Array<{ type: string; url: string; text: string }>;
};

const loopQuestion = 'How does a while loop repeat its body?';
const freezeQuestion = 'When is the deploy freeze?';
const loopsLink = 'https://ragent-test.slack.com/files/F0LOOPS/loops.pdf';
const freezeLink = 'https://ragent-test.slack.com/files/F0FREEZE/freeze.pdf';

/** The rewrite splits every question in two; the agents search and answer as in the other Slack tests. */
const twoQuestions: ChatScript = (request, index) =>
  roleOf(request) === 'rewrite'
    ? {
        content: JSON.stringify({
          isClear: true,
          questions: [loopQuestion, freezeQuestion],
          clarificationNeeded: '',
        }),
      }
    : slackModel(request, index);

async function addChannelDocuments(h: SlackHarness): Promise<void> {
  const scope = `slack:${h.slack.teamId}:${defaultChannel}`;
  await h.services.ingestion.ingest({
    name: 'loops.pdf',
    bytes: await makePdf(['Bash loops\nA while loop repeats its body while the condition holds.']),
    scope,
    uploader: 'slack:UALICE',
    link: loopsLink,
  });
  await h.services.ingestion.ingest({
    name: 'freeze.pdf',
    bytes: await makePdf(['Deploy freeze\nThe deploy freeze starts on Friday at noon.']),
    scope,
    uploader: 'slack:UALICE',
    link: freezeLink,
  });
}

const streamMethods = ['chat.startStream', 'chat.appendStream', 'chat.stopStream'];
/** Tests that ingest PDFs first (pdf.js in worker threads): slow on a loaded machine, never a wall-clock assertion. */
const ingestTimeoutMs = 120_000;

describe('Slack: task cards for a split question', () => {
  let harness: SlackHarness | undefined;
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });

  it(
    'streams one task per sub-question in plan mode, pending → in progress → complete with the documents it read, then the answer',
    async () => {
      harness = await startSlackHarness({ model: twoQuestions });
      const h = harness;
      await addChannelDocuments(h);
      const ts = await h.mention('Tell me about loops and the freeze');
      const [answer, ...others] = await h.waitForReply(defaultChannel, ts);
      expect(others).toEqual([]);
      expect(blockText(answer!)).toContain('Combined answer.');

      const [start, ...moreStarts] = h.slack.callsTo('chat.startStream');
      expect(moreStarts).toEqual([]);
      expect(start?.body).toMatchObject({
        channel: defaultChannel,
        thread_ts: ts,
        task_display_mode: 'plan',
      });
      // The plan opened the stream before any text: every step pending.
      expect(start?.body.markdown_text).toBeUndefined();
      const opening = start?.body.chunks as Chunk[];
      expect(opening.map((chunk) => [chunk.type, chunk.title, chunk.status])).toEqual([
        ['plan_update', 'Answering in 2 parts', undefined],
        ['task_update', loopQuestion, 'pending'],
        ['task_update', freezeQuestion, 'pending'],
      ]);

      const streamCalls = h.slack.calls.filter((call) => streamMethods.includes(call.method));
      const tasks = streamCalls.flatMap((call) =>
        ((call.body.chunks as Chunk[] | undefined) ?? []).filter((chunk) => chunk.type === 'task_update'),
      );
      const [loopId, freezeId] = opening.slice(1).map((chunk) => chunk.id);
      for (const [id, link, name] of [
        [loopId, loopsLink, 'loops.pdf'],
        [freezeId, freezeLink, 'freeze.pdf'],
      ] as const) {
        const updates = tasks.filter((chunk) => chunk.id === id);
        // Each change once, in order.
        expect(updates.map((chunk) => chunk.status)).toEqual(['pending', 'in_progress', 'complete']);
        const done = updates.at(-1)!;
        expect(done.sources).toContainEqual({ type: 'url', url: link, text: name });
        expect(done.output).toContain(name);
      }
      // The text followed the cards in the same stream, and the reply took its message.
      const texts = streamCalls.filter((call) => typeof call.body.markdown_text === 'string');
      expect(texts.length).toBeGreaterThan(0);
      const lastTask = streamCalls.findLastIndex((call) => Array.isArray(call.body.chunks));
      expect(streamCalls.indexOf(texts[0]!)).toBeGreaterThan(lastTask);
      expect(h.slack.callsTo('chat.stopStream').map((call) => call.body.ts)).toEqual([answer?.ts]);
      // The status message gave way to the stream's message.
      expect(JSON.stringify(h.slack.deletedMessages().map((message) => message.blocks))).toContain(
        'hourglass',
      );
    },
    ingestTimeoutMs,
  );

  it('a question the rewrite did not split streams its text as before, without task cards', async () => {
    harness = await startSlackHarness();
    const ts = await harness.mention('How do I write a while loop?');
    await harness.waitForReply(defaultChannel, ts);
    const withChunks = harness.slack.calls.filter(
      (call) => streamMethods.includes(call.method) && call.body.chunks !== undefined,
    );
    expect(withChunks).toEqual([]);
    expect(harness.slack.callsTo('chat.startStream')[0]?.body.task_display_mode).toBeUndefined();
  });

  it(
    'where Slack refuses chunks, the answer streams its text only, and the channel is not asked again',
    async () => {
      harness = await startSlackHarness({ model: twoQuestions });
      const h = harness;
      await addChannelDocuments(h);
      h.slack.refuseChunks('invalid_chunks');
      const ts = await h.mention('Tell me about loops and the freeze');
      const [answer, ...others] = await h.waitForReply(defaultChannel, ts);
      expect(others).toEqual([]);
      expect(blockText(answer!)).toContain('Combined answer.');
      const [refused, text, ...more] = h.slack.callsTo('chat.startStream');
      expect(more).toEqual([]);
      expect(refused?.body.chunks).toBeDefined();
      expect(text?.body.chunks).toBeUndefined();
      expect(text?.body.task_display_mode).toBeUndefined();
      const streamedText = h.slack.calls
        .filter((call) => streamMethods.includes(call.method))
        .map((call) => String(call.body.markdown_text ?? ''))
        .join('');
      // What was streamed before the reply replaced it: the answer's beginning.
      expect(streamedText).toMatch(/^Comb/);
      expect('Combined answer.'.startsWith(streamedText)).toBe(true);
      expect(h.slack.callsTo('chat.stopStream').map((call) => call.body.ts)).toEqual([answer?.ts]);

      const again = await h.mention('And loops and the freeze again?');
      await h.waitForReply(defaultChannel, again);
      const chunkCalls = h.slack.calls.filter(
        (call) => streamMethods.includes(call.method) && call.body.chunks !== undefined,
      );
      expect(chunkCalls).toHaveLength(1);
    },
    ingestTimeoutMs,
  );

  it(
    'where Slack refuses a task card mid-stream, the cards stop and the text completes the answer in the same stream',
    async () => {
      harness = await startSlackHarness({ model: twoQuestions });
      const h = harness;
      await addChannelDocuments(h);
      // The first append is the first step's "in progress" card.
      h.slack.failNext('chat.appendStream', 'invalid_chunks');
      const ts = await h.mention('Tell me about loops and the freeze');
      const [answer, ...others] = await h.waitForReply(defaultChannel, ts);
      expect(others).toEqual([]);
      expect(h.slack.callsTo('chat.startStream')).toHaveLength(1);
      const appends = h.slack.callsTo('chat.appendStream');
      expect(appends[0]?.body.chunks).toBeDefined();
      expect(appends.slice(1).every((call) => call.body.chunks === undefined)).toBe(true);
      const streamedText = appends.map((call) => String(call.body.markdown_text ?? '')).join('');
      expect(streamedText).toMatch(/^Comb/);
      expect('Combined answer.'.startsWith(streamedText)).toBe(true);
      expect(blockText(answer!)).toContain('Combined answer.');
    },
    ingestTimeoutMs,
  );

  it(
    'when the turn fails, the steps that did not finish show as failed before the error',
    async () => {
      harness = await startSlackHarness({
        // The second sub-question's agent never gets an answer from the model: the turn fails.
        model: (request, index) =>
          roleOf(request) === 'orchestrator' &&
          request.messages.some((message) => message.role === 'user' && message.content.includes('freeze'))
            ? { fail: 'http-500' }
            : twoQuestions(request, index),
      });
      const h = harness;
      await addChannelDocuments(h);
      const ts = await h.mention('Tell me about loops and the freeze');
      await h.waitForReply(defaultChannel, ts);
      const tasks = h.slack.calls
        .filter((call) => streamMethods.includes(call.method))
        .flatMap((call) =>
          ((call.body.chunks as Chunk[] | undefined) ?? []).filter((c) => c.type === 'task_update'),
        );
      const freeze = tasks.filter((chunk) => chunk.title === freezeQuestion);
      expect(freeze.at(-1)?.status).toBe('error');
      expect(freeze.map((chunk) => chunk.status)).not.toContain('complete');
    },
    ingestTimeoutMs,
  );
});

describe.each(['http', 'socket'] as const)(
  'Slack (%s): suggested prompts where a conversation starts',
  (mode) => {
    let harness: SlackHarness | undefined;
    afterEach(async () => {
      await harness?.close();
      harness = undefined;
    });

    const promptCalls = (h: SlackHarness) => h.slack.callsTo('assistant.threads.setSuggestedPrompts');

    it(
      "offers the titles of the documents the thread can search (newest first, literally, never a ping), in the assistant view and the agent view's Messages tab",
      async () => {
        harness = await startSlackHarness({ mode });
        const h = harness;
        const team = h.slack.teamId;
        h.slack.addUser({ id: 'UALICE', name: 'alice' });
        const add = async (name: string, scope: string) =>
          h.services.ingestion.ingest({
            name,
            bytes: await makePdf([`${name}\nSome text about ${name}.`]),
            scope,
            uploader: 'slack:UALICE',
          });
        await add('handbook.pdf', `slack:${team}`);
        await add('@here notes.pdf', `slack:${team}`);
        await add('shared-guide.pdf', 'shared');
        // Not searchable from a DM with ragent, nor from this workspace.
        await add('channel-only.pdf', `slack:${team}:${defaultChannel}`);
        await add('elsewhere.pdf', 'slack:T0OTHER');

        const started = assistantThreadEnvelope({
          team,
          user: 'UALICE',
          botUserId: h.slack.botUserId,
          contextChannel: defaultChannel,
        });
        await h.deliverEvent(started);
        const [call] = await h.slack.waitFor(() => promptCalls(h).length === 1 && promptCalls(h));
        expect(call?.body).toMatchObject({
          channel_id: started.event.assistant_thread.channel_id,
          thread_ts: started.event.assistant_thread.thread_ts,
          title: 'Try asking',
        });
        const prompts = call?.body.prompts as Array<{ title: string; message: string }>;
        const shown = JSON.stringify(prompts);
        expect(prompts).toHaveLength(3);
        expect(prompts[0]?.title).toContain('shared-guide.pdf');
        expect(shown).toContain('handbook.pdf');
        expect(shown).toContain('notes.pdf');
        expect(shown).not.toMatch(/@here/);
        expect(shown).not.toContain('channel-only');
        expect(shown).not.toContain('elsewhere');
        for (const prompt of prompts) expect(prompt.message.length).toBeGreaterThan(prompt.title.length - 5);

        // The agent view: opening the Messages tab sets them for the DM, without a thread.
        const home = appHomeOpenedEnvelope({
          team,
          user: 'UALICE',
          botUserId: h.slack.botUserId,
          tab: 'home',
        });
        await h.deliverEvent(home);
        const messagesTab = appHomeOpenedEnvelope({
          team,
          user: 'UALICE',
          botUserId: h.slack.botUserId,
          tab: 'messages',
        });
        await h.deliverEvent(messagesTab);
        const calls = await h.slack.waitFor(() => promptCalls(h).length >= 2 && promptCalls(h));
        await h.slack.waitFor(() => h.slack.callsTo('views.publish').length === 1);
        // The Home tab (sent before the Messages tab, which was answered) set none.
        expect(calls).toHaveLength(2);
        expect(calls[1]?.body.channel_id).toBe((messagesTab.event as { channel: string }).channel);
        expect(calls[1]?.body.thread_ts).toBeUndefined();
        expect(calls[1]?.body.prompts).toEqual(prompts);
      },
      ingestTimeoutMs,
    );

    it('offers the configured prompts instead (RAGENT_SLACK_SUGGESTED_PROMPTS)', async () => {
      harness = await startSlackHarness({
        mode,
        environment: {
          RAGENT_SLACK_SUGGESTED_PROMPTS: ' What is our leave policy? | How do I file expenses? ',
        },
      });
      const h = harness;
      const thread = { team: h.slack.teamId, user: 'UALICE', botUserId: h.slack.botUserId };
      // Moving to another channel with the split view open changes nothing: the thread searches its own sets.
      await h.deliverEvent(
        assistantThreadEnvelope({
          ...thread,
          type: 'assistant_thread_context_changed',
          contextChannel: defaultChannel,
        }),
      );
      await h.deliverEvent(assistantThreadEnvelope(thread));
      const [call] = await h.slack.waitFor(() => promptCalls(h).length === 1 && promptCalls(h));
      expect(call?.body.thread_ts).toBeDefined();
      expect(call?.body.prompts).toEqual([
        { title: 'What is our leave policy?', message: 'What is our leave policy?' },
        { title: 'How do I file expenses?', message: 'How do I file expenses?' },
      ]);
    });
  },
);

describe('Slack: the agent surface settings, status and scopes', () => {
  let harness: SlackHarness | undefined;
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });

  it('refuses more than four suggested prompts, saying why', () => {
    expect(() =>
      loadConfig({ RAGENT_SLACK_SUGGESTED_PROMPTS: 'a?|b?|c?|d?|e?' }, { envFile: false }),
    ).toThrow(/RAGENT_SLACK_SUGGESTED_PROMPTS[\s\S]*at most 4/);
    expect(
      loadConfig({ RAGENT_SLACK_SUGGESTED_PROMPTS: 'a?|b?' }, { envFile: false }).slack.suggestedPrompts,
    ).toEqual(['a?', 'b?']);
  });

  it('shows the assistant status with rotating loading messages, then each progress line, then clears it', async () => {
    harness = await startSlackHarness();
    const h = harness;
    h.slack.setAssistantStatusSupported(true);
    const ts = await h.mention('How do I write a while loop?');
    await h.waitForReply(defaultChannel, ts);
    // Cleared once the reply is out.
    await h.slack.waitFor(() => h.slack.callsTo('assistant.threads.setStatus').at(-1)?.body.status === '');
    const statuses = h.slack.callsTo('assistant.threads.setStatus').map((call) => call.body);
    expect(statuses[0]).toMatchObject({ channel_id: defaultChannel, thread_ts: ts });
    expect(statuses[0]?.loading_messages).toEqual(loadingLines);
    const progress = statuses.slice(1, -1);
    expect(progress.length).toBeGreaterThan(0);
    for (const status of progress) expect(status.loading_messages).toEqual([status.status]);
    expect(statuses.at(-1)?.status).toBe('');
  });

  it('doctor lists the scopes an app made from an older manifest lacks and what they enable; all granted passes', async () => {
    const slack = await startFakeSlackApi();
    try {
      const config = loadConfig(
        { SLACK_BOT_TOKEN: slack.botToken, SLACK_APP_TOKEN: slack.appToken, SLACK_API_URL: slack.apiUrl },
        { envFile: false },
      );
      expect(await checkPlatformsOnline(config, 2_000)).toEqual([
        { title: 'Slack app scopes', status: 'pass', detail: expect.stringContaining('all 11 scopes') },
      ]);
      slack.setGrantedScopes(
        defaultGrantedScopes.filter((scope) => scope !== 'assistant:write' && scope !== 'users:read'),
      );
      const [result] = await checkPlatformsOnline(config, 2_000);
      expect(result).toMatchObject({ title: 'Slack app scopes', status: 'warn' });
      expect(result?.detail).toContain('lacks 2 scopes');
      expect(result?.detail).toContain('assistant:write, users:read');
      const fix = result?.fix?.join('\n') ?? '';
      expect(fix).toMatch(/assistant:write: .*suggested prompts/);
      expect(fix).toContain('reinstall');
      expect(JSON.stringify(result)).not.toContain(slack.botToken);
      // The token went to the configured Slack API only, once per check.
      expect(slack.callsTo('auth.test').map((call) => call.token)).toEqual([slack.botToken, slack.botToken]);

      const refused = loadConfig(
        {
          SLACK_BOT_TOKEN: 'xoxb-revoked-token-0002',
          SLACK_APP_TOKEN: slack.appToken,
          SLACK_API_URL: slack.apiUrl,
        },
        { envFile: false },
      );
      expect(await checkPlatformsOnline(refused, 2_000)).toMatchObject([
        { title: 'Slack app scopes', status: 'fail', detail: expect.stringContaining('invalid_auth') },
      ]);
    } finally {
      await slack.close();
    }
  });

  it('an app missing scopes still starts, and its start log names what it cannot do', async () => {
    const logLines: string[] = [];
    harness = await startSlackHarness({ logLines });
    const h = harness;
    h.slack.setGrantedScopes(defaultGrantedScopes.filter((scope) => scope !== 'assistant:write'));
    await h.restart();
    const warning = logLines.find((line) => line.includes('lacks scopes'));
    expect(warning).toBeDefined();
    expect(JSON.parse(warning!).missingScopes).toEqual(['assistant:write']);
    // It answers all the same.
    const ts = await h.mention('How do I write a while loop?');
    await h.waitForReply(defaultChannel, ts);
  });

  it('the manifest asks for every scope ragent knows, the agent view, its events and the Ask ragent shortcut', async () => {
    const manifest = await readFile(new URL('../../slack-app-manifest.yml', import.meta.url), 'utf8');
    const bot = /\n {4}bot:\n((?: {6}- .*\n)+)/.exec(manifest)?.[1] ?? '';
    const scopes = [...bot.matchAll(/- ([a-z_:.]+)/g)].map((match) => match[1]);
    expect(scopes).toEqual(slackScopes.map((entry) => entry.name));
    expect(scopes).toEqual([...defaultGrantedScopes]);
    for (const event of [
      'app_home_opened',
      'app_mention',
      'assistant_thread_started',
      'assistant_thread_context_changed',
      'message.channels',
      'message.groups',
      'message.im',
      'message.mpim',
    ])
      expect(manifest).toMatch(new RegExp(`\\n {6}- ${event.replace('.', '\\.')}(\\s|#)`));
    expect(manifest).toMatch(/\n {2}agent_view:\n {4}agent_description: /);
    expect(manifest).toMatch(/callback_id: ask_ragent/);
  });
});
