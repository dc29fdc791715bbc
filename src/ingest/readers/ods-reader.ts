/**
 * ODS (OpenDocument spreadsheets) from content.xml: one section per visible sheet (a sheet whose table
 * style says `table:display="false"` is hidden and skipped), one record per row that names its columns.
 * A cell's text is what the sheet shows: ODF stores the displayed text of every cell (formatted numbers
 * and dates, formulas' results) in its paragraphs. Rows are numbered as the sheet shows them, counting
 * the empty rows ODF writes as one "repeated" row.
 */
import { ingestCancelled } from '../ingest-limits.ts';
import { SheetBlocks } from '../sheet-records.ts';
import { cellText, openDocumentBody } from './open-document.ts';
import type { Reader } from './reader.ts';
import { attributeOf, childrenOf, findAll, tagOf, type XmlNode } from './safe-xml.ts';

/** Columns a sheet may have (the ODF and Excel maximum). */
const maxColumns = 16_384;

export const readOds: Reader = async (bytes, { name, limits, signal }) => {
  const { body, content } = openDocumentBody(bytes, name, limits, 'office:spreadsheet');
  const hiddenStyles = new Set(
    findAll(content, 'style:style')
      .filter((style) =>
        childrenOf(style).some(
          (properties) =>
            tagOf(properties) === 'style:table-properties' &&
            attributeOf(properties, 'table:display') === 'false',
        ),
      )
      .map((style) => attributeOf(style, 'style:name')),
  );
  const sheets = new SheetBlocks(name, limits);
  let maxRow = 0;
  for (const table of childrenOf(body).filter((node) => tagOf(node) === 'table:table')) {
    if (hiddenStyles.has(attributeOf(table, 'table:style-name'))) continue;
    if (signal?.aborted) throw ingestCancelled(name, signal);
    sheets.startSheet(attributeOf(table, 'table:name') ?? `Sheet ${maxRow}`);
    let row = 0;
    const visit = (nodes: readonly XmlNode[]) => {
      for (const node of nodes) {
        const tag = tagOf(node);
        if (tag === 'table:table-row') {
          const cells = rowCells(node);
          const repeat = Number(attributeOf(node, 'table:number-rows-repeated') ?? 1) || 1;
          if (!cells.some(Boolean)) {
            row += repeat;
            continue;
          }
          // A filled row repeated past the row limit is refused by the limit, not expanded.
          for (let copy = 0; copy < Math.min(repeat, limits.maxRows + 1); copy++) {
            sheets.add({ row: ++row, cells });
          }
          maxRow = Math.max(maxRow, row);
        } else if (
          tag === 'table:table-header-rows' ||
          tag === 'table:table-rows' ||
          tag === 'table:table-row-group'
        ) {
          visit(childrenOf(node));
        }
      }
    };
    visit(childrenOf(table));
  }
  return { pageCount: Math.max(1, maxRow), blocks: sheets.blocks };
};

function rowCells(row: XmlNode): string[] {
  const cells: string[] = [];
  let column = 0;
  for (const cell of childrenOf(row)) {
    const tag = tagOf(cell);
    if (tag !== 'table:table-cell' && tag !== 'table:covered-table-cell') continue;
    const repeat = Number(attributeOf(cell, 'table:number-columns-repeated') ?? 1) || 1;
    const text = cellText(cell) || typedValueOf(cell);
    if (!text) {
      column += repeat;
      continue;
    }
    for (let copy = 0; copy < repeat && column < maxColumns; copy++) cells[column++] = text;
  }
  return Array.from(cells, (cell) => cell ?? '');
}

/** A cell written without its displayed text (some generators): its typed value. */
function typedValueOf(cell: XmlNode): string {
  return (
    attributeOf(cell, 'office:value') ??
    attributeOf(cell, 'office:date-value') ??
    attributeOf(cell, 'office:time-value') ??
    attributeOf(cell, 'office:boolean-value') ??
    attributeOf(cell, 'office:string-value') ??
    ''
  );
}
