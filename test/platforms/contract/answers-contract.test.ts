/**
 * The platform contract for answers and documents: what every chat platform must do with a long
 * answer, with text that would ping people, with 👍/👎, with a file shared to be added (progress, and
 * a clear error for a file it cannot read), and where the platform refuses native streaming. Written
 * once, run against Slack (HTTP and Socket Mode) and Discord through their wire fakes.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ChatScript, FakeChatRequest } from '../../fakes/fake-ollama.ts';
import { slackModel } from '../../slack/slack-model.ts';
import { makePdf } from '../../support/make-pdf.ts';
import { roleOf } from '../../support/model-roles.ts';
import { discordDriver } from './discord-driver.ts';
import type { DriverFactory, PlatformDriver } from './platform-driver.ts';
import { slackDriver } from './slack-driver.ts';

const platforms: DriverFactory[] = [slackDriver('http'), slackDriver('socket'), discordDriver];

/** Every platform's ways of pinging people, as a model or a document might write them. */
const pingLadenText =
  'Heads up <!channel> <!here> <!everyone> <!subteam^S0TEAM> <@U0BOB> @here @everyone ' +
  '<@223456789012345678> <@&123456789012345678>: the freeze starts Friday.';

/** About 10,000 characters of Markdown with a long code block in the middle: split on every platform. */
function longAnswer(): string {
  const prose = (topic: string) =>
    Array.from(
      { length: 12 },
      (_, index) =>
        `Paragraph ${index + 1} about ${topic}: ${'the shell reads each line and runs it. '.repeat(8)}`,
    ).join('\n\n');
  const code = [
    '```bash',
    ...Array.from({ length: 60 }, (_, index) => `for file in *.txt; do echo "line ${index}: $file"; done`),
    '```',
  ].join('\n');
  return `${prose('loops')}\n\n${code}\n\n${prose('conditionals')}`;
}

const everything = 'Tell me everything about loops';
const announcement = 'What does the freeze announcement say?';

function questionOf(request: FakeChatRequest): string {
  return request.messages
    .filter((message) => message.role === 'user')
    .map((message) => message.content)
    .join('\n');
}

/** The contract's model, with two answers of its own: a very long one, and one full of pings. */
const model: ChatScript = (request, index) => {
  const researched = request.messages.some((message) => message.role === 'tool');
  if (roleOf(request) === 'orchestrator' && researched) {
    const question = questionOf(request);
    if (question.includes(everything)) return { content: longAnswer() };
    if (question.includes(announcement)) return { content: pingLadenText };
  }
  return slackModel(request, index);
};

