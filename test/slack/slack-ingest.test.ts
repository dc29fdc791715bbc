import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockAction, slashCommand, viewSubmission } from '../fakes/fake-slack-events.ts';
import { makePdf } from '../support/make-pdf.ts';
import {
  blockText,
  defaultChannel,
  defaultUser,
  type SlackHarness,
  startSlackHarness,
} from './slack-harness.ts';

const otherTeam = 'T0OTHER';

describe('/ragent ingest, docs, forget and feedback over the wire', () => {
  let harness: SlackHarness;
  beforeAll(async () => {
    harness = await startSlackHarness();
    harness.slack.addUser({ id: defaultUser, name: 'alice' });
    harness.slack.addUser({ id: 'UBOB', name: 'bob' });
    harness.slack.addUser({ id: 'UADMIN', name: 'admin', isAdmin: true });
  });
  afterAll(async () => {
    await harness?.close();
  });

  async function command(text: string, user = defaultUser, team = harness.slack.teamId) {
    const responseId = `${text}-${user}-${Math.random()}`;
    const delivery = await harness.sender.command(
      slashCommand({
        team,
        channel: defaultChannel,
        user,
        text,
        responseUrl: harness.slack.responseUrl(responseId),
      }),
    );
    expect(delivery.status).toBe(200);
    return responseId;
  }

  /** `minimal`: the form hands over only the file id and name, so the adapter asks files.info for the link. */
  async function ingestThroughModal(
    name: string,
    pages: string[][],
    options: { minimal?: boolean; resultIn?: string } = {},
  ) {
    const team = harness.slack.teamId;
    const opens = harness.slack.callsTo('views.open').length;
    await command('ingest', defaultUser, team);
    const open = await harness.slack.waitFor(
      () => harness.slack.callsTo('views.open')[opens],
      5_000,
      'views.open',
    );
    const view = open.body.view as {
      callback_id: string;
      private_metadata: string;
      blocks: Array<Record<string, unknown>>;
    };
    const input = view.blocks[0] as {
      block_id: string;
      element: { type: string; action_id: string; filetypes: string[] };
    };
    expect(input.element).toMatchObject({ type: 'file_input' });
    expect(input.element.filetypes).toEqual(
      expect.arrayContaining(['pdf', 'docx', 'csv', 'xlsx', 'html', 'eml', 'png']),
    );

    const id = `F${Math.random().toString(36).slice(2, 10).toUpperCase()}`;
    const file = harness.slack.addFile({
      id,
      name,
      mimetype: 'application/pdf',
      bytes: await makePdf(pages),
    });
    const submission = viewSubmission({
      team,
      user: defaultUser,
      callbackId: view.callback_id,
      privateMetadata: view.private_metadata,
      values: {
        [input.block_id]: {
          [input.element.action_id]: { type: 'file_input', files: [options.minimal ? { id, name } : file] },
        },
      },
    });
    const delivery = await harness.sender.interaction(submission);
    expect(delivery.status).toBe(200);
    const result = await harness.slack.waitFor(
      () =>
        harness.slack
          .messages(options.resultIn ?? defaultChannel)
          .find((message) => message.text.includes(name) && /:white_check_mark:|:x:/.test(message.text)),
      20_000,
      `the ingest result for ${name}`,
    );
    return result;
  }

  it('ingests a PDF attached in the /ragent ingest form and answers from it, in that workspace only', async () => {
    const result = await ingestThroughModal('loops.pdf', [
      ['Bash loops', 'A while loop repeats its body while the test command succeeds.'],
      ['Until loops', 'An until loop repeats its body until the test command succeeds.'],
    ]);
    expect(result.text).toMatch(/:white_check_mark: \*loops\.pdf\* — 2 pages, \d+ chunks?, \d+\.\d s/);
    // The file was fetched with the bot token from the file host.
    expect(harness.slack.callsTo('files.download').at(-1)?.token).toBe(harness.slack.botToken);

    const ts = await harness.mention('How does a while loop repeat?');
    const [answer] = await harness.waitForReply(defaultChannel, ts);
    const text = answer ? blockText(answer) : '';
    expect(text).toContain('while loop repeats');
    // The source links to the file's page in Slack (its permalink, kept with the document).
    expect(text).toMatch(
      /:page_facing_up: \*<https:\/\/ragent-test\.slack\.com\/files\/F[A-Z0-9]+\/loops\.pdf\|loops\.pdf>\* pp?\. \d/,
    );

    // Another workspace asks the same: it cannot see this workspace's document.
    const otherTs = await harness.mention('How does a while loop repeat?', {
      team: otherTeam,
      channel: 'C0OTHER',
    });
    const [otherAnswer] = await harness.waitForReply('C0OTHER', otherTs);
    expect(otherAnswer ? blockText(otherAnswer) : '').not.toContain('loops.pdf');
    expect(otherAnswer ? blockText(otherAnswer) : '').not.toContain('while loop repeats');
  });

  it('shows the progress and result in the person’s DM when the bot cannot post in the channel', async () => {
    // The channel refuses the bot's first post (it was removed from it): the progress goes to a DM.
    harness.slack.failNext('chat.postMessage', 'not_in_channel');
    const result = await ingestThroughModal(
      'until.pdf',
      [['Until loops', 'An until loop runs until its test command succeeds.']],
      { resultIn: defaultUser },
    );
    expect(result.text).toMatch(/:white_check_mark: \*until\.pdf\* — 1 page/);
    expect(
      harness.slack.messages(defaultChannel).filter((message) => message.text.includes('until.pdf')),
    ).toEqual([]);
  });

  it('lists the workspace’s documents with /ragent docs, and only those', async () => {
    const id = await command('docs');
    const [reply] = await harness.slack.waitFor(() => {
      const posts = harness.slack.responses(id);
      return posts.length > 0 ? posts : undefined;
    });
    expect(reply).toMatchObject({ response_type: 'ephemeral' });
    expect(String(reply?.text)).toContain('loops.pdf');

    const otherId = await command('docs', defaultUser, otherTeam);
    const [otherReply] = await harness.slack.waitFor(() => {
      const posts = harness.slack.responses(otherId);
      return posts.length > 0 ? posts : undefined;
    });
    expect(String(otherReply?.text)).not.toContain('loops.pdf');
  });

  it('quotes a document containing <!channel> without pinging anyone', async () => {
    const result = await ingestThroughModal(
      'announcement.pdf',
      [['Deploy freeze', '<!channel> the deploy freeze starts on Friday. @here @everyone read this.']],
      { minimal: true },
    );
    expect(result.text).toContain(':white_check_mark:');
    expect(harness.slack.callsTo('files.info').at(-1)?.body.file).toMatch(/^F/);
    const ts = await harness.mention('When does the deploy freeze start?');
    const [answer] = await harness.waitForReply(defaultChannel, ts);
    const outgoing = `${answer?.text}\n${answer ? blockText(answer) : ''}`;
    expect(outgoing).toContain('deploy freeze starts');
    for (const ping of ['<!channel>', '@here', '@everyone', '&lt;!channel&gt;'])
      expect(outgoing).not.toContain(ping);
    // The form gave only the file's id: the permalink came from files.info, and the source links to it.
    expect(outgoing).toMatch(
      /<https:\/\/ragent-test\.slack\.com\/files\/F[A-Z0-9]+\/announcement\.pdf\|announcement\.pdf>/,
    );
  });

  it("stores 👍/👎 clicks on Slack's feedback element with the thread and answer ids", async () => {
    const ts = await harness.mention('What does an until loop do?');
    const [answer] = await harness.waitForReply(defaultChannel, ts);
    const block = answer?.blocks.find(
      (candidate) => (candidate as { type: string }).type === 'context_actions',
    ) as {
      block_id: string;
      elements: Array<{ type: string; action_id: string; negative_button: { value: string } }>;
    };
    const [element] = block.elements;
    expect(element?.type).toBe('feedback_buttons');
    const down = { action_id: element?.action_id ?? '', value: element?.negative_button.value ?? '' };
    const delivery = await harness.sender.interaction(
      blockAction({
        team: harness.slack.teamId,
        user: 'UBOB',
        channel: defaultChannel,
        messageTs: answer?.ts ?? '',
        threadTs: ts,
        actionId: down.action_id,
        value: down.value,
        type: 'feedback_buttons',
        blockId: block.block_id,
      }),
    );
    expect(delivery.status).toBe(200);
    const threadId = `slack:${harness.slack.teamId}:${defaultChannel}:${ts}`;
    const feedback = await harness.services.coordination.listFeedback({ threadId: threadId });
    expect(feedback).toEqual([
      expect.objectContaining({
        threadId,
        user: 'UBOB',
        value: 'down',
        answerId: JSON.parse(down.value).answerId,
      }),
    ]);
    // The answer the vote is about was recorded when it was delivered, for `ragent feedback export`.
    const [delivered] = await harness.services.coordination.findAnswers([feedback[0]?.answerId ?? '']);
    expect(delivered).toMatchObject({
      threadId,
      question: 'What does an until loop do?',
      link: `https://app.slack.com/client/${harness.slack.teamId}/${defaultChannel}/thread/${defaultChannel}-${ts}`,
    });
    expect(delivered?.answer).toContain('From the documents');
  });

  it('lets only the uploader or an admin forget a document', async () => {
    const denied = await command('forget loops.pdf', 'UBOB');
    const [refusal] = await harness.slack.waitFor(() => {
      const posts = harness.slack.responses(denied);
      return posts.length > 0 ? posts : undefined;
    });
    expect(String(refusal?.text)).toMatch(/Only the person who added loops\.pdf or a workspace admin/);

    const allowed = await command('forget loops.pdf', 'UADMIN');
    const [removal] = await harness.slack.waitFor(() => {
      const posts = harness.slack.responses(allowed);
      return posts.length > 0 ? posts : undefined;
    });
    expect(String(removal?.text)).toMatch(/Removed \*loops\.pdf\*/);
    const documents = await harness.services.ingestion.listDocuments([`slack:${harness.slack.teamId}`]);
    expect(documents.map((document) => document.name)).not.toContain('loops.pdf');
  });

  it('ingests a PDF shared in a message that mentions the bot with "ingest"', async () => {
    const file = harness.slack.addFile({
      id: 'FSHARED1',
      name: 'shared.pdf',
      mimetype: 'application/pdf',
      bytes: await makePdf([['For loops', 'A for loop runs once for each word in a list.']]),
    });
    const ts = await harness.mention('please ingest this', { subtype: 'file_share', files: [file] });
    const [result] = await harness.waitForReply(defaultChannel, ts);
    await harness.slack.waitFor(() => /:white_check_mark:|:x:/.test(result?.text ?? '') || undefined, 20_000);
    expect(result?.text).toMatch(/:white_check_mark: \*shared\.pdf\* — 1 page, \d+ chunks?/);
  });

  it('refuses to download from a host that is not Slack, with a clear message', async () => {
    const file = harness.slack.addFile({
      id: 'FEVIL1',
      name: 'evil.pdf',
      mimetype: 'application/pdf',
      bytes: await makePdf([['x']]),
      downloadUrl: 'https://attacker.example/evil.pdf',
    });
    const ts = await harness.mention('ingest', { subtype: 'file_share', files: [file] });
    const result = await harness.slack.waitFor(
      () => harness.slack.messages(defaultChannel, ts).find((message) => message.text.includes(':x:')),
      10_000,
    );
    expect(result.text).toContain('does not point to Slack');
  });

  it('answers /ragent help and unknown subcommands privately', async () => {
    const id = await command('help');
    const [reply] = await harness.slack.waitFor(() => {
      const posts = harness.slack.responses(id);
      return posts.length > 0 ? posts : undefined;
    });
    expect(String(reply?.text)).toContain('/ragent ingest');
  });
});
