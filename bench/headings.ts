/**
 * npm run bench:headings [corpus dir] — for each PDF of the corpus that has an outline (bookmarks):
 * how many outline entries come out of ragent's extraction as heading blocks. An entry counts when a
 * heading block found in order after the previous one reads the same (section numbers, appendix letters, case and
 * punctuation ignored) or starts with the entry's title (a reference manual's "name  Title" line).
 * Counted twice: as ingested (the outline gives the headings), and with the outline ignored (headings
 * from font size and weight only, as for a PDF without an outline).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { headingKey, titleKey } from '../src/ingest/pdf/outline-headings.ts';
import { readPdfOutline } from '../src/ingest/pdf/read-outline.ts';
import { pdfToBlocks } from '../src/ingest/pdf-to-markdown.ts';

const corpus = path.resolve(process.argv[2] ?? process.env.RAGENT_CORPUS_DIR ?? '../shared/corpus');
const files = readdirSync(corpus)
  .filter((name) => name.toLowerCase().endsWith('.pdf'))
  .sort();
console.log(
  'file             outline entries  recovered (outline used)  recovered (outline ignored: fonts)  heading blocks',
);
for (const name of files) {
  const bytes = new Uint8Array(readFileSync(path.join(corpus, name)));
  const outline = await readPdfOutline(bytes);
  const headingsOf = async (ignoreOutline: boolean) => {
    const { blocks } = await pdfToBlocks(bytes, { name, workers: 2, ignoreOutline });
    return blocks.filter((block) => block.kind === 'heading').map((block) => headingKey(block.text));
  };
  const headings = await headingsOf(false);
  if (outline.length === 0) {
    console.log(
      `${name.padEnd(16)} no outline       –                         –                                   ${headings.length}`,
    );
    continue;
  }
  const recovered = (found: string[]) => {
    let cursor = 0;
    let count = 0;
    for (const entry of outline) {
      const title = titleKey(entry);
      const at = found.findIndex(
        (heading, index) => index >= cursor && (heading === title || heading.startsWith(`${title} `)),
      );
      if (at < 0) continue;
      count++;
      cursor = at + 1;
    }
    return `${count} (${((100 * count) / outline.length).toFixed(1)} %)`;
  };
  const fromFonts = await headingsOf(true);
  console.log(
    `${name.padEnd(16)} ${String(outline.length).padEnd(16)} ${recovered(headings).padEnd(25)} ${recovered(fromFonts).padEnd(35)} ${headings.length}`,
  );
}
