/**
 * A crash while a file attached to a question is being read: `ragent start` (a child process) takes
 * the mention, starts reading the file into the thread's own files and is killed with SIGKILL once it
 * asks the embedder (see bot-lifecycle). Nothing of the file is visible afterwards, the next start
 * tells the thread to ask again, and asking again with the file reads it and answers from it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { threadFilesScope } from '../../src/core/ids.ts';
import { slackThreadId } from '../../src/platforms/slack/slack-ids.ts';
import { makePdf } from '../support/make-pdf.ts';
import { defaultChannel, type SlackHarness, startSlackHarness } from './slack-harness.ts';

const restartedNotice = /restarted before it could finish answering this; please ask again/;

describe('Slack: a crash while reading a file attached to a question', { timeout: 90_000 }, () => {
  let harness: SlackHarness | undefined;
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });

  it('leaves nothing of the file, tells the thread to ask again, and reads it when asked again', async () => {
    harness = await startSlackHarness({ environment: { RAGENT_EMBEDDINGS: 'ollama' } });
    const h = harness;
    const file = h.slack.addFile({
      id: 'FTHREAD1',
      name: 'loops.pdf',
      mimetype: 'application/pdf',
      bytes: await makePdf([
        ['Bash loops', 'A while loop repeats its body while the test command succeeds.'],
      ]),
    });
    const ask = (threadTs?: string) =>
      h.mention('What does a while loop do?', {
        subtype: 'file_share',
        files: [file],
        ...(threadTs ? { threadTs } : {}),
      });
    const ts = await h.crashMidIngest(() => ask());
    const threadFiles = [threadFilesScope(slackThreadId(h.slack.teamId, defaultChannel, ts))];

    await h.resume();
    expect(await h.services.ingestion.listDocuments(threadFiles)).toEqual([]);
    const notices = () =>
      h.slack.messages(defaultChannel, ts).filter((message) => restartedNotice.test(message.text));
    await h.slack.waitFor(() => notices().length === 1, 10_000, 'the "ask again" notice');

    await ask(ts);
    const [, answer] = await h.waitForReply(defaultChannel, ts, 2);
    expect(JSON.stringify(answer)).toContain('while loop repeats its body');
    expect((await h.services.ingestion.listDocuments(threadFiles)).map((document) => document.name)).toEqual([
      'loops.pdf',
    ]);
    // The channel's own set never got it.
    expect(await h.services.ingestion.listDocuments([`slack:${h.slack.teamId}:${defaultChannel}`])).toEqual(
      [],
    );
  });
});
