import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAllowedHost, platformHosts } from '../../src/ingestion/allowed-hosts.ts';
import { downloadFrom } from '../../src/ingestion/file-servers.ts';
import {
  type SlackFileReference,
  servedSlackFile,
  slackFileHosts,
  slackFileServers,
} from '../../src/platforms/slack/download-slack-file.ts';
import { type FakeSlackApi, startFakeSlackApi } from '../fakes/fake-slack-api.ts';

/** A shared file downloaded as `slackFile` does: from Slack's file servers, with the bot token. */
const downloadSlackFile = (
  file: SlackFileReference,
  options: { botToken: string; apiUrl: string | undefined; maxBytes: number },
) =>
  downloadFrom(slackFileServers(options.botToken, options.apiUrl), servedSlackFile(file), options.maxBytes);

/** Where a Slack file may be downloaded from, as the download checks it (link and redirects). */
const isSlackFileHost = (url: URL, apiUrl: string | undefined) =>
  isAllowedHost(url, platformHosts(slackFileHosts, apiUrl));

describe('downloading a shared file from Slack', () => {
  let slack: FakeSlackApi;
  beforeAll(async () => {
    slack = await startFakeSlackApi();
  });
  afterAll(async () => {
    await slack?.close();
  });

  const pdf = new TextEncoder().encode('%PDF-1.7\n fake body');

  it('accepts only Slack’s own file hosts (and the configured API origin)', () => {
    for (const url of [
      'https://files.slack.com/x',
      'https://acme.slack.com/x',
      'https://a.slack-edge.com/x',
    ]) {
      expect(isSlackFileHost(new URL(url), undefined)).toBe(true);
    }
    for (const url of [
      'http://files.slack.com/x',
      'https://slack.com.evil.io/x',
      'https://evilslack.com/x',
      'https://x.io',
    ]) {
      expect(isSlackFileHost(new URL(url), undefined)).toBe(false);
    }
    expect(isSlackFileHost(new URL(`${slack.url}/files/F1/a.pdf`), undefined)).toBe(false);
    expect(isSlackFileHost(new URL(`${slack.url}/files/F1/a.pdf`), slack.apiUrl)).toBe(true);
  });

  it('downloads with the bot token and checks the sign-in page and size', async () => {
    const file = slack.addFile({ id: 'FOK', name: 'a.pdf', mimetype: 'application/pdf', bytes: pdf });
    const options = { botToken: slack.botToken, apiUrl: slack.apiUrl, maxBytes: 1_000 };
    const bytes = await downloadSlackFile(file as never, options);
    expect(Buffer.from(bytes).toString()).toBe(Buffer.from(pdf).toString());

    await expect(
      downloadSlackFile(file as never, { ...options, botToken: 'xoxb-wrong' }),
    ).rejects.toMatchObject({
      code: 'DOWNLOAD_FAILED',
      message: expect.stringMatching(/sign-in page/),
    });
    await expect(downloadSlackFile(file as never, { ...options, maxBytes: 10 })).rejects.toMatchObject({
      code: 'FILE_TOO_LARGE',
    });
    const { size: _size, ...withoutSize } = file as Record<string, unknown>;
    await expect(downloadSlackFile(withoutSize as never, { ...options, maxBytes: 10 })).rejects.toMatchObject(
      {
        code: 'FILE_TOO_LARGE',
      },
    );
    // Any other served type, and any bytes, come back as they are: the ingest tells what the file is.
    const image = slack.addFile({ id: 'FIMG', name: 'b.pdf', mimetype: 'image/png', bytes: pdf });
    expect(Buffer.from(await downloadSlackFile(image as never, options)).toString()).toBe(
      Buffer.from(pdf).toString(),
    );
    // An HTML file is served as text/html; that is the file, not a sign-in page.
    const page = slack.addFile({
      id: 'FHTML',
      name: 'help.html',
      mimetype: 'text/html',
      bytes: new TextEncoder().encode('<!doctype html><title>Help</title>'),
    });
    expect(Buffer.from(await downloadSlackFile(page as never, options)).toString()).toContain('<title>Help');
  });

  it('never sends the token to a host that is not Slack', async () => {
    const file = { id: 'FX', name: 'x.pdf', url_private_download: 'https://attacker.example/x.pdf' };
    await expect(
      downloadSlackFile(file, { botToken: slack.botToken, apiUrl: slack.apiUrl, maxBytes: 1_000 }),
    ).rejects.toMatchObject({
      code: 'DOWNLOAD_FAILED',
      message: expect.stringMatching(/does not point to Slack/),
    });
    // A redirect away from Slack is not followed either (the token would go with it).
    const redirected = {
      id: 'FR',
      name: 'r.pdf',
      url_private_download: `${slack.url}/redirect?to=${encodeURIComponent('https://attacker.example/r.pdf')}`,
    };
    await expect(
      downloadSlackFile(redirected, { botToken: slack.botToken, apiUrl: slack.apiUrl, maxBytes: 1_000 }),
    ).rejects.toMatchObject({ code: 'DOWNLOAD_FAILED', details: { host: 'attacker.example' } });
    expect(slack.callsTo('redirect')).toHaveLength(1);
  });
});
