import { afterEach, describe, expect, it } from 'vitest';
import type { PastTurn } from '../../src/core/turn-history.ts';
import { summarizeForChat } from '../../src/operators/place-report.ts';
import { buildReport } from '../../src/operators/report.ts';
import { reportBlocks } from '../../src/platforms/slack/home-tab.ts';
import { appHomeOpenedEnvelope, blockAction } from '../fakes/fake-slack-events.ts';
import { makePdf } from '../support/make-pdf.ts';
import { defaultChannel, type SlackHarness, startSlackHarness } from './slack-harness.ts';

const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();

function turn(id: string, team: string, overrides: Partial<PastTurn>): PastTurn {
  const threadId = `slack:${team}:${defaultChannel}:${id}`;
  return {
    id,
    platform: 'slack',
    scopes: [`slack:${team}:${defaultChannel}`, `slack:${team}`, 'shared'],
    threadId,
    user: 'UALICE',
    question: `question ${id}`,
    startedAt: hoursAgo(1),
    durationMs: 1_000,
    outcome: 'answered',
    citedDocuments: [],
    link: `https://app.slack.com/client/${team}/${defaultChannel}/thread/${defaultChannel}-${id}`,
    ...overrides,
  };
}

type Block = { type: string; text?: { text: string }; elements?: Array<Record<string, unknown>> };

function viewText(blocks: Block[]): string {
  return blocks
    .flatMap((block) => [
      block.text?.text ?? '',
      ...(block.elements ?? []).map((element) => JSON.stringify(element)),
    ])
    .join('\n');
}

