/**
 * XLSX (Office Open XML workbooks): the zip is read with fflate within the zip limits, the workbook's XML
 * with fast-xml-parser and its sheets and shared strings streamed through saxes (no tree of a million
 * cells), and each cell is shown as Excel shows it: its cached value (a formula's last result;
 * a formula never calculated is empty) formatted with its number format by numfmt (dates, thousands
 * separators, percentages; dates of 1904-based workbooks shifted to numfmt's 1900 system). Visible
 * sheets only (hidden and "very hidden" ones are skipped, as are chart sheets), in workbook order, rows
 * numbered by their `r` attribute, which is the number Excel shows.
 *
 * Why not exceljs or read-excel-file: neither gives a cell's displayed text (both return raw numbers or
 * Date objects, losing "12,300" or "31/03/2026" as the sheet shows it), exceljs keeps the whole
 * workbook model in memory and reads the zip without our size checks, and
 * read-excel-file does not tell hidden sheets apart. The XML mapping here is small; the parsing, the zip
 * and the number formats are the libraries'.
 */
import { format as formatNumber, getFormatFromId, isDateFormat } from 'numfmt';
import { SaxesParser } from 'saxes';
import { errorMessages } from '../../error-messages-en.ts';
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
  type XmlNode,
} from './safe-xml.ts';
import { decodeXmlText, ZipContainer } from './zip-container.ts';

/** Days between the 1904 and the 1900 date systems' day zero. */
const days1904 = 1462;

/** Bytes of a part decoded and parsed at a time: a large sheet is never held as one string. */
const sliceBytes = 1024 * 1024;

interface SheetCell {
  t: string | undefined;
  s: string | undefined;
  /** `<v>`: the cached value. */
  value: string;
  /** `<is>`: an inline string's text. */
  inline: string;
}

interface WorkbookStyles {
  formats: readonly string[];
  date1904: boolean;
  sharedStrings: readonly string[];
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
  const sharedStringsPart = zip.read(['xl/sharedStrings.xml']).get('xl/sharedStrings.xml');
  const styles: WorkbookStyles = {
    date1904: ['1', 'true'].includes(attributeOf(findFirst(workbook, 'workbookPr') ?? {}, 'date1904') ?? ''),
    formats: readStyleFormats(xml('xl/styles.xml') ?? []),
    sharedStrings: sharedStringsPart ? readSharedStrings(sharedStringsPart, name) : [],
  };

