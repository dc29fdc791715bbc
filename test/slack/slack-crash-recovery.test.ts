/**
 * Never a silent thread after a crash: `ragent start` takes a mention, its model never answers, and
 * it is killed with SIGKILL mid-turn (see bot-lifecycle). Slack will not redeliver the event, so the
 * next start must tell that thread, once, to ask again (the common case is in the platform contract,
 * test/platforms/contract/; here what is Slack's own: the assistant status). Likewise an ingest killed
 * mid-embedding: its progress message must not say "embedding…" forever.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { makePdf } from '../support/make-pdf.ts';
import { defaultChannel, type SlackHarness, startSlackHarness } from './slack-harness.ts';

const restartedNotice = /restarted before it could finish answering this; please ask again/;
const interruptedIngest =
  /ragent restarted while ingesting loops\.pdf; nothing was added — run \/ragent ingest again\./;

describe('Slack after a crash', { timeout: 90_000 }, () => {
  let harness: SlackHarness | undefined;
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });

  it('posts the notice in the thread when the assistant status stood in for a placeholder', async () => {
    harness = await startSlackHarness();
    const h = harness;
    h.slack.setAssistantStatusSupported(true);
    const ts = await h.crashMidTurn(() => h.mention('How do I loop over files?'));
    const thread = () => h.slack.messages(defaultChannel, ts).filter((message) => message.ts !== ts);
    expect(thread()).toEqual([]);

    await h.resume();
    expect(thread().map((message) => restartedNotice.test(message.text))).toEqual([true]);
  });

  it('turns the progress message of an ingest a crash cut short into a notice, once, and ingests again', async () => {
    harness = await startSlackHarness({ environment: { RAGENT_EMBEDDINGS: 'ollama' } });
    const h = harness;
    const file = h.slack.addFile({
      id: 'FCRASH1',
      name: 'loops.pdf',
      mimetype: 'application/pdf',
      bytes: await makePdf([
        ['Bash loops', 'A while loop repeats its body while the test command succeeds.'],
      ]),
    });
    const ingest = () => h.mention('please ingest this', { subtype: 'file_share', files: [file] });
    const ts = await h.crashMidIngest(ingest);
    const thread = () => h.slack.messages(defaultChannel, ts).filter((message) => message.ts !== ts);
    const notices = () => thread().filter((message) => interruptedIngest.test(message.text));
    // Cut short mid-embedding: the progress message ("waiting…", or a later stage), stuck.
    expect(thread().map((message) => message.text)).toEqual([
      expect.stringMatching(/^:(hourglass_flowing_sand|inbox_tray): \*loops\.pdf\* — /),
    ]);

    await h.resume();
    // The progress message itself now says what happened; nothing else was posted, nothing was added.
    expect(thread()).toHaveLength(1);
    expect(notices()).toHaveLength(1);
    const scope = [`slack:${h.slack.teamId}:${defaultChannel}`];
    expect(await h.services.ingestion.listDocuments(scope)).toEqual([]);

    await h.restart();
    expect(notices()).toHaveLength(1);

    const again = await ingest();
    const result = await h.slack.waitFor(
      () =>
        h.slack
          .messages(defaultChannel, again)
          .find((message) => /:white_check_mark:|:x:/.test(message.text)),
      20_000,
      'the ingest result',
    );
    expect(result.text).toMatch(/:white_check_mark: \*loops\.pdf\* — 1 page, \d+ chunks?/);
    expect((await h.services.ingestion.listDocuments(scope)).map((document) => document.name)).toEqual([
      'loops.pdf',
    ]);
    expect(notices()).toHaveLength(1);
  });
});