describe('Slack: the Home tab', () => {
  let harness: SlackHarness | undefined;
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });

  it("shows an admin this workspace's report, never another's; the 30 d button publishes it again; others see the help", async () => {
    harness = await startSlackHarness();
    const h = harness;
    const team = h.slack.teamId;
    h.slack.addUser({ id: 'UADMIN', name: 'admin', isAdmin: true });
    h.slack.addUser({ id: 'UBOB', name: 'bob' });
    await h.services.ingestion.ingest({
      name: 'loops.pdf',
      bytes: await makePdf(['Bash loops\nA while loop repeats its body.']),
      scope: `slack:${team}:${defaultChannel}`,
      uploader: 'slack:UADMIN',
    });
    await h.services.ingestion.ingest({
      name: 'other-secrets.pdf',
      bytes: await makePdf(['Other workspace\nNot for this one.']),
      scope: 'slack:T0OTHER',
      uploader: 'slack:UX',
    });
    const turns = [
      turn('1.1', team, { outcome: 'answered' }),
      turn('1.2', team, { outcome: 'not-found', question: 'how do I deploy on Fridays?' }),
      turn('1.3', team, { outcome: 'not-found', question: 'an old miss', startedAt: hoursAgo(24 * 10) }),
      turn('2.1', 'T0OTHER', { outcome: 'not-found', question: 'other private question' }),
      turn('2.2', 'T0OTHER', { outcome: 'answered' }),
    ];
    for (const each of turns) await h.services.turnHistory.recordTurn(each);

    const published = () => h.slack.callsTo('views.publish');
    const publishedText = (index: number) =>
      viewText((published()[index]?.body.view as { blocks: Block[] } | undefined)?.blocks ?? []);
    await h.sender.event(appHomeOpenedEnvelope({ team, user: 'UADMIN', botUserId: h.slack.botUserId }));
    await h.slack.waitFor(() => published().length === 1 || undefined);
    const [first] = published();
    expect(first?.token).toBe(h.slack.botToken);
    expect(first?.body.user_id).toBe('UADMIN');
    const view = first?.body.view as { type: string; blocks: Block[] };
    expect(view.type).toBe('home');
    const text = viewText(view.blocks);
    expect(text).toContain('last 7 days');
    expect(text).toContain('2 questions · 1 answered · 1 not found');
    expect(text).toContain(
      `“how do I deploy on Fridays?” (not found) — <https://app.slack.com/client/${team}/${defaultChannel}/thread/${defaultChannel}-1.2|thread>`,
    );
    expect(text).toContain('loops.pdf');
    expect(text).not.toMatch(/other|T0OTHER|an old miss/);

    const button = view.blocks
      .flatMap((block) => block.elements ?? [])
      .find((element) => element.value === '30');
    await h.sender.interaction(
      blockAction({
        team,
        user: 'UADMIN',
        channel: '',
        messageTs: '',
        actionId: String(button?.action_id),
        value: '30',
      }),
    );
    await h.slack.waitFor(() => published().length === 2 || undefined);
    const month = publishedText(1);
    expect(month).toContain('last 30 days');
    expect(month).toContain('3 questions');
    expect(month).toContain('an old miss');
    expect(month).not.toMatch(/other private question|other-secrets/);

    // Not an admin: the help, and a click on a report button (forged) shows no report either.
    await h.sender.event(appHomeOpenedEnvelope({ team, user: 'UBOB', botUserId: h.slack.botUserId }));
    await h.slack.waitFor(() => published().length === 3 || undefined);
    const help = publishedText(2);
    expect(published()[2]?.body.user_id).toBe('UBOB');
    expect(help).toContain('/ragent help');
    expect(help).not.toMatch(/Fridays|questions ·/);
    await h.sender.interaction(
      blockAction({
        team,
        user: 'UBOB',
        channel: '',
        messageTs: '',
        actionId: 'ragent_home_report_30',
        value: '30',
      }),
    );
    await h.slack.waitFor(() => published().length === 4 || undefined);
    expect(publishedText(3)).not.toMatch(/Fridays/);
  });

  it('publishes nothing when Slack cannot say who is an admin, and the next opening works', async () => {
    harness = await startSlackHarness();
    const h = harness;
    const team = h.slack.teamId;
    h.slack.addUser({ id: 'UADMIN', name: 'admin', isAdmin: true });
    await h.services.turnHistory.recordTurn(turn('1.1', team, { outcome: 'not-found', question: 'a miss' }));
    h.slack.failNext('users.info', 'internal_error');
    await h.sender.event(appHomeOpenedEnvelope({ team, user: 'UADMIN', botUserId: h.slack.botUserId }));
    await h.slack.waitFor(() => h.slack.callsTo('users.info').length === 1 || undefined);
    await h.sender.event(appHomeOpenedEnvelope({ team, user: 'UADMIN', botUserId: h.slack.botUserId }));
    await h.slack.waitFor(() => h.slack.callsTo('views.publish').length >= 1 || undefined);
    // Never the help in place of the report: a failed check shows nothing rather than guessing.
    const views = h.slack
      .callsTo('views.publish')
      .map((call) => viewText((call.body.view as { blocks: Block[] }).blocks));
    expect(views.every((text) => text.includes('“a miss” (not found)'))).toBe(true);
  });

  it("stays within Slack's block limits however long the lists are", () => {
    const long = 'why '.repeat(400);
    const turns = Array.from({ length: 60 }, (_, index) =>
      turn(String(index), 'T1', { outcome: 'not-found', question: `${index} ${long}` }),
    );
    const documents = Array.from({ length: 500 }, (_, index) => ({
      id: `d${index}`,
      name: `document-with-a-rather-long-name-${index}-${'x'.repeat(150)}.pdf`,
      scope: 'slack:T1',
      pages: 1,
      bytes: 1,
      parents: 1,
      children: 1,
      uploader: 'u',
      ingestedAt: hoursAgo(1),
      embeddingModel: null,
    }));
    const blocks = reportBlocks(summarizeForChat(buildReport(turns, [], documents)), 7) as Block[];
    expect(blocks.length).toBeLessThanOrEqual(100);
    for (const block of blocks) expect(block.text?.text.length ?? 0).toBeLessThanOrEqual(3_000);
    expect(viewText(blocks)).toMatch(/…and \d+ more/);
  });
});
