/**
 * What HTML, an e-mail and a mailbox look like in their first bytes — for detection by content, kept
 * apart from their readers so that telling a file's kind loads none of the parsing libraries (they are
 * imported when a file of that kind is read).
 */

/** Whether the bytes start as an HTML document does: a doctype or an <html> tag (after comments). */
export function looksLikeHtml(bytes: Uint8Array): boolean {
  const head = new TextDecoder('latin1')
    .decode(bytes.subarray(0, 4096))
    .replace(/^\uFEFF|^\xEF\xBB\xBF/, '')
    .replace(/^(\s|<!--[\s\S]*?-->|<\?xml[^>]*>)*/, '');
  return /^<(!doctype\s+html|html)[\s>]/i.test(head);
}

/** Whether the bytes start like an RFC 822 message: header lines naming at least a sender and a date or id. */
export function looksLikeEmail(bytes: Uint8Array): boolean {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 16_384));
  const headerPart = head.split(/\r?\n\r?\n/)[0] ?? '';
  const lines = headerPart.split(/\r?\n/);
  if (lines.length < 2) return false;
  const names = new Set<string>();
  for (const line of lines) {
    if (/^[ \t]/.test(line)) continue; // a folded continuation of the header above
    const field = /^([!-9;-~]+):/.exec(line);
    if (!field?.[1]) return false;
    names.add(field[1].toLowerCase());
  }
  return names.has('from') && (names.has('date') || names.has('message-id')) && names.size >= 3;
}

/** A mailbox starts with a `From sender date` line followed by a message. */
export function looksLikeMbox(bytes: Uint8Array): boolean {
  const text = new TextDecoder('latin1').decode(bytes.subarray(0, 16_384));
  const firstBreak = text.indexOf('\n');
  return text.startsWith('From ') && firstBreak > 0 && looksLikeEmail(bytes.subarray(firstBreak + 1));
}
