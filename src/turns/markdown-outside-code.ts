/**
 * Changes Markdown only where it is prose, never inside code: fenced code blocks (opened and closed
 * by ``` or ~~~) and inline code spans are passed on as code. For whatever rewrites Markdown text
 * (revealing disguised links, a platform's own markup) and must leave code as it was written.
 */

const fencePattern = /^\s*(`{3,}|~{3,})/;
const same = (text: string) => text;

/** Line by line: `line` outside code blocks, `code` on each line inside one, `fence` on a fence line. */
export function mapMarkdownLines(
  markdown: string,
  map: { line(line: string): string; code?(line: string): string; fence?(line: string): string },
): string {
  let open: string | undefined;
  return markdown
    .split('\n')
    .map((line) => {
      const marker = fencePattern.exec(line)?.[1];
      if (marker) {
        if (!open) open = marker;
        else if (marker.startsWith(open)) open = undefined;
        return (map.fence ?? same)(line);
      }
      return open ? (map.code ?? same)(line) : map.line(line);
    })
    .join('\n');
}

/** A line's prose through `prose`, its inline code spans through `code` (unset: as they are). */
export function mapOutsideCodeSpans(
  line: string,
  prose: (text: string) => string,
  code: (span: string) => string = same,
): string {
  return line
    .split(/(`[^`]*`)/)
    .map((part, index) => (index % 2 === 1 ? code(part) : prose(part)))
    .join('');
}
