/**
 * The platform contract for the document commands (src/commands/): `/ragent docs` lists a channel's
 * documents under its set, only to the person who asked; `/ragent forget` refuses someone who neither
 * added the document nor manages the place, and lets its uploader or an admin remove it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discordDriver } from './discord-driver.ts';
import type { DriverFactory, PlatformDriver } from './platform-driver.ts';
import { slackDriver } from './slack-driver.ts';

const platforms: DriverFactory[] = [slackDriver('http'), slackDriver('socket'), discordDriver];

describe.each(platforms)('platform contract: document commands on $name', (factory) => {
  let driver: PlatformDriver;
  beforeAll(async () => {
    driver = await factory.start();
  });
  afterAll(async () => {
    await driver?.close();
  });

  it('lists the channel’s documents, and removes one only for its uploader or an admin', async () => {
    await driver.addChannelDocument('runbook.md', '# Runbook\n\nRestart the pager service from the console.');
    await driver.addChannelDocument('handbook.md', '# Handbook\n\nVacation days accrue every month.');
    const listed = await driver.command('docs');
    expect(listed.onlyToThem).toBe(true);
    expect(listed.text).toMatch(/^A question here searches these documents:\n\W*This channel\W* \(2\)\n/);
    expect(listed.text).toMatch(/• \W*handbook\.md\W* — 1 page, added/);

    const refused = await driver.forget('runbook.md', 'member');
    expect(refused.text).toMatch(/Only the person who added runbook\.md or .+ can remove it\./);
    expect(refused.onlyToThem).toBe(true);
    expect((await driver.command('docs')).text).toContain('runbook.md');

    expect((await driver.forget('runbook.md', 'uploader')).text).toMatch(
      /Removed \W*runbook\.md\W* \(1 page\) from this channel's documents\. It is no longer searched\./,
    );
    expect((await driver.forget('handbook.md', 'admin')).text).toMatch(/Removed \W*handbook\.md/);
    expect((await driver.command('docs')).text).toMatch(/^No documents yet\. Add files or web pages with /);
  });
});
