/** A one-page PDF shared in `channel` with "@ragent ingest" (or `text`), waited for until it is ingested. */
import { expect } from 'vitest';
import { makePdf } from '../support/make-pdf.ts';
import type { SlackHarness } from './slack-harness.ts';

let fileCounter = 0;

export async function sharePdfForIngest(
  harness: SlackHarness,
  channel: string,
  name: string,
  sentence: string,
  text = 'ingest',
): Promise<void> {
  fileCounter += 1;
  const file = harness.slack.addFile({
    id: `FSHARED${fileCounter}`,
    name,
    mimetype: 'application/pdf',
    bytes: await makePdf([[name.replace('.pdf', ''), sentence]]),
  });
  const ts = await harness.mention(text, { channel, subtype: 'file_share', files: [file] });
  const [result] = await harness.waitForReply(channel, ts);
  await harness.slack.waitFor(() => /:white_check_mark:|:x:/.test(result?.text ?? '') || undefined, 20_000);
  expect(result?.text).toMatch(/:white_check_mark:/);
}
