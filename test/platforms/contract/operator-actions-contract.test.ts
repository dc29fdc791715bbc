/**
 * The platform contract for what operators do in the chats: "Verify" on an answer (admins only, once
 * however often pressed; the next question that means the same is served without the model, and the
 * served answer is the thread's previous answer for a follow-up), the hand-off line (exactly the
 * configured group or role, once per thread a day, per-channel override), and the 👎 reason chooser
 * (stored, exported, in the report). Negative checks wait on a barrier, never on a sleep.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { exportRows } from '../../../src/adapters/cli/commands/feedback-command.ts';
import type { Services } from '../../../src/core/services.ts';
import { buildReport } from '../../../src/operators/report.ts';
import type { ChatScript } from '../../fakes/fake-ollama.ts';
import { slackModel } from '../../slack/slack-model.ts';
import { makePdf } from '../../support/make-pdf.ts';
import { roleOf } from '../../support/model-roles.ts';
import { discordDriver } from './discord-driver.ts';
import type { ContractThread, DriverFactory, PlatformDriver } from './platform-driver.ts';
import { slackDriver } from './slack-driver.ts';

const platforms: DriverFactory[] = [slackDriver('http'), slackDriver('socket'), discordDriver];

/** Questions about parking are not in the documents: the answer says so, and the turn is "not found". */
const missingTopic = 'parking';
const model: ChatScript = (request, index) => {
  const asked = request.messages.some(
    (message) => message.role === 'user' && message.content.toLowerCase().includes(missingTopic),
  );
  if (asked && roleOf(request) === 'orchestrator' && request.messages.some((m) => m.role === 'tool'))
    return { content: "I couldn't find this in the documents." };
  return slackModel(request, index);
};

/** Resolves once the turn that asked `question` is in the turn history: everything after its answer is done. */
async function turnRecorded(services: Services, question: string): Promise<void> {
  await vi.waitFor(
    async () => {
      const turns = await services.turnHistory.listTurns();
      if (!turns.some((turn) => turn.question === question))
        throw new Error(`the turn "${question}" was never recorded`);
    },
    { timeout: 10_000, interval: 20 },
  );
}

function handOffLines(driver: PlatformDriver, thread: ContractThread, count: number) {
  return vi.waitFor(
    () => {
      const lines = driver.handOffLines(thread);
      if (lines.length < count) throw new Error(`fewer than ${count} hand-off lines`);
      return lines;
    },
    { timeout: 10_000, interval: 20 },
  );
}