  const sheets = new SheetBlocks(name, limits);
  let maxRow = 0;
  for (const sheet of findAll(workbook, 'sheet')) {
    const state = attributeOf(sheet, 'state');
    if (state === 'hidden' || state === 'veryHidden') continue;
    const target = relationships.get(attributeOf(sheet, 'r:id') ?? '');
    if (!target || !/\/worksheets\//.test(`/${target}`)) continue;
    if (signal?.aborted) throw ingestCancelled(name, signal);
    const part = zip.read([target]).get(target);
    if (!part) throw missingPart(name, target);
    sheets.startSheet(attributeOf(sheet, 'name') ?? target);
    maxRow = Math.max(maxRow, readSheet(part, name, target, styles, sheets));
  }
  return { pageCount: Math.max(1, maxRow), blocks: sheets.blocks };
};

/**
 * Streams a worksheet's XML through saxes (a sheet is a long flat list of cells: building a tree of it
 * costs more than reading it) and adds each row to the sheet's blocks. Returns the last row number.
 */
function readSheet(
  part: Uint8Array,
  fileName: string,
  entry: string,
  styles: WorkbookStyles,
  sheets: SheetBlocks,
): number {
  let rowNumber = 0;
  let cells: string[] = [];
  let column = -1;
  let cell: SheetCell | undefined;
  let inValue = false;
  let inInline = false;
  let inInlineText = false;
  let inPhonetic = false;
  const parser = newParser(fileName, entry);
  parser.on('opentag', (tag) => {
    const local = localName(tag.name);
    const attributes = tag.attributes as Record<string, string>;
    if (local === 'row') {
      rowNumber = Number(attributes.r) || rowNumber + 1;
      cells = [];
      column = -1;
    } else if (local === 'c') {
      column = attributes.r ? columnIndex(attributes.r) : column + 1;
      cell = { t: attributes.t, s: attributes.s, value: '', inline: '' };
    } else if (local === 'v') inValue = true;
    else if (local === 'is') inInline = true;
    else if (local === 'rPh') inPhonetic = true;
    else if (local === 't' && inInline && !inPhonetic) inInlineText = true;
  });
  parser.on('text', (text) => {
    if (!cell) return;
    if (inValue) cell.value += text;
    else if (inInlineText) cell.inline += text;
  });
  parser.on('closetag', (tag) => {
    const local = localName(tag.name);
    if (local === 'v') inValue = false;
    else if (local === 't') inInlineText = false;
    else if (local === 'rPh') inPhonetic = false;
    else if (local === 'is') inInline = false;
    else if (local === 'c') {
      if (cell && column >= 0 && column <= 16_383) cells[column] = displayedValue(cell, styles);
      cell = undefined;
    } else if (local === 'row') {
      sheets.add({ row: rowNumber, cells: Array.from(cells, (value) => value ?? '') });
    }
  });
  parseInSlices(parser, part, fileName, entry);
  return rowNumber;
}

/** Shared strings in order; each is its text runs joined (phonetic guides left out). */
function readSharedStrings(part: Uint8Array, fileName: string): string[] {
  const strings: string[] = [];
  let current: string[] | undefined;
  let inText = false;
  let inPhonetic = false;
  const parser = newParser(fileName, 'xl/sharedStrings.xml');
  parser.on('opentag', (tag) => {
    const local = localName(tag.name);
    if (local === 'si') current = [];
    else if (local === 'rPh') inPhonetic = true;
    else if (local === 't' && !inPhonetic) inText = true;
  });
  parser.on('text', (text) => {
    if (inText) current?.push(text);
  });
  parser.on('closetag', (tag) => {
    const local = localName(tag.name);
    if (local === 't') inText = false;
    else if (local === 'rPh') inPhonetic = false;
    else if (local === 'si') {
      strings.push(current?.join('') ?? '');
      current = undefined;
    }
  });
  parseInSlices(parser, part, fileName, 'xl/sharedStrings.xml');
  return strings;
}

/** A saxes parser that refuses a DOCTYPE (see safe-xml.ts) the moment it meets one. */
function newParser(fileName: string, entry: string): SaxesParser {
  const parser = new SaxesParser({ xmlns: false });
  parser.on('doctype', () => refuseDoctype('<!DOCTYPE', fileName, entry));
  return parser;
}

function parseInSlices(parser: SaxesParser, part: Uint8Array, fileName: string, entry: string): void {
  try {
    if (part[0] === 0xff || part[0] === 0xfe) {
      parser.write(decodeXmlText(part));
    } else {
      const decoder = new TextDecoder('utf-8');
      for (let offset = 0; offset < part.byteLength; offset += sliceBytes) {
        const text = decoder.decode(part.subarray(offset, offset + sliceBytes), { stream: true });
        parser.write(offset === 0 ? text.replace(/^\uFEFF/, '') : text);
      }
      parser.write(decoder.decode());
    }
    parser.close();
  } catch (error) {
    if (error instanceof RagentError) throw error;
    throw new RagentError(
      'OFFICE_CORRUPT',
      errorMessages.OFFICE_CORRUPT.xmlMalformed({ name: fileName, entry }),
      { cause: error, details: { entry } },
    );
  }
}

/** `x:row` → `row`: some writers prefix the spreadsheet namespace. */
function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon < 0 ? name : name.slice(colon + 1);
}

function displayedValue(cell: SheetCell, styles: WorkbookStyles): string {
  switch (cell.t) {
    case 's':
      return styles.sharedStrings[Number(cell.value)] ?? '';
    case 'inlineStr':
      return cell.inline;
    case 'str':
    case 'e':
      return cell.value;
    case 'b':
      return cell.value.trim() === '1' ? 'TRUE' : 'FALSE';
    default: {
      const raw = cell.value.trim();
      if (raw === '') return '';
      const pattern = styles.formats[Number(cell.s ?? 0)] ?? 'General';
      if (cell.t === 'd') return formatValue(pattern, new Date(raw), raw);
      const value = Number(raw);
      if (!Number.isFinite(value)) return raw;
      const dated = styles.date1904 && isDateFormat(pattern) ? value + days1904 : value;
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
    errorMessages.OFFICE_CORRUPT.entryMissing({ name: fileName, entry }),
    { details: { entry } },
  );
}
