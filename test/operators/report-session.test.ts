/**
 * `ragent report` agrees with what happened in a scripted session: real `ragent` commands (ingest, ask)
 * on real services and stores in a temp data dir, the model a fake Ollama scripted by graph role;
 * answers, a clarification, a model that cannot be reached, and votes as a chat records them.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Report } from '../../src/operators/report.ts';
import { openSqliteCoordinationStore } from '../../src/stores/sqlite-coordination-store.ts';
import { type FakeOllama, startFakeOllama } from '../fakes/fake-ollama.ts';
import { defaultScripts, requestText } from '../graph/graph-harness.ts';
import { type Role, type RoleScript, scriptByRole } from '../support/model-roles.ts';
import { runCli } from '../support/run-cli.ts';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  process.exitCode = undefined;
});

async function session() {
  const scripts: Record<Role, RoleScript> = {
    ...defaultScripts,
    // "it" is unclear: the model asks back.
    rewrite: (request, call) =>
      /How does it work\?/.test(requestText(request))
        ? { content: JSON.stringify({ isClear: false, questions: [], clarificationNeeded: 'Which loop?' }) }
        : defaultScripts.rewrite(request, call),
  };
  const fake: FakeOllama = await startFakeOllama({ chat: scriptByRole(scripts) });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ragent-report-'));
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
  return { fake, dataDir, run };
}

describe('ragent report', () => {
  it("counts a scripted session's questions, outcomes, votes and cited documents", async () => {
    const { fake, dataDir, run } = await session();
    const loops = path.join(dataDir, 'loops.md');
    writeFileSync(loops, '# Loops\n\nA while loop runs commands while a test succeeds.\n');
    const unused = path.join(dataDir, 'printing.md');
    writeFileSync(unused, '# Printing\n\nUse lpr to send a file to the printer.\n');
    expect((await run('ingest', loops, unused, '--scope', 'shared')).code).toBe(0);

    const asked = async (question: string) => JSON.parse((await run('ask', question, '--json')).text);
    const first = await asked('How does a while loop work?');
    const second = await asked('When does a while loop stop?');
    expect([first.kind, second.kind]).toEqual(['answer', 'answer']);
    expect(first.answer.sources.map((source: { file: string }) => source.file)).toEqual(['loops.md']);
    expect((await asked('How does it work?')).kind).toBe('clarification');
    // The model server goes away: the turn fails with its code.
    await fake.close();
    const unreachable = await run('ask', 'Is anyone there?');
    expect(unreachable.thrown).toMatchObject({ code: 'OLLAMA_UNREACHABLE' });

    // Votes, as a chat's buttons record them: 👎 with a reason on the first answer, 👍 on the second.
    const votes = openSqliteCoordinationStore(dataDir);
    const at = new Date().toISOString();
    await votes.recordFeedback({
      threadId: 'cli:x',
      answerId: first.answer.id,
      user: 'U1',
      value: 'down',
      at,
      reason: 'outdated',
    });
    await votes.recordFeedback({
      threadId: 'cli:y',
      answerId: second.answer.id,
      user: 'U1',
      value: 'up',
      at,
    });
    await votes.close();

    const report = JSON.parse((await run('report', '--json')).text) as Report;
    expect(Object.keys(report)).toEqual([
      'totals',
      'perScope',
      'unanswered',
      'topDocuments',
      'uncitedDocuments',
      'staleVerifiedAnswers',
    ]);
    const totals = {
      questions: 4,
      answered: 2,
      notFound: 0,
      clarified: 1,
      failed: 1,
      thumbsUp: 1,
      thumbsDown: 1,
      handedOff: 0,
    };
    expect(report.totals).toEqual(totals);
    expect(report.perScope).toEqual([{ scope: 'shared', ...totals }]);
    expect(report.unanswered).toEqual([
      {
        text: 'How does a while loop work?',
        scope: 'shared',
        platform: 'cli',
        reason: 'outdated',
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    ]);
    expect(report.topDocuments).toEqual([{ name: 'loops.md', citations: 2 }]);
    expect(report.uncitedDocuments).toEqual([{ name: 'printing.md', scope: 'shared' }]);

    // Filters: another platform, another scope, a window after the session.
    const slack = JSON.parse((await run('report', '--json', '--platform', 'slack')).text) as Report;
    expect(slack.totals.questions).toBe(0);
    const elsewhere = JSON.parse((await run('report', '--json', '--scope', 'slack:T1')).text) as Report;
    expect(elsewhere.totals.questions).toBe(0);
    expect(elsewhere.uncitedDocuments).toEqual([]);
    const later = new Date(Date.now() + 60_000).toISOString();
    expect(
      (JSON.parse((await run('report', '--json', '--since', later)).text) as Report).totals.questions,
    ).toBe(0);

    const table = (await run('report', '--since', '24h')).text;
    expect(table).toMatch(
      /Questions {2}Answered {2}Not found {2}Clarified {2}Failed {2}👍 {2}👎 {2}Handed off\n +4 +2 +0 +1 +1 +1 +1 +0\n/,
    );
    expect(table).toContain('outdated');
    expect(table).toContain('How does a while loop work?');
    expect(table).toMatch(/ +2 {2}loops\.md/);
    expect(table).toContain('printing.md');
    await expect(run('report', '--platform', 'teams')).resolves.toMatchObject({
      thrown: expect.objectContaining({ code: 'INVALID_INPUT' }),
    });
  });
});
