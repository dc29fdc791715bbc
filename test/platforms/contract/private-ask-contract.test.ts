/**
 * The platform contract for private answers (`/ragent ask`), written once and run against Slack (HTTP
 * and Socket Mode) and Discord through their wire fakes: only the asker sees the answer; Share posts
 * it in the channel once, crediting the asker; nobody else can share it; the private conversation is
 * the asker's own (a later mention in the channel does not see it) and their next `/ragent ask`
 * continues it. Each negative check is made after a barrier (a later answer, or the press's own
 * answer), never after a sleep.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alreadySharedText, sharedNoteText, shareNotYoursText } from '../../../src/turns/messages-en.ts';
import { discordDriver } from './discord-driver.ts';
import { clarifyingQuestion, type DriverFactory, type PlatformDriver } from './platform-driver.ts';
import { slackDriver } from './slack-driver.ts';

const platforms: DriverFactory[] = [slackDriver('http'), slackDriver('socket'), discordDriver];

describe.each(platforms)('platform contract: private answers on $name', (factory) => {
  let driver: PlatformDriver;
  beforeAll(async () => {
    driver = await factory.start();
  });
  afterAll(async () => {
    await driver?.close();
  });

  const sharedCopies = (question: string) =>
    driver.publicTexts().filter((text) => text.includes(`asked: ${question}`));

  it('answers /ragent ask to the asker only, with a Share button', async () => {
    const ask = await driver.askPrivately('Q-private-1: how do while loops work?');
    const reply = await driver.privateReply(ask);
    expect(reply).not.toContain(clarifyingQuestion);
    expect(reply).toMatch(/ragent_share|ragent:share:/);
    expect(driver.questionsAsked()).toContain('Q-private-1: how do while loops work?');
    await driver.barrier();
    expect(driver.publicTexts().join('\n')).not.toContain('Q-private-1');
  });

  it('tells the asker alone to type a question when there is none, and answers nothing', async () => {
    const reply = await driver.privateReply(await driver.askPrivately(' '));
    expect(reply).toContain('What is your question?');
    await driver.barrier();
    expect(driver.publicTexts().join('\n')).not.toContain('What is your question?');
  });

  it('shares once, crediting the asker; a second press and someone else’s press post nothing more', async () => {
    const question = 'Q-private-2: how do until loops work?';
    const ask = await driver.askPrivately(question);
    await driver.privateReply(ask);
    const [shared] = await driver.share(ask);
    expect(shared).toContain(sharedNoteText);
    expect(sharedCopies(question)).toHaveLength(1);
    // The barrier of each press is its own answer to the presser.
    expect((await driver.share(ask)).join('\n')).toContain(alreadySharedText);
    expect((await driver.share(ask, { bySomeoneElse: true })).join('\n')).toContain(shareNotYoursText);
    expect(sharedCopies(question)).toHaveLength(1);
  });

  it('keeps the private conversation out of the channel: a later mention does not see it', async () => {
    await driver.privateReply(await driver.askPrivately('Q-secret-zebra: how do for loops work?'));
    const thread = await driver.mention('Q-public: how do case statements work?');
    await driver.replies(thread, 1);
    const publicRequests = driver.modelRequests().filter((text) => text.includes('Q-public'));
    expect(publicRequests.length).toBeGreaterThan(0);
    for (const request of publicRequests) expect(request).not.toContain('Q-secret-zebra');
  });

  it('asks back privately, and the asker’s next /ragent ask resumes it', async () => {
    const first = await driver.privateReply(await driver.askPrivately('How do I configure the thingy?'));
    expect(first).toContain(clarifyingQuestion);
    const second = await driver.privateReply(await driver.askPrivately('I mean the loop in the script'));
    expect(second).not.toContain(clarifyingQuestion);
    expect(driver.questionsAsked().at(-1)).toContain('thingy');
    await driver.barrier();
    expect(driver.publicTexts().join('\n')).not.toContain('thingy');
  });
});
