/** `ragent feedback export` through the real program, on a real bot.sqlite. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteCoordinationStore } from '../../../src/stores/sqlite-coordination-store.ts';
import { runCli } from '../../support/run-cli.ts';

let workDir: string;
beforeEach(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), 'ragent-feedback-'));
});
afterEach(async () => {
  process.exitCode = undefined;
  await rm(workDir, { recursive: true, force: true });
});

const dataDir = () => path.join(workDir, 'data');

async function run(args: string[]) {
  const { code, text, thrown } = await runCli(args, {
    RAGENT_DATA_DIR: dataDir(),
    OLLAMA_BASE_URL: 'http://127.0.0.1:9',
  });
  if (thrown) throw thrown;
  return { code, text };
}

async function recordVotes() {
  const store = openSqliteCoordinationStore(dataDir());
  await store.recordAnswer({
    answerId: 'a1',
    threadId: 'slack:T1:C1:1.0',
    question: 'How do I loop, "quickly"?',
    answer: 'Use **while**,\nor until.',
    sources: [
      { file: 'bash.pdf', docId: 'd1', pages: [3, 4] },
      { file: 'faq.pdf', docId: 'd2', pages: [7, 7] },
    ],
    link: 'https://app.slack.com/client/T1/C1/thread/C1-1.0',
    at: '2026-11-29T00:00:00.000Z',
  });
  await store.recordFeedback({
    threadId: 'slack:T1:C1:1.0',
    answerId: 'a1',
    user: 'U1',
    value: 'down',
    at: '2026-11-29T00:01:00.000Z',
    reason: 'incomplete',
    comment: 'It skips "until", see p. 5',
  });
  // A vote on an answer from before answers were recorded.
  await store.recordFeedback({
    threadId: 'discord:G1:T9',
    answerId: 'old',
    user: 'U2',
    value: 'up',
    at: '2026-11-30T00:00:00.000Z',
  });
  await store.close();
}

describe('ragent feedback export', () => {
  it('prints every vote with its question, answer, sources and link as CSV', async () => {
    await recordVotes();
    const { code, text } = await run(['feedback', 'export']);
    expect(code).toBe(0);
    expect(text.split('\r\n')).toEqual([
      'at,vote,reason,comment,user,threadId,answerId,question,answer,sources,link',
      '2026-11-29T00:01:00.000Z,down,incomplete,"It skips ""until"", see p. 5",U1,slack:T1:C1:1.0,a1,"How do I loop, ""quickly""?","Use **while**,\n' +
        'or until.",bash.pdf p. 3–4; faq.pdf p. 7,https://app.slack.com/client/T1/C1/thread/C1-1.0',
      '2026-11-30T00:00:00.000Z,up,,,U2,discord:G1:T9,old,,,,',
      '',
    ]);
  });

  it('prints JSON lines since a time, and refuses a bad time or format', async () => {
    await recordVotes();
    const since = await run(['feedback', 'export', '--format', 'jsonl', '--since', '2026-11-29T12:00:00Z']);
    expect(
      since.text
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual([
      {
        at: '2026-11-30T00:00:00.000Z',
        vote: 'up',
        reason: '',
        comment: '',
        user: 'U2',
        threadId: 'discord:G1:T9',
        answerId: 'old',
        question: '',
        answer: '',
        sources: '',
        link: '',
      },
    ]);
    const all = await run(['feedback', 'export', '--format', 'jsonl']);
    expect(JSON.parse(all.text.split('\n')[0] ?? '{}')).toMatchObject({
      answerId: 'a1',
      question: 'How do I loop, "quickly"?',
      sources: 'bash.pdf p. 3–4; faq.pdf p. 7',
      reason: 'incomplete',
    });
    // A duration back from now: both votes are within the last 3,650 days, none within the last hour.
    const recent = await run(['feedback', 'export', '--format', 'jsonl', '--since', '3650d']);
    expect(recent.text.trim().split('\n')).toHaveLength(2);
    expect((await run(['feedback', 'export', '--format', 'jsonl', '--since', '1h'])).text).toBe('');
    await expect(run(['feedback', 'export', '--since', 'yesterday'])).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
    await expect(run(['feedback', 'export', '--format', 'xml'])).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
  });
});
