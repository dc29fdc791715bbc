/**
 * `text` without a trailing word that the next streamed piece could still turn into a mention or an
 * entity (`@`, `<`, `&` in it): what is streamed cannot be taken back, so that word waits.
 */
export function settledPrefix(text: string): string {
  const tail = /\S*$/.exec(text)?.[0] ?? '';
  return /[@＠<&]/.test(tail) ? text.slice(0, text.length - tail.length) : text;
}
