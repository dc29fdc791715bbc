/**
 * XLSX (Office Open XML workbooks): the zip is read with fflate within the zip limits, its XML with
 * fast-xml-parser, and each cell is shown as Excel shows it: its cached value (a formula's last result;
 * a formula never calculated is empty) formatted with its number format by numfmt (dates, thousands
 * separators, percentages; dates of 1904-based workbooks shifted to numfmt's 1900 system). Visible
 * sheets only (hidden and "very hidden" ones are skipped, as are chart sheets), in workbook order, rows
 * numbered by their `r` attribute, which is the number Excel shows.
 *
 * Why not exceljs or read-excel-file: neither gives a cell's displayed text (both return raw numbers or
 * Date objects, losing "12,300" or "31/03/2026" as the sheet shows it), exceljs keeps the whole
 * workbook model in memory (about 1 KB a cell) and reads the zip without our size checks, and
 * read-excel-file does not tell hidden sheets apart. The XML mapping here is small; the parsing, the zip
 * and the number formats are the libraries'.
 */
import { XMLParser } from 'fast-xml-parser';
import { format as formatNumber, getFormatFromId, isDateFormat } from 'numfmt';
import { RagentError } from '../../errors.ts';
import { ingestCancelled } from '../ingest-limits.ts';
import { columnIndex, SheetBlocks } from '../sheet-records.ts';
import type { Reader } from './reader.ts';
import {
  attributeOf,
  childrenOf,
  findAll,
  findFirst,
  parseXml,
  readRelationships,
  refuseDoctype,
  tagOf,
  textNodeOf,
  type XmlNode,
} from './safe-xml.ts';
import { ZipContainer } from './zip-container.ts';

/** Days between the 1904 and the 1900 date systems' day zero. */
const days1904 = 1462;

/** Sheet XML is large (a cell per element): parsed into plain objects, rows and cells always arrays. */
const sheetParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  processEntities: true,
  htmlEntities: false,
  removeNSPrefix: true,
  isArray: (name) => name === 'row' || name === 'c' || name === 'r',
});

interface SheetCell {
  r?: string;
  t?: string;
  s?: string;
  v?: unknown;
  is?: unknown;
}

interface SheetRowXml {
  r?: string;
  c?: SheetCell[];
}

