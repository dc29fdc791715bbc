/**
 * HTML and e-mail files from the CLI, through the real program: a saved page keeps its main content
 * and headings; an .eml (made here: multipart with a plain and an HTML part, a PDF, a text and an
 * image attachment) keeps subject, sender and date, and its PDF and text attachments become documents
 * of their own named after the mail (the image is skipped); an HTML-only mail is converted; an .mbox
 * gives a section per message.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sitePage } from '../fakes/fake-website.ts';
import { makePdf } from '../support/make-pdf.ts';
import { runCli } from '../support/run-cli.ts';

let workDir: string;
beforeAll(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), 'ragent-web-mail-files-'));
});
afterAll(() => rm(workDir, { recursive: true, force: true }));
afterEach(() => {
  process.exitCode = undefined;
});

async function run(args: string[]) {
  const result = await runCli(args, {
    RAGENT_DATA_DIR: path.join(workDir, 'data'),
    RAGENT_EMBEDDINGS: 'none',
  });
  if (result.thrown) throw result.thrown;
  return result;
}

interface JsonHit {
  file: string;
  section: string[];
  text: string;
}
async function search(query: string): Promise<JsonHit[]> {
  return JSON.parse((await run(['search', query, '--json'])).text) as JsonHit[];
}

function base64Lines(bytes: Uint8Array): string {
  return (
    Buffer.from(bytes)
      .toString('base64')
      .match(/.{1,76}/g) ?? []
  ).join('\r\n');
}

async function serviceMail(): Promise<string> {
  const pdf = await makePdf([
    ['Service report', 'The burner nozzle was cleaned and the flue gas measured at 42 ppm.'],
  ]);
  return [
    'From: Dana Field <dana@example.com>',
    'To: facilities@example.com',
    'Subject: Quarterly boiler service',
    'Date: Tue, 01 Dec 2026 10:00:00 +0000',
    'Message-ID: <service-1@example.com>',
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary="mixed"',
    '',
    '--mixed',
    'Content-Type: multipart/alternative; boundary="alt"',
    '',
    '--alt',
    'Content-Type: text/plain; charset=utf-8',
    '',
    'Hello team,',
    '',
    'the boiler in building C passed its quarterly inspection; the pressure relief valve was replaced.',
    '',
    '--alt',
    'Content-Type: text/html; charset=utf-8',
    '',
    '<html><body><p>Hello team,</p><p>the boiler in building C passed its quarterly inspection.</p></body></html>',
    '--alt--',
    '--mixed',
    'Content-Type: application/pdf; name="service-report.pdf"',
    'Content-Disposition: attachment; filename="service-report.pdf"',
    'Content-Transfer-Encoding: base64',
    '',
    base64Lines(pdf),
    '--mixed',
    'Content-Type: text/plain; charset=utf-8; name="checklist.txt"',
    'Content-Disposition: attachment; filename="checklist.txt"',
    '',
    'Checklist: bleed the radiators on every floor before the heating season.',
    '--mixed',
    'Content-Type: image/png; name="photo.png"',
    'Content-Disposition: attachment; filename="photo.png"',
    'Content-Transfer-Encoding: base64',
    '',
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    '--mixed--',
    '',
  ].join('\r\n');
}

describe('HTML and e-mail files', () => {
  it('ingests a saved web page: main content and headings, no furniture', async () => {
    const file = path.join(workDir, 'warranty.html');
    await writeFile(
      file,
      sitePage({
        title: 'Warranty terms',
        sections: [
          {
            heading: 'Coverage',
            text: 'The compressor is covered for seven years from the date of purchase.',
          },
          {
            heading: 'Claims',
            text: 'Send the claim form with the serial number printed on the rating plate.',
          },
        ],
      }),
    );
    expect((await run(['ingest', file])).text).toContain('✓ warranty.html: ingested');
    const [hit] = await search('compressor covered years');
    expect(hit).toMatchObject({ file: 'warranty.html', section: ['Warranty terms', 'Coverage'] });
    expect(await search('cookies Copyright Imprint')).toEqual([]);
  });

  it('ingests an e-mail with its subject, sender and date, and its attachments as documents of their own', async () => {
    const file = path.join(workDir, 'boiler.eml');
    await writeFile(file, await serviceMail());
    const ingested = await run(['ingest', file]);
    expect(ingested.code).toBe(0);
    expect(ingested.text).toContain('✓ boiler.eml: ingested');
    expect(ingested.text).toContain('  ✓ boiler.eml › service-report.pdf: ingested');
    expect(ingested.text).toContain('  ✓ boiler.eml › checklist.txt: ingested');
    expect(ingested.text).toMatch(/ {2}- boiler\.eml › photo\.png: skipped/);

    const [mail] = await search('pressure relief valve replaced');
    expect(mail).toMatchObject({ file: 'boiler.eml', section: ['Quarterly boiler service'] });
    expect(mail?.text).toContain('From: Dana Field <dana@example.com>');
    expect(mail?.text).toContain('Date: 2026-12-01T10:00:00Z');
    // The plain part is taken; the HTML alternative is not read twice.
    expect(mail?.text.match(/passed its quarterly inspection/g)).toHaveLength(1);
    expect((await search('burner nozzle flue gas'))[0]?.file).toBe('boiler.eml › service-report.pdf');
    expect((await search('bleed radiators heating season'))[0]?.file).toBe('boiler.eml › checklist.txt');

    // The same mail again: unchanged.
    expect((await run(['ingest', file])).text).toContain('= boiler.eml: unchanged');
  });

  it('converts an HTML-only mail, and reads a mailbox as one section per message', async () => {
    const htmlMail = path.join(workDir, 'newsletter.eml');
    await writeFile(
      htmlMail,
      [
        'From: News <news@example.com>',
        'Subject: Canteen opening hours',
        'Date: Wed, 02 Dec 2026 08:00:00 +0000',
        'Content-Type: text/html; charset=utf-8',
        '',
        '<html><body><h2>Winter hours</h2><p>The canteen serves lunch from 11:30 until 14:00 in winter.</p></body></html>',
        '',
      ].join('\r\n'),
    );
    const mailbox = path.join(workDir, 'archive.mbox');
    await writeFile(
      mailbox,
      [
        'From alice@example.com Mon Nov 30 09:00:00 2026',
        'From: Alice <alice@example.com>',
        'Subject: Parking permits',
        'Date: Mon, 30 Nov 2026 09:00:00 +0000',
        '',
        'Parking permits for the east garage are renewed every January.',
        '>From the desk of facilities.',
        '',
        'From bob@example.com Mon Nov 30 10:00:00 2026',
        'From: Bob <bob@example.com>',
        'Subject: Bicycle storage',
        'Date: Mon, 30 Nov 2026 10:00:00 +0000',
        '',
        'Bicycles are stored in the basement room next to the lifts.',
        '',
      ].join('\n'),
    );
    const ingested = await run(['ingest', htmlMail, mailbox]);
    expect(ingested.text).toContain('✓ newsletter.eml: ingested');
    expect(ingested.text).toContain('✓ archive.mbox: ingested');
    expect((await search('canteen lunch winter'))[0]).toMatchObject({
      file: 'newsletter.eml',
      section: ['Canteen opening hours', 'Winter hours'],
    });
    expect((await search('parking permits garage renewed'))[0]).toMatchObject({
      file: 'archive.mbox',
      section: ['Parking permits'],
    });
    const [bicycles] = await search('bicycles basement lifts');
    expect(bicycles).toMatchObject({ file: 'archive.mbox', section: ['Bicycle storage'] });
    expect(bicycles?.text).toContain('From: Bob <bob@example.com>');
  });

  it('keeps a mail whose attachment is broken, names the attachment and exits non-zero', async () => {
    const file = path.join(workDir, 'broken-attachment.eml');
    await writeFile(
      file,
      [
        'From: Dana Field <dana@example.com>',
        'Subject: Meter readings',
        'Date: Thu, 03 Dec 2026 09:00:00 +0000',
        'Message-ID: <readings@example.com>',
        'MIME-Version: 1.0',
        'Content-Type: multipart/mixed; boundary="b"',
        '',
        '--b',
        'Content-Type: text/plain; charset=utf-8',
        '',
        'The water meter in the cellar read 18,204 cubic metres in November.',
        '--b',
        'Content-Type: application/pdf; name="readings.pdf"',
        'Content-Disposition: attachment; filename="readings.pdf"',
        '',
        '%PDF-1.7 this is no PDF at all',
        '--b--',
        '',
      ].join('\r\n'),
    );
    const ingested = await run(['ingest', file]);
    expect(ingested.code).toBe(1);
    expect(ingested.text).toContain('✓ broken-attachment.eml: ingested');
    expect(ingested.text).toMatch(/ {2}✗ broken-attachment\.eml › readings\.pdf: /);
    expect((await search('water meter cellar November'))[0]?.file).toBe('broken-attachment.eml');
  });
});
