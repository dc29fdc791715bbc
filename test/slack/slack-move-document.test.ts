/**
 * `/ragent move <name> to channel|workspace` over the wire (real Bolt against the fake Slack API): the
 * document changes set at once, keeps its upload link, and is searched only where it now is; only its
 * uploader or a workspace admin may move it; a name already in the target is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { slashCommand } from '../fakes/fake-slack-events.ts';
import { sharePdfForIngest } from './share-pdf-for-ingest.ts';
import { blockText, defaultUser, type SlackHarness, startSlackHarness } from './slack-harness.ts';

const hr = 'C0HR';
const eng = 'C0ENG';
const dm = 'D0ALICE';

describe('Slack: /ragent move', () => {
  let harness: SlackHarness;
  let team: string;
  beforeAll(async () => {
    harness = await startSlackHarness();
    team = harness.slack.teamId;
    harness.slack.addUser({ id: defaultUser, name: 'alice' });
    harness.slack.addUser({ id: 'UBOB', name: 'bob' });
    harness.slack.addUser({ id: 'UADMIN', name: 'admin', isAdmin: true });
  });
  afterAll(async () => {
    await harness?.close();
  });

  const shareWithIngest = (channel: string, name: string, sentence: string, text?: string) =>
    sharePdfForIngest(harness, channel, name, sentence, text);

  async function ask(channel: string, question: string) {
    const ts = await harness.mention(question, { channel });
    const replies = await harness.waitForReply(channel, ts);
    const last = replies.at(-1);
    return last ? blockText(last) : '';
  }

  async function command(text: string, channel: string, user = defaultUser) {
    const responseId = `${text}-${channel}-${Math.random()}`;
    await harness.sender.command(
      slashCommand({ team, channel, user, text, responseUrl: harness.slack.responseUrl(responseId) }),
    );
    const [reply] = await harness.slack.waitFor(() => {
      const posts = harness.slack.responses(responseId);
      return posts.length > 0 ? posts : undefined;
    });
    return String(reply?.text);
  }

  const documentsOf = async (scope: string) => harness.services.ingestion.listDocuments([scope]);

  it('moves a channel’s document to the workspace and back into another channel, keeping its upload link', async () => {
    await shareWithIngest(hr, 'hr-guide.pdf', 'Sabbaticalweeks are granted after five years.');
    const [uploaded] = await documentsOf(`slack:${team}:${hr}`);
    expect(uploaded?.link).toMatch(/^https:\/\//);
    expect(await ask(eng, 'How many sabbaticalweeks?')).not.toContain('hr-guide.pdf');

    // Bob neither added it nor is an admin.
    expect(await command('move hr-guide.pdf to workspace', hr, 'UBOB')).toMatch(
      /^:warning: Only the person who added \*hr-guide\.pdf\* or a workspace admin can move it\./,
    );
    expect(await documentsOf(`slack:${team}`)).toEqual([]);

    expect(await command('move hr-guide.pdf to workspace', hr)).toBe(
      ":package: Moved *hr-guide.pdf* from this channel's documents to this workspace's documents. Every channel of this workspace searches it now.",
    );
    const [moved] = await documentsOf(`slack:${team}`);
    expect(moved).toMatchObject({ id: uploaded?.id, uploader: defaultUser, link: uploaded?.link });
    expect(await documentsOf(`slack:${team}:${hr}`)).toEqual([]);
    // The answer's source still links to the Slack upload.
    expect(await ask(eng, 'How many sabbaticalweeks?')).toContain(`<${uploaded?.link}|hr-guide.pdf`);
    expect(await command('docs', hr)).toMatch(/\*This workspace\* \(1\)\n• \*hr-guide\.pdf\*/);
    expect(await command('move hr-guide.pdf to workspace', hr)).toBe(
      ":warning: hr-guide.pdf is already in this workspace's documents.",
    );

    // An admin moves it from the workspace into #eng's set: #hr no longer sees it, #eng does.
    expect(await command('move hr-guide.pdf to this channel', eng, 'UADMIN')).toMatch(
      /^:package: Moved \*hr-guide\.pdf\* from this workspace's documents to this channel's documents\. Only this channel searches it now/,
    );
    expect((await documentsOf(`slack:${team}:${eng}`)).map((document) => document.link)).toEqual([
      uploaded?.link,
    ]);
    expect(await ask(hr, 'How many sabbaticalweeks?')).not.toContain('hr-guide.pdf');
    expect(await ask(eng, 'How many sabbaticalweeks?')).toContain('hr-guide.pdf');
  });

  it('refuses a name already in the target set, and explains the command when it is incomplete', async () => {
    await shareWithIngest(hr, 'policy.pdf', 'The quietroom is on floor three.');
    await shareWithIngest(eng, 'policy.pdf', 'The standupclock starts at nine.', 'ingest for workspace');
    expect(await command('move policy.pdf to workspace', hr)).toBe(
      ':warning: This workspace already has a document named *policy.pdf* (or the same file under another name). Nothing was moved: forget one of the two first, then move again.',
    );
    expect((await documentsOf(`slack:${team}:${hr}`)).map((document) => document.name)).toEqual([
      'policy.pdf',
    ]);
    expect(await ask(eng, 'Where is the quietroom?')).not.toContain('policy.pdf');

    expect(await command('move policy.pdf', hr)).toMatch(/^Which document, and where to\?/);
    expect(await command('move nothing.pdf to workspace', hr)).toBe(
      ':warning: No document "nothing.pdf" in this channel\'s documents. /ragent docs lists what this channel searches.',
    );
    expect(await command('move policy.pdf to workspace', dm)).toMatch(
      /^:warning: Use this command in a channel/,
    );
    // Another workspace's command never reaches this workspace's documents.
    const responseId = `other-${Math.random()}`;
    await harness.sender.command(
      slashCommand({
        team: 'T0OTHER',
        channel: hr,
        user: defaultUser,
        text: 'move policy.pdf to workspace',
        responseUrl: harness.slack.responseUrl(responseId),
      }),
    );
    const [reply] = await harness.slack.waitFor(() => {
      const posts = harness.slack.responses(responseId);
      return posts.length > 0 ? posts : undefined;
    });
    expect(String(reply?.text)).toMatch(/No document "policy\.pdf"/);
    expect((await documentsOf(`slack:${team}:${hr}`)).map((document) => document.name)).toEqual([
      'policy.pdf',
    ]);
  });

  it('lists the command in /ragent help', async () => {
    expect(await command('help', hr)).toContain('`/ragent move <name> to channel|workspace`');
  });
});
