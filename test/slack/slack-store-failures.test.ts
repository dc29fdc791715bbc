/**
 * Whatever fails in bot.sqlite, a Slack thread gets a message: here the claimed-events and turn
 * tables are taken away under the running bot (by a second connection, as a full or broken disk
 * makes every write fail), and a mention still gets its answer, through the real Bolt app.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { blockText, defaultChannel, type SlackHarness, startSlackHarness } from './slack-harness.ts';

describe('Slack: the coordination store failing', () => {
  let harness: SlackHarness | undefined;
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });

  it('still answers a mention when recording the event and the turn fails', async () => {
    const logLines: string[] = [];
    harness = await startSlackHarness({ logLines });
    const broken = new Database(path.join(harness.services.dataDir, 'bot.sqlite'));
    try {
      broken.exec(`
        ALTER TABLE handled_events RENAME TO handled_events_gone;
        ALTER TABLE turns_in_flight RENAME TO turns_in_flight_gone;
      `);
    } finally {
      broken.close();
    }
    const ts = await harness.mention('What does an until loop do?');
    const [reply] = await harness.waitForReply(defaultChannel, ts);
    expect(reply && blockText(reply)).toContain('The documents do not say.');
    expect(reply?.blocks.some((block) => (block as { type: string }).type === 'context_actions')).toBe(true);
    // The failure was logged, not swallowed (the event and its turn are recorded in one write).
    expect(logLines.some((line) => line.includes('could not record the event and its turn'))).toBe(true);
  });
});
