/**
 * Every type the ingest reads goes through Slack too: a CSV and a Word file shared with "@ragent
 * ingest" become searchable in that workspace, and a file it cannot read gets the ingest's own clear
 * refusal in the result while the other files of the same message are still added.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatScript } from '../fakes/fake-ollama.ts';
import { docx, makeDocx } from '../support/make-office.ts';
import { roleOf } from '../support/model-roles.ts';
import { blockText, defaultChannel, type SlackHarness, startSlackHarness } from './slack-harness.ts';
import { slackModel } from './slack-model.ts';

/** The Slack tests' model, answering by quoting whatever file of these the search returned. */
const formatsModel: ChatScript = (request, index) => {
  const results = request.messages.filter((message) => message.role === 'tool');
  if (roleOf(request) !== 'orchestrator' || results.length === 0) return slackModel(request, index);
  const found = results.map((message) => message.content).join('\n');
  const file = /(cost-centres\.csv|handbook\.docx)/.exec(found)?.[1];
  if (!file) return { content: 'The documents do not say.' };
  return { content: `**From the documents:** ${found.slice(0, 600)}\n\nSources:\n- ${file}` };
};

describe('Slack: sharing files of every supported type for ingest', () => {
  let harness: SlackHarness;
  beforeAll(async () => {
    harness = await startSlackHarness({ model: formatsModel });
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('adds a CSV and a DOCX shared in one message, refuses the unreadable one, and answers from them', async () => {
    const csv = harness.slack.addFile({
      id: 'FCSV1',
      name: 'cost-centres.csv',
      mimetype: 'text/csv',
      bytes: new TextEncoder().encode(
        'Cost centre,Owner,Amount\n4410,Quokka facilities,12300\n4420,Wombat travel,800\n',
      ),
    });
    const binary = harness.slack.addFile({
      id: 'FBIN1',
      name: 'firmware.bin',
      mimetype: 'application/octet-stream',
      bytes: Uint8Array.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 3, 0, 0xff]),
    });
    const word = harness.slack.addFile({
      id: 'FDOCX1',
      name: 'handbook.docx',
      mimetype: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      bytes: makeDocx(
        docx.heading(1, 'Parking') + docx.paragraph('Visitors park their zeppelins on the roof deck.'),
      ),
    });
    const ts = await harness.mention('ingest', {
      channel: defaultChannel,
      subtype: 'file_share',
      files: [csv, binary, word],
    });
    const [result] = await harness.waitForReply(defaultChannel, ts);
    const settled = await harness.slack.waitFor(
      () => {
        const text = harness.slack
          .messages(defaultChannel)
          .find((message) => message.ts === result?.ts)?.text;
        return text && (text.match(/:white_check_mark:|:x:/g) ?? []).length >= 3 ? text : undefined;
      },
      20_000,
      'the ingest result of all three files',
    );
    expect(settled).toMatch(/:white_check_mark: \*cost-centres\.csv\*/);
    expect(settled).toMatch(/:white_check_mark: \*handbook\.docx\*/);
    expect(settled).toMatch(
      /:x: \*firmware\.bin\*.*firmware\.bin is not a file type ragent reads\. Supported: \.pdf, /,
    );

    const question = await harness.mention('Which cost centre belongs to Quokka facilities?');
    const [answer] = await harness.waitForReply(defaultChannel, question);
    const text = answer ? blockText(answer) : '';
    expect(text).toContain('4410');
    expect(text).toMatch(/cost-centres\.csv/);

    const parking = await harness.mention('Where do visitors park their zeppelins?');
    const [parkingAnswer] = await harness.waitForReply(defaultChannel, parking);
    expect(parkingAnswer ? blockText(parkingAnswer) : '').toContain('roof deck');

    // Another workspace asks the same and finds nothing of it.
    const other = await harness.mention('Which cost centre belongs to Quokka facilities?', {
      team: 'T0OTHER',
      channel: 'C0OTHER',
    });
    const [otherAnswer] = await harness.waitForReply('C0OTHER', other);
    expect(otherAnswer ? blockText(otherAnswer) : '').not.toContain('Quokka');
  });
});