export const readXlsx: Reader = async (bytes, { name, limits, signal }) => {
  const zip = ZipContainer.open(bytes, name, limits);
  const xml = (entry: string) => {
    const text = zip.text(entry);
    return text === undefined ? undefined : parseXml(text, name, entry);
  };
  const workbook = xml('xl/workbook.xml');
  if (!workbook) throw missingPart(name, 'xl/workbook.xml');
  const relationships = readRelationships(xml('xl/_rels/workbook.xml.rels') ?? [], 'xl');
  const date1904 = ['1', 'true'].includes(
    attributeOf(findFirst(workbook, 'workbookPr') ?? {}, 'date1904') ?? '',
  );
  const sharedStrings = readSharedStrings(xml('xl/sharedStrings.xml') ?? []);
  const styleFormats = readStyleFormats(xml('xl/styles.xml') ?? []);

  const sheets = new SheetBlocks(name, limits);
  let maxRow = 0;
  for (const sheet of findAll(workbook, 'sheet')) {
    const state = attributeOf(sheet, 'state');
    if (state === 'hidden' || state === 'veryHidden') continue;
    const target = relationships.get(attributeOf(sheet, 'r:id') ?? '');
    if (!target || !/\/worksheets\//.test(`/${target}`)) continue;
    if (signal?.aborted) throw ingestCancelled(name, signal);
    const text = zip.text(target);
    if (text === undefined) throw missingPart(name, target);
    // Checked here too: this parser is not safe-xml's (it builds plain objects, which is faster).
    refuseDoctype(text, name, target);
    const parsed = parseSheet(text, name, target);
    sheets.startSheet(attributeOf(sheet, 'name') ?? target);
    let lastRow = 0;
    for (const row of parsed) {
      const number = Number(row.r) || lastRow + 1;
      lastRow = number;
      const cells: string[] = [];
      let lastColumn = -1;
      for (const cell of row.c ?? []) {
        const column = cell.r ? columnIndex(cell.r) : lastColumn + 1;
        lastColumn = column;
        if (column < 0 || column > 16_383) continue;
        cells[column] = displayedValue(cell, sharedStrings, styleFormats, date1904);
      }
      sheets.add({ row: number, cells: Array.from(cells, (cell) => cell ?? '') });
      maxRow = Math.max(maxRow, number);
    }
  }
  return { pageCount: Math.max(1, maxRow), blocks: sheets.blocks };
};

function parseSheet(text: string, fileName: string, entry: string): SheetRowXml[] {
  try {
    const parsed = sheetParser.parse(text) as { worksheet?: { sheetData?: { row?: SheetRowXml[] } } };
    return parsed.worksheet?.sheetData?.row ?? [];
  } catch (error) {
    throw new RagentError(
      'OFFICE_CORRUPT',
      `${fileName} could not be read: its ${entry} is not well-formed XML. Save the file again from its application.`,
      { cause: error, details: { entry } },
    );
  }
}

function displayedValue(
  cell: SheetCell,
  sharedStrings: readonly string[],
  styleFormats: readonly string[],
  date1904: boolean,
): string {
  switch (cell.t) {
    case 's':
      return sharedStrings[Number(plainText(cell.v))] ?? '';
    case 'inlineStr':
      return richText(cell.is);
    case 'str':
    case 'e':
      return plainText(cell.v);
    case 'b':
      return plainText(cell.v) === '1' ? 'TRUE' : 'FALSE';
    default: {
      const raw = plainText(cell.v);
      if (raw === '') return '';
      const pattern = styleFormats[Number(cell.s ?? 0)] ?? 'General';
      if (cell.t === 'd') return formatValue(pattern, new Date(raw), raw);
      const value = Number(raw);
      if (!Number.isFinite(value)) return raw;
      const dated = date1904 && isDateFormat(pattern) ? value + days1904 : value;
      return formatValue(pattern, dated, raw);
    }
  }
}

function formatValue(pattern: string, value: number | Date, raw: string): string {
  try {
    return formatNumber(pattern, value);
  } catch {
    return raw;
  }
}

/** The text of an element parsed by the sheet parser: a string, or an object with `#text`. */
function plainText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'object') return plainText((value as Record<string, unknown>)['#text']);
  return String(value);
}

/** `<is><t>…</t></is>` or rich text runs `<is><r><t>…</t></r>…</is>`. */
function richText(value: unknown): string {
  if (!value || typeof value !== 'object') return plainText(value);
  const node = value as { t?: unknown; r?: Array<{ t?: unknown }> };
  if (node.r) return node.r.map((run) => plainText(run.t)).join('');
  return plainText(node.t);
}

/** Shared strings in order; each is its text runs joined (phonetic guides left out). */
function readSharedStrings(xml: XmlNode[]): string[] {
  return findAll(xml, 'si').map((item) => {
    const pieces: string[] = [];
    const visit = (nodes: readonly XmlNode[]) => {
      for (const node of nodes) {
        const tag = tagOf(node);
        if (tag === 'rPh') continue;
        if (tag === 't')
          pieces.push(
            childrenOf(node)
              .map((text) => textNodeOf(text) ?? '')
              .join(''),
          );
        else visit(childrenOf(node));
      }
    };
    visit(childrenOf(item));
    return pieces.join('');
  });
}

/** The number format pattern of each cell style (`s` of a cell indexes `cellXfs`). */
function readStyleFormats(xml: XmlNode[]): string[] {
  const custom = new Map<number, string>();
  for (const format of findAll(xml, 'numFmt')) {
    const id = Number(attributeOf(format, 'numFmtId'));
    const code = attributeOf(format, 'formatCode');
    if (Number.isFinite(id) && code) custom.set(id, code);
  }
  const cellFormats = findFirst(xml, 'cellXfs');
  return (cellFormats ? childrenOf(cellFormats).filter((node) => tagOf(node) === 'xf') : []).map((format) => {
    const id = Number(attributeOf(format, 'numFmtId') ?? 0);
    return custom.get(id) ?? builtInFormat(id);
  });
}

function builtInFormat(id: number): string {
  try {
    return getFormatFromId(id) || 'General';
  } catch {
    return 'General';
  }
}

function missingPart(fileName: string, entry: string): RagentError {
  return new RagentError(
    'OFFICE_CORRUPT',
    `${fileName} could not be read: it has no ${entry}. Save the file again from its application.`,
    { details: { entry } },
  );
}
