/**
 * Document sets per channel, over the wire: a question in a channel searches that channel's set, the
 * workspace's and `shared` — never another channel's (public or private), never another workspace's;
 * threads keep their channel's scopes; DMs search the workspace's and `shared`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { slashCommand, viewSubmission } from '../fakes/fake-slack-events.ts';
import { makePdf } from '../support/make-pdf.ts';
import { sharePdfForIngest } from './share-pdf-for-ingest.ts';
import { blockText, defaultUser, type SlackHarness, startSlackHarness } from './slack-harness.ts';

const hr = 'C0HR';
const eng = 'C0ENG';
const privateChannel = 'G0PRIVATE';
const dm = 'D0ALICE';
const otherTeam = 'T0OTHER';

describe('Slack: a document set per channel', () => {
  let harness: SlackHarness;
  beforeAll(async () => {
    harness = await startSlackHarness();
    harness.slack.addUser({ id: defaultUser, name: 'alice' });
    harness.slack.addUser({ id: 'UADMIN', name: 'admin', isAdmin: true });
  });
  afterAll(async () => {
    await harness?.close();
  });

  const shareWithIngest = (channel: string, name: string, sentence: string, text?: string) =>
    sharePdfForIngest(harness, channel, name, sentence, text);

  /** Asks in `channel` (a DM when it starts with D) and returns the answer's text. */
  async function ask(channel: string, question: string, fields: { team?: string; threadTs?: string } = {}) {
    const ts =
      channel.startsWith('D') && !fields.threadTs
        ? await harness.message(question, { channel, channelType: 'im', ...fields })
        : await harness.mention(question, { channel, ...fields });
    const replies = await harness.waitForReply(channel, fields.threadTs ?? ts);
    const last = replies.at(-1);
    return last ? blockText(last) : '';
  }

  async function command(text: string, channel: string, team = harness.slack.teamId, user = defaultUser) {
    const responseId = `${text}-${channel}-${Math.random()}`;
    await harness.sender.command(
      slashCommand({
        team,
        channel,
        user,
        text,
        responseUrl: harness.slack.responseUrl(responseId),
      }),
    );
    const [reply] = await harness.slack.waitFor(() => {
      const posts = harness.slack.responses(responseId);
      return posts.length > 0 ? posts : undefined;
    });
    return String(reply?.text);
  }

  it('answers from a channel’s documents in that channel and its threads only', async () => {
    await shareWithIngest(hr, 'hr-handbook.pdf', 'Vacationdays accrue monthly for every employee.');
    const team = harness.slack.teamId;
    expect(
      (await harness.services.ingestion.listDocuments([`slack:${team}:${hr}`])).map((d) => d.name),
    ).toEqual(['hr-handbook.pdf']);

    const inChannel = await ask(hr, 'How do vacationdays accrue?');
    expect(inChannel).toContain('hr-handbook.pdf');
    // A thread keeps its channel's scopes.
    const top = await harness.mention('How do vacationdays accrue?', { channel: hr });
    await harness.waitForReply(hr, top);
    const inThread = await ask(hr, 'And vacationdays again?', { threadTs: top });
    expect(inThread).toContain('hr-handbook.pdf');

    // Another channel, a DM, another workspace's channel of the same id: none sees it.
    expect(await ask(eng, 'How do vacationdays accrue?')).not.toContain('hr-handbook.pdf');
    expect(await ask(dm, 'How do vacationdays accrue?')).not.toContain('hr-handbook.pdf');
    expect(await ask(hr, 'How do vacationdays accrue?', { team: otherTeam })).not.toContain(
      'hr-handbook.pdf',
    );
  });

  it('keeps a private channel’s documents in that channel', async () => {
    await shareWithIngest(privateChannel, 'secret-plan.pdf', 'The quasarbudget is forty million.');
    expect(await ask(privateChannel, 'What is the quasarbudget?')).toContain('secret-plan.pdf');
    expect(await ask(hr, 'What is the quasarbudget?')).not.toContain('secret-plan.pdf');
    expect(await ask(dm, 'What is the quasarbudget?')).not.toContain('secret-plan.pdf');
    expect(await command('docs', hr)).not.toContain('secret-plan.pdf');
  });

  it('puts a PDF shared with “ingest for workspace” in the workspace’s set, seen by every channel and DMs', async () => {
    await shareWithIngest(
      hr,
      'all-hands.pdf',
      'The moonbasepolicy applies to all staff.',
      'ingest for workspace',
    );
    const team = harness.slack.teamId;
    expect((await harness.services.ingestion.listDocuments([`slack:${team}`])).map((d) => d.name)).toEqual([
      'all-hands.pdf',
    ]);
    expect(await ask(eng, 'What is the moonbasepolicy?')).toContain('all-hands.pdf');
    expect(await ask(dm, 'What is the moonbasepolicy?')).toContain('all-hands.pdf');
    expect(await ask(eng, 'What is the moonbasepolicy?', { team: otherTeam })).not.toContain('all-hands.pdf');
  });

  it('shows what a channel searches, grouped by set; forget works on this channel’s set and the workspace’s', async () => {
    const inHr = await command('docs', hr);
    expect(inHr).toMatch(/\*This channel\* \(1\)\n• \*hr-handbook\.pdf\*/);
    expect(inHr).toMatch(/\*This workspace\* \(1\)\n• \*all-hands\.pdf\*/);
    const inEng = await command('docs', eng);
    expect(inEng).not.toContain('hr-handbook.pdf');
    expect(inEng).toContain('all-hands.pdf');

    // Another channel cannot forget this channel's document.
    expect(await command('forget hr-handbook.pdf', eng)).toMatch(/No document/);
    // A name Slack escaped as a link (the command has should_escape) is read as typed.
    expect(await command('forget <http://hr-handbook.pdf|hr-handbook.pdf>', hr)).toMatch(
      /Removed \*hr-handbook\.pdf\*.*this channel's/,
    );
    expect(await command('forget all-hands.pdf', eng)).toMatch(
      /Removed \*all-hands\.pdf\*.*this workspace's/,
    );
    const team = harness.slack.teamId;
    expect(await harness.services.ingestion.listDocuments([`slack:${team}:${hr}`, `slack:${team}`])).toEqual(
      [],
    );
  });

  it('asks in the /ragent ingest form which set the files go to, stating the default', async () => {
    const team = harness.slack.teamId;
    const opens = harness.slack.callsTo('views.open').length;
    await harness.sender.command(
      slashCommand({
        team,
        channel: eng,
        user: defaultUser,
        text: 'ingest',
        responseUrl: harness.slack.responseUrl('x'),
      }),
    );
    const open = await harness.slack.waitFor(
      () => harness.slack.callsTo('views.open')[opens],
      5_000,
      'views.open',
    );
    const view = open.body.view as {
      callback_id: string;
      private_metadata: string;
      blocks: Array<{ block_id: string; label: { text: string }; element: Record<string, unknown> }>;
    };
    const [filesBlock, targetBlock] = view.blocks;
    expect(targetBlock?.label.text).toBe('Who can search them? (default: this channel only)');
    expect(targetBlock?.element).toMatchObject({
      type: 'radio_buttons',
      initial_option: { value: 'channel' },
      options: [{ value: 'channel' }, { value: 'workspace' }],
    });

    const file = harness.slack.addFile({
      id: 'FFORM1',
      name: 'runbook.pdf',
      mimetype: 'application/pdf',
      bytes: await makePdf([['Runbook', 'Restart the zorbleservice with care.']]),
    });
    const filesElement = filesBlock?.element as { action_id: string };
    const targetElement = targetBlock?.element as { action_id: string };
    await harness.sender.interaction(
      viewSubmission({
        team,
        user: defaultUser,
        callbackId: view.callback_id,
        privateMetadata: view.private_metadata,
        values: {
          [filesBlock?.block_id ?? '']: { [filesElement.action_id]: { type: 'file_input', files: [file] } },
          [targetBlock?.block_id ?? '']: {
            [targetElement.action_id]: { type: 'radio_buttons', selected_option: { value: 'workspace' } },
          },
        },
      }),
    );
    await expect
      .poll(
        async () =>
          (await harness.services.ingestion.listDocuments([`slack:${team}`])).map(
            (document) => document.name,
          ),
        { timeout: 20_000 },
      )
      .toEqual(['runbook.pdf']);
    expect(await harness.services.ingestion.listDocuments([`slack:${team}:${eng}`])).toEqual([]);

    // In a DM there is no channel set: the form does not ask.
    const dmOpens = harness.slack.callsTo('views.open').length;
    await harness.sender.command(
      slashCommand({
        team,
        channel: dm,
        user: defaultUser,
        text: 'ingest',
        responseUrl: harness.slack.responseUrl('y'),
      }),
    );
    const dmOpen = await harness.slack.waitFor(() => harness.slack.callsTo('views.open')[dmOpens], 5_000);
    expect((dmOpen.body.view as { blocks: unknown[] }).blocks).toHaveLength(1);
  });

  it('lets an admin link a channel to another channel’s set with /ragent use, and undo it', async () => {
    const oncall = 'C0ONCALL';
    const oncallEu = 'C0ONCALLEU';
    const team = harness.slack.teamId;
    await shareWithIngest(oncall, 'oncall-runbook.pdf', 'The pagerrotation changes every monday.');
    expect(await ask(oncallEu, 'When does the pagerrotation change?')).not.toContain('oncall-runbook.pdf');

    expect(await command(`use <#${oncall}|oncall>`, oncallEu)).toMatch(/Only a workspace admin can link/);
    expect(await harness.services.coordination.linkedChannels(`slack:${team}:${oncallEu}`)).toEqual([]);
    expect(await command(`use <#${oncall}|oncall>`, oncallEu, team, 'UADMIN')).toMatch(
      /now also searches the documents of <#C0ONCALL>/,
    );
    expect(await ask(oncallEu, 'When does the pagerrotation change?')).toContain('oncall-runbook.pdf');
    expect(await command('docs', oncallEu)).toMatch(/\*Linked channels\* \(1\)\n• \*oncall-runbook\.pdf\*/);
    // One way only, and only for that channel.
    expect(await ask(eng, 'When does the pagerrotation change?')).not.toContain('oncall-runbook.pdf');
    expect(await command(`use <#${oncallEu}>`, oncallEu, team, 'UADMIN')).toMatch(/always searches its own/);
    expect(await command('use oncall', oncallEu, team, 'UADMIN')).toMatch(/Which channel\?/);

    expect(await command(`unuse <#${oncall}|oncall>`, oncallEu, team, 'UADMIN')).toMatch(
      /no longer searches/,
    );
    expect(await ask(oncallEu, 'When does the pagerrotation change?')).not.toContain('oncall-runbook.pdf');
  });
});