describe.each(platforms)('platform contract: answers and documents on $name', (factory) => {
  let driver: PlatformDriver;
  beforeAll(async () => {
    driver = await factory.start({ model });
  });
  afterAll(async () => {
    await driver?.close();
  });

  it('splits a long answer within the platform’s message limit, losing and reordering nothing', async () => {
    const thread = await driver.mention(everything);
    const parts = await driver.answerParts(thread);
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(driver.messageLimit);
    const joined = parts.join('\n');
    for (let index = 0; index < 60; index++) expect(joined).toContain(`echo "line ${index}: $file"`);
    expect(joined.indexOf('Paragraph 12 about loops')).toBeLessThan(
      joined.indexOf('Paragraph 1 about conditionals'),
    );
    // A code block is never cut open: each part's fences pair up.
    for (const part of parts) {
      const fences = part.split('\n').filter((line) => line.trim().startsWith('```'));
      expect(fences.length % 2).toBe(0);
    }
  });

  it('never pings anyone, whatever the question or the answer says', async () => {
    const thread = await driver.mention(`${announcement} ${driver.pingTexts.join(' ')}`);
    const parts = await driver.answerParts(thread);
    expect(parts.join('\n')).toContain('the freeze starts Friday');
    expect(driver.pingsSent()).toEqual([]);
  });

  it('records 👍/👎 under an answer: one vote per person, the latest kept', async () => {
    const thread = await driver.mention('How do while loops work?');
    await driver.answerParts(thread);
    await driver.vote(thread, 'up', 'bob');
    await driver.vote(thread, 'down', 'bob');
    await driver.vote(thread, 'up', 'carol');
    await vi.waitFor(async () => {
      const votes = await driver.votes(thread);
      expect(votes).toHaveLength(2);
      expect(votes).toEqual(
        expect.arrayContaining([
          { user: 'bob', value: 'down' },
          { user: 'carol', value: 'up' },
        ]),
      );
    });
  });

  it('adds a shared file with its progress shown, then answers from it', async () => {
    const bytes = await makePdf([
      ['Zebracount runbook', 'The zebracount pager rotation changes every monday.'],
    ]);
    const { statuses, result } = await driver.ingest({ name: 'zebracount-runbook.pdf', bytes });
    expect(result).toContain('zebracount-runbook.pdf');
    expect(result).not.toMatch(/not a PDF|not a file type/);
    // The request showed its status before the result, naming the file.
    expect(statuses.length).toBeGreaterThan(1);
    expect(statuses.slice(0, -1).some((status) => status.includes('zebracount-runbook.pdf'))).toBe(true);
    const thread = await driver.mention('When does the zebracount pager rotation change?');
    const [answer] = await driver.answerParts(thread);
    expect(answer).toContain('every monday');
  });

  it('refuses a file it cannot read with a clear message, and adds nothing', async () => {
    const { result } = await driver.ingest({
      name: 'quarterly-report.pdf',
      bytes: new TextEncoder().encode('this is not really a pdf'),
    });
    expect(result).toMatch(/quarterly-report\.pdf is named \.pdf but is not a PDF/);
    const thread = await driver.mention('What does the quarterly report say?');
    const [answer] = await driver.answerParts(thread);
    expect(answer).not.toContain('quarterly-report.pdf');
  });
});

describe.each(platforms)('platform contract: where native streaming is refused, on $name', (factory) => {
  let driver: PlatformDriver;
  beforeAll(async () => {
    driver = await factory.start({ model, streaming: false });
  });
  afterAll(async () => {
    await driver?.close();
  });

  it('still delivers the whole answer once, through edits and posts', async () => {
    const thread = await driver.mention(everything);
    const parts = await driver.answerParts(thread);
    const joined = parts.join('\n');
    for (let index = 0; index < 60; index++) expect(joined).toContain(`echo "line ${index}: $file"`);
    await driver.barrier();
    // Exactly the answer's parts: no second copy, no status left behind.
    expect(driver.repliesNow(thread)).toHaveLength(parts.length);
  });
});

describe.each(platforms)('platform contract: a crash mid-answer on $name', { timeout: 90_000 }, (factory) => {
  let driver: PlatformDriver;
  beforeAll(async () => {
    driver = await factory.start({ model });
  });
  afterAll(async () => {
    await driver?.close();
  });

  it('tells the thread to ask again exactly once, across restarts, and answers when asked again', async () => {
    const restartedNotice = /restarted before it could finish answering this; please ask again/;
    const thread = await driver.crashMidAnswer('How do I loop over files?');
    const notices = () => driver.botMessages(thread).filter((text) => restartedNotice.test(text));
    // Cut short: the status and nothing else.
    expect(driver.botMessages(thread)).toHaveLength(1);
    expect(notices()).toEqual([]);

    await driver.resume();
    // The status itself now says what happened; nothing else was posted.
    expect(driver.botMessages(thread)).toHaveLength(1);
    expect(notices()).toHaveLength(1);
    await driver.restart();
    expect(notices()).toHaveLength(1);

    await driver.mentionInThread(thread, 'How do I loop over files?');
    const replies = await driver.replies(thread, 2);
    expect(replies.at(-1)).not.toMatch(restartedNotice);
    expect(notices()).toHaveLength(1);
    expect(driver.pingsSent()).toEqual([]);
  });
});