describe.each(platforms)('platform contract: operators in the chat on $name', (factory) => {
  let driver: PlatformDriver;
  beforeAll(async () => {
    driver = await factory.start({ model, handOff: true });
    // Loops are in the documents (every place searches `shared`); parking is not.
    await driver.services().ingestion.ingest({
      name: 'loops.pdf',
      bytes: await makePdf([
        'Bash loops\nA while loop repeats its body while its test succeeds. A for loop runs once per item. An until loop repeats until its test succeeds.',
      ]),
      scope: 'shared',
      uploader: 'test',
    });
  });
  afterAll(async () => {
    await driver?.close();
  });

  it('lets only an admin verify an answer, once, and serves it to the next paraphrase without the model', async () => {
    const { verifiedAnswers } = driver.services();
    const thread = await driver.mention('How do while loops work?');
    const [answer] = await driver.replies(thread, 1);

    const refused = await driver.pressVerify(thread, 'member');
    expect(refused).toMatch(/^(:warning: |⚠️ )?Only .* can verify answers/);
    expect(await verifiedAnswers.listVerifiedAnswers()).toEqual([]);
    expect(driver.answerControls(thread)).not.toContain('Verified by');

    // Pressed twice at once (a double click, two replicas): one verified answer.
    const [confirmed] = await Promise.all([
      driver.pressVerify(thread, 'admin'),
      driver.pressVerify(thread, 'admin'),
    ]);
    expect(confirmed).toContain('Verified');
    const verified = await verifiedAnswers.listVerifiedAnswers();
    expect(verified).toHaveLength(1);
    expect(verified[0]).toMatchObject({ question: 'How do while loops work?' });
    expect(verified[0]?.scope).toMatch(/:.+:/);
    expect(answer).toContain(verified[0]?.answer.slice(0, 20));
    expect(driver.answerControls(thread)).toContain('Verified by ada');

    const before = driver.chatRequests();
    const again = await driver.mention('how do while loops work');
    const [served] = await driver.replies(again, 1);
    expect(served).toContain('✅ Verified answer');
    expect(driver.chatRequests()).toBe(before);

    // The served answer is the thread's previous answer for a follow-up.
    await driver.reply(again, 'And how do I break out of one?');
    await driver.replies(again, 2);
    const followUp = driver.modelPrompts().slice(before);
    expect(followUp.some((prompt) => prompt.includes('✅ Verified answer'))).toBe(true);
  });

  it('hands a not-found thread to exactly the configured group, once a day, and per channel as admins set it', async () => {
    const services = driver.services();
    const question = `Where do I leave my bike? (${missingTopic})`;
    const thread = await driver.mention(question);
    await driver.replies(thread, 1);
    const [line] = await handOffLines(driver, thread, 1);
    expect(line?.text).toMatch(/^A person from .+ will follow up\.$/);
    expect(line?.pings).toEqual([driver.handOffTargets.default]);

    // A second miss in the thread the same day: no second line (barrier: that turn's record).
    const second = `And the ${missingTopic} for cars?`;
    await driver.reply(thread, second);
    await driver.replies(thread, 2);
    await turnRecorded(services, second);
    expect(driver.handOffLines(thread)).toHaveLength(1);
    expect(await driver.pressAskPerson(thread)).toContain('already asked');
    expect(driver.handOffLines(thread)).toHaveLength(1);

    expect(await driver.setHandOff('other')).toContain('From now on');
    const other = await driver.mention(`Is there ${missingTopic} for visitors?`);
    await driver.replies(other, 1);
    const [otherLine] = await handOffLines(driver, other, 1);
    expect(otherLine?.pings).toEqual([driver.handOffTargets.other]);

    expect(await driver.setHandOff('off')).toContain('default again');
    const asked = await driver.mention('How do until loops work?');
    await driver.replies(asked, 1);
    expect(await driver.pressAskPerson(asked)).toContain('a person will follow up');
    const [askedLine] = await handOffLines(driver, asked, 1);
    expect(askedLine?.pings).toEqual([driver.handOffTargets.default]);

    // The report counts each hand-off once, apart from the questions (with the question it was about).
    const questions = [question, `Is there ${missingTopic} for visitors?`, 'How do until loops work?'];
    const listed = async () =>
      (await services.turnHistory.listTurns()).filter((turn) => questions.includes(turn.question));
    // Barrier: a hand-off is recorded just after its line is posted, so the last record may lag the line.
    await vi.waitFor(
      async () => {
        const handedOff = (await listed()).filter((turn) => turn.outcome === 'handed-off');
        if (handedOff.length < 3) throw new Error(`${handedOff.length} hand-offs recorded so far`);
      },
      { timeout: 10_000, interval: 20 },
    );
    const turns = await listed();
    const report = buildReport(turns, [], []);
    expect(report.totals.handedOff).toBe(3);
    expect(report.totals.questions).toBe(3);
  });

  it('asks why after a 👎, stores the latest reason, and exports and reports it', async () => {
    const { coordination, turnHistory } = driver.services();
    const question = 'How do for loops work?';
    const thread = await driver.mention(question);
    await driver.replies(thread, 1);
    expect(await driver.pressThumbsDown(thread)).toContain('What was wrong');
    // The 👎 itself is stored at once; it also hands the thread to a person.
    const [line] = await handOffLines(driver, thread, 1);
    expect(line?.pings).toEqual([driver.handOffTargets.default]);

    await driver.chooseReason(thread, 'wrong');
    await driver.chooseReason(thread, 'other', 'It cites the 2019 policy');
    const votes = (await coordination.listFeedback()).filter((vote) => vote.value === 'down');
    const answers = await coordination.findAnswers(votes.map((vote) => vote.answerId));
    const mine = answers.find((answer) => answer.question === question);
    const rows = exportRows(votes, answers).filter((row) => row.answerId === mine?.answerId);
    expect(rows).toEqual([
      expect.objectContaining({
        vote: 'down',
        reason: 'other',
        comment: 'It cites the 2019 policy',
        question,
      }),
    ]);
    const report = buildReport(await turnHistory.listTurns(), votes, []);
    expect(report.unanswered).toContainEqual(
      expect.objectContaining({ text: question, reason: 'other', comment: 'It cites the 2019 policy' }),
    );
  });
});
