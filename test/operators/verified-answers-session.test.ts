/**
 * Verified answers end to end: `ragent answers add|list|remove` and `ragent ask` as real commands on
 * real services and stores in a temp data dir, the model a fake Ollama (BM25 only: lexical matching).
 * A paraphrase gets the verified answer with no chat-model call; an unrelated question, another
 * scope, or a thread waiting for a clarification reply never does; a changed document flags it stale.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { maxVerifiedSources } from '../../src/core/verified-answers.ts';
import { createLogger } from '../../src/logger.ts';
import { createServices } from '../../src/main.ts';
import type { Report } from '../../src/operators/report.ts';
import { lexicalMatchThreshold, lexicalScores } from '../../src/retrieval/verified-answer-matcher.ts';
import { openSqliteTurnHistory } from '../../src/stores/sqlite-turn-history.ts';
import { type FakeOllama, startFakeOllama } from '../fakes/fake-ollama.ts';
import { defaultScripts, requestText } from '../graph/graph-harness.ts';
import { type Role, type RoleScript, scriptByRole } from '../support/model-roles.ts';
import { runCli } from '../support/run-cli.ts';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  process.exitCode = undefined;
});

const vpnQuestion = 'How do I connect to the VPN when working from home?';
const vpnAnswer = 'Open **GlobalConnect**, choose "Home", and sign in with your badge number.';

async function session() {
  const scripts: Record<Role, RoleScript> = {
    ...defaultScripts,
    rewrite: (request, call) =>
      /How does it work\?/.test(requestText(request)) && !/Clarification/.test(requestText(request))
        ? { content: JSON.stringify({ isClear: false, questions: [], clarificationNeeded: 'Which tool?' }) }
        : defaultScripts.rewrite(request, call),
  };
  const fake: FakeOllama = await startFakeOllama({ chat: scriptByRole(scripts) });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ragent-verified-'));
  cleanups.push(
    () => fake.close(),
    () => rmSync(dataDir, { recursive: true, force: true }),
  );
  const environment = {
    RAGENT_DATA_DIR: dataDir,
    OLLAMA_BASE_URL: fake.url,
    RAGENT_EMBEDDINGS: 'none',
    RAGENT_INGEST_WORKERS: '1',
  };
  const run = async (...args: string[]) => {
    const result = await runCli(args, environment);
    if (result.thrown && !(result.thrown as { code?: string }).code) throw result.thrown;
    return result;
  };
  const handbook = path.join(dataDir, 'handbook.md');
  writeFileSync(
    handbook,
    '# Remote work\n\nThe VPN client is GlobalConnect. Sign in with your badge number.\n',
  );
  expect((await run('ingest', handbook, '--scope', 'shared')).code).toBe(0);
  return { fake, dataDir, environment, run, handbook };
}

describe('verified answers', () => {
  it('serves a paraphrase the verified answer without the model, never an unrelated question or another scope', async () => {
    const { fake, dataDir, run, handbook } = await session();
    const added = await run(
      'answers',
      'add',
      '--scope',
      'shared',
      '--question',
      vpnQuestion,
      '--answer',
      vpnAnswer,
      '--source',
      'handbook.md:1',
      '--by',
      'alice',
    );
    const id = /Verified answer ([0-9a-f]{8}) added to shared\./.exec(added.text)?.[1];
    expect(id).toBeDefined();

    const modelCalls = fake.chatRequests().length;
    const served = JSON.parse((await run('ask', 'how to log into vpn at home', '--json')).text);
    expect(fake.chatRequests()).toHaveLength(modelCalls);
    expect(served.kind).toBe('answer');
    const today = new Date().toISOString().slice(0, 10);
    expect(served.answer.body).toBe(`✅ Verified answer (verified by alice on ${today})\n\n${vpnAnswer}`);
    expect(served.answer.sources).toEqual([expect.objectContaining({ file: 'handbook.md', pages: [1, 1] })]);
    expect(served.answer.verified).toEqual({
      id,
      by: 'alice',
      at: expect.stringMatching(new RegExp(`^${today}`)),
    });
    const printed = (await run('ask', 'vpn setup for remote work?')).text;
    expect(printed).toContain('✅ Verified answer (verified by alice');
    expect(printed).toContain('- handbook.md (p. 1)');
    expect(fake.chatRequests()).toHaveLength(modelCalls);

    // An unrelated question sharing words goes to the model.
    const unrelated = JSON.parse(
      (await run('ask', 'How do I connect to the database from my laptop?', '--json')).text,
    );
    expect(unrelated.answer.verified).toBeUndefined();
    expect(fake.chatRequests().length).toBeGreaterThan(modelCalls);
    // Another scope never gets it, even word for word.
    const other = path.join(dataDir, 'other.md');
    writeFileSync(other, '# Other\n\nSomething else entirely.\n');
    await run('ingest', other, '--scope', 'slack:T2');
    const elsewhere = JSON.parse((await run('ask', vpnQuestion, '--scope', 'slack:T2', '--json')).text);
    expect(elsewhere.answer.verified).toBeUndefined();

    // Recorded with its outcome, counted as answered in the report.
    const records = openSqliteTurnHistory(dataDir);
    const outcomes = (await records.listTurns()).map((turn) => turn.outcome);
    await records.close();
    // The scripted model answers the two others without reading any document: not found.
    expect(outcomes).toEqual(['verified', 'verified', 'not-found', 'not-found']);
    const report = JSON.parse((await run('report', '--json')).text) as Report;
    expect(report.totals.answered).toBe(2);
    expect(report.totals.notFound).toBe(2);
    expect(report.staleVerifiedAnswers).toEqual([]);

    const listed = async () => JSON.parse((await run('answers', 'list', '--json')).text);
    expect(await listed()).toEqual([
      expect.objectContaining({
        id,
        scope: 'shared',
        question: vpnQuestion,
        answer: vpnAnswer,
        source: 'handbook.md:1',
        stale: false,
      }),
    ]);
    // The document changes: the verified answer is flagged, in the list and in the report.
    writeFileSync(handbook, '# Remote work\n\nThe VPN client is now NetBridge.\n');
    await run('ingest', handbook, '--scope', 'shared');
    expect(await listed()).toEqual([expect.objectContaining({ id, stale: true })]);
    expect((await run('answers', 'list')).text).toContain('STALE');
    const stale = JSON.parse((await run('report', '--json')).text) as Report;
    expect(stale.staleVerifiedAnswers).toEqual([
      {
        id,
        scope: 'shared',
        question: vpnQuestion,
        source: 'handbook.md:1',
        sources: ['handbook.md:1'],
        goneSources: ['handbook.md:1'],
      },
    ]);

    expect((await run('answers', 'remove', id ?? '')).text).toBe(`Removed verified answer ${id}.\n`);
    expect(await listed()).toEqual([]);
    const after = fake.chatRequests().length;
    expect(
      JSON.parse((await run('ask', 'how to log into vpn at home', '--json')).text).answer.verified,
    ).toBeUndefined();
    expect(fake.chatRequests().length).toBeGreaterThan(after);
    expect((await run('answers', 'remove', id ?? '')).thrown).toMatchObject({
      code: 'VERIFIED_ANSWER_NOT_FOUND',
    });
  });

  it('keeps several sources: served numbered, all listed, stale once any one document changes', async () => {
    const { fake, dataDir, run, handbook } = await session();
    const policy = path.join(dataDir, 'policy.md');
    writeFileSync(policy, '# Badges\n\nYour badge number is on the back of your badge.\n');
    expect((await run('ingest', policy, '--scope', 'shared')).code).toBe(0);
    const answer = 'Open **GlobalConnect** [1] and sign in with your badge number [2].';
    const added = await run(
      'answers',
      'add',
      '-s',
      'shared',
      '-q',
      vpnQuestion,
      '-a',
      answer,
      '--source',
      'policy.md:1',
      '--source',
      'handbook.md',
      '--by',
      'alice',
    );
    const id = /Verified answer ([0-9a-f]{8}) added/.exec(added.text)?.[1];
    expect(id).toBeDefined();

    const calls = fake.chatRequests().length;
    const served = JSON.parse((await run('ask', 'how to log into vpn at home', '--json')).text);
    expect(fake.chatRequests()).toHaveLength(calls);
    expect(served.answer.sources).toEqual([
      expect.objectContaining({ file: 'policy.md', pages: [1, 1] }),
      expect.objectContaining({ file: 'handbook.md', pages: [1, 1] }),
    ]);
    expect(served.answer.citesByNumber).toBe(true);
    const printed = (await run('ask', 'vpn setup for remote work?')).text;
    expect(printed).toContain(answer);
    expect(printed).toContain('- [1] policy.md (p. 1)\n- [2] handbook.md (p. 1)');

    const listed = async () => JSON.parse((await run('answers', 'list', '--json')).text);
    expect(await listed()).toEqual([
      expect.objectContaining({
        id,
        source: 'policy.md:1',
        sources: ['policy.md:1', 'handbook.md:1'],
        stale: false,
        goneSources: [],
      }),
    ]);
    expect((await run('answers', 'list')).text).toContain('sources: policy.md:1, handbook.md:1');

    // Only the second document changes: the answer may rest on it, so it is stale, naming that one.
    writeFileSync(handbook, '# Remote work\n\nThe VPN client is now NetBridge.\n');
    await run('ingest', handbook, '--scope', 'shared');
    expect(await listed()).toEqual([
      expect.objectContaining({ id, stale: true, goneSources: ['handbook.md:1'] }),
    ]);
    expect((await run('answers', 'list')).text).toContain(
      '⚠ STALE: a document it cites was forgotten or changed (handbook.md:1)',
    );
    const report = JSON.parse((await run('report', '--json')).text) as Report;
    expect(report.staleVerifiedAnswers).toEqual([
      {
        id,
        scope: 'shared',
        question: vpnQuestion,
        source: 'policy.md:1',
        sources: ['policy.md:1', 'handbook.md:1'],
        goneSources: ['handbook.md:1'],
      },
    ]);
    expect((await run('report')).text).toMatch(/Forgotten or changed[^\n]*\n[^\n]*handbook\.md:1/);
  });

  it('refuses a source that is not a document of the scope, or a page it does not have', async () => {
    const { run } = await session();
    const add = (source: string) =>
      run('answers', 'add', '-s', 'shared', '-q', vpnQuestion, '-a', vpnAnswer, '--source', source);
    expect((await add('missing.pdf:2')).thrown).toMatchObject({ code: 'DOCUMENT_NOT_FOUND' });
    expect((await add('handbook.md:7')).thrown).toMatchObject({ code: 'INVALID_INPUT' });
    const tooMany = Array.from({ length: maxVerifiedSources + 1 }, () => [
      '--source',
      'handbook.md:1',
    ]).flat();
    expect(
      (await run('answers', 'add', '-s', 'shared', '-q', vpnQuestion, '-a', vpnAnswer, ...tooMany)).thrown,
    ).toMatchObject({ code: 'INVALID_INPUT' });
    expect(JSON.parse((await run('answers', 'list', '--json')).text)).toEqual([]);
  });

  it('leaves a reply to a clarification question to the model, even when it matches a verified answer', async () => {
    const { fake, environment, run } = await session();
    await run('answers', 'add', '-s', 'shared', '-q', vpnQuestion, '-a', vpnAnswer);
    const services = await createServices(
      loadConfig(environment, { envFile: false }),
      createLogger({ level: 'silent' }),
    );
    cleanups.push(() => services.close());
    const place = { threadId: 'cli:clarify', scopes: ['shared'], user: 'U1' };
    expect((await services.conversations.handle({ ...place, text: 'How does it work?' })).kind).toBe(
      'clarification',
    );
    const calls = fake.chatRequests().length;
    const reply = await services.conversations.handle({ ...place, text: 'how to log into vpn at home' });
    expect(reply.kind === 'answer' && reply.answer.verified).toBe(undefined);
    expect(fake.chatRequests().length).toBeGreaterThan(calls);
    // The same words as a new question get the verified answer.
    const fresh = await services.conversations.handle({
      ...place,
      threadId: 'cli:new',
      text: 'how to log into vpn at home',
    });
    expect(fresh.kind === 'answer' && fresh.answer.verified?.by).toBeTruthy();
  });
});

describe('verified answers with embeddings on (hybrid)', () => {
  it('matches a paraphrase words alone miss by the embeddings, and still never an unrelated question', async () => {
    // Texts about the VPN or the company network share one direction; every other text gets the fake's
    // own hashed bag of words.
    const vpnDirection = (dimension: number) =>
      Array.from({ length: dimension }, (_, index) => (index === 0 ? 1 : 0));
    const fake = await startFakeOllama({
      chat: scriptByRole(defaultScripts),
      embed: (text, dimension) => (/\bvpn\b|\bnetwork\b/i.test(text) ? vpnDirection(dimension) : undefined),
    });
    const dataDir = mkdtempSync(path.join(tmpdir(), 'ragent-verified-hybrid-'));
    cleanups.push(
      () => fake.close(),
      () => rmSync(dataDir, { recursive: true, force: true }),
    );
    const services = await createServices(
      loadConfig(
        { RAGENT_DATA_DIR: dataDir, OLLAMA_BASE_URL: fake.url, RAGENT_EMBEDDINGS: 'ollama' },
        { envFile: false },
      ),
      createLogger({ level: 'silent' }),
    );
    cleanups.push(() => services.close());
    await services.verifiedAnswers.addVerifiedAnswer({
      id: 'vpn1',
      scope: 'shared',
      question: vpnQuestion,
      answer: vpnAnswer,
      sources: [],
      verifiedBy: 'alice',
      verifiedAt: '2026-11-30T10:00:00.000Z',
    });
    const paraphrase = "what's the way to connect to the company network from home";
    // Words alone do not carry it (see bench:verified).
    expect(lexicalScores(paraphrase, [vpnQuestion])[0]).toBeLessThan(lexicalMatchThreshold);
    const place = { scopes: ['shared'], user: 'U1' };
    const calls = fake.chatRequests().length;
    const served = await services.conversations.handle({
      ...place,
      threadId: 'cli:hybrid-1',
      text: paraphrase,
    });
    expect(served.kind === 'answer' && served.answer.verified).toEqual({
      id: 'vpn1',
      by: 'alice',
      at: '2026-11-30T10:00:00.000Z',
    });
    expect(fake.chatRequests()).toHaveLength(calls);
    expect(fake.embedRequests().some((request) => [request.input].flat().includes(paraphrase))).toBe(true);
    const unrelated = await services.conversations.handle({
      ...place,
      threadId: 'cli:hybrid-2',
      text: 'How do I book a meeting room?',
    });
    expect(unrelated.kind === 'answer' && unrelated.answer.verified).toBe(undefined);
    expect(fake.chatRequests().length).toBeGreaterThan(calls);
  });
});
