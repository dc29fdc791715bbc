/**
 * E-mail into blocks. One message (.eml, RFC 822/MIME, parsed by mailparser): its subject is the top
 * heading, a line under it keeps who sent it, to whom and when, then the body — the plain-text part,
 * or the HTML part's main content as Markdown when there is no plain text. Attachments come back as
 * files of their own (the ingestion service ingests those of supported types as documents named
 * "<mail> › <attachment>"). A mailbox (.mbox) is one document with a section per message; its
 * attachments are not ingested.
 */
import { type ParsedMail, simpleParser } from 'mailparser';
import type { ExtractedDocument, TextBlock } from '../text-block.ts';
import { markdownToBlocks, plainTextToBlocks } from '../text-to-blocks.ts';
import { htmlToMarkdown } from './html-reader.ts';

export interface MailAttachment {
  /** The attachment's file name as the mail gives it (without any directory part). */
  name: string;
  bytes: Uint8Array;
}

export interface ExtractedMail extends ExtractedDocument {
  attachments: MailAttachment[];
}

export interface MailReadOptions {
  /** The most characters of text taken (RAGENT_MAX_TEXT_MB): a larger HTML body is refused by the parser. */
  maxTextChars: number;
}

export async function readEmail(bytes: Uint8Array, options: MailReadOptions): Promise<ExtractedMail> {
  const mail = await parseMail(bytes, options);
  const attachments = mail.attachments
    .filter((attachment) => attachment.contentDisposition !== 'inline' || attachment.filename)
    .map((attachment, position) => ({
      name: attachmentName(attachment.filename, position),
      bytes: new Uint8Array(attachment.content),
    }));
  return { pageCount: 1, blocks: mailBlocks(mail, 1), attachments };
}

/** A mailbox: the messages split on their `From ` lines, each one a section (level-1 heading). */
export async function readMbox(bytes: Uint8Array, options: MailReadOptions): Promise<ExtractedDocument> {
  const text = new TextDecoder('latin1').decode(bytes);
  const messages = text
    .split(/^From .*\r?\n/m)
    .map((message) => message.replace(/^>(>*From )/gm, '$1'))
    .filter((message) => message.trim() !== '');
  const blocks: TextBlock[] = [];
  for (const message of messages) {
    const mail = await parseMail(Buffer.from(message, 'latin1'), options);
    blocks.push(...mailBlocks(mail, 1));
  }
  return { pageCount: 1, blocks };
}

function parseMail(bytes: Uint8Array, options: MailReadOptions): Promise<ParsedMail> {
  return simpleParser(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
    skipTextToHtml: true,
    // An HTML-only mail is converted here (headings kept), not flattened to text by the parser.
    skipHtmlToText: true,
    skipImageLinks: true,
    skipTextLinks: true,
    maxHtmlLengthToParse: options.maxTextChars,
  });
}

function mailBlocks(mail: ParsedMail, level: number): TextBlock[] {
  const subject = mail.subject?.replace(/\s+/g, ' ').trim() || '(no subject)';
  const facts = [
    addressText(mail.from) ? `From: ${addressText(mail.from)}` : '',
    addressText(mail.to) ? `To: ${addressText(mail.to)}` : '',
    addressText(mail.cc) ? `Cc: ${addressText(mail.cc)}` : '',
    mail.date ? `Date: ${mail.date.toISOString().replace(/\.\d{3}Z$/, 'Z')}` : '',
  ].filter(Boolean);
  const body = mail.text?.trim()
    ? plainTextToBlocks(mail.text).blocks
    : mail.html
      ? markdownToBlocks(htmlToMarkdown(mail.html, { title: false, mainContent: false }).markdown).blocks
      : [];
  return [
    { kind: 'heading', level, text: subject, pageStart: 1, pageEnd: 1 },
    ...(facts.length > 0
      ? [{ kind: 'paragraph' as const, text: facts.join(' · '), pageStart: 1, pageEnd: 1 }]
      : []),
    ...body,
  ];
}

/** Addresses as people write them: `Dana Field <dana@example.com>` (mailparser's text quotes names). */
function addressText(address: ParsedMail['to']): string {
  if (!address) return '';
  return (Array.isArray(address) ? address : [address])
    .flatMap((entry) => entry.value)
    .map((person) =>
      person.name && person.address ? `${person.name} <${person.address}>` : (person.address ?? person.name),
    )
    .filter(Boolean)
    .join(', ');
}

function attachmentName(filename: string | undefined, position: number): string {
  const base = filename?.split(/[\\/]/).pop()?.trim();
  return base || `attachment-${position + 1}`;
}
