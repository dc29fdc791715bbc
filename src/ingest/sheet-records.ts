/**
 * The rows of one sheet (XLSX, ODS, CSV, TSV) as blocks: the sheet's name as a level-1 heading (so it
 * is the first element of every chunk's section path), the header row listed once, then one record per
 * row that names its columns ("Cost centre: 4410, Amount: 12,300") so a row is found by what its
 * columns mean. Each block's position is its row number as the sheet shows it (the header row is
 * usually row 1). The first row with any text is the header.
 */
import { type IngestLimits, tooManyRows, tooMuchText } from './ingest-limits.ts';
import type { TextBlock } from './text-block.ts';

export interface SheetRow {
  /** The row number as the sheet shows it (1-based). */
  row: number;
  /** Displayed text by column (0-based); '' or missing for empty cells. */
  cells: readonly string[];
}

/** Builds the blocks of a workbook's sheets as their rows arrive, holding the row and text limits. */
export class SheetBlocks {
  readonly blocks: TextBlock[] = [];
  /** undefined for a CSV/TSV file: it has no sheet name. */
  private sheet: string | undefined;
  private header: string[] | undefined;
  private rows = 0;
  private chars = 0;

  constructor(
    private readonly fileName: string,
    private readonly limits: IngestLimits,
  ) {}

  startSheet(sheet: string | undefined): void {
    this.sheet = sheet;
    this.header = undefined;
    this.rows = 0;
  }

  add({ row, cells }: SheetRow): void {
    if (++this.rows > this.limits.maxRows) {
      throw tooManyRows(
        this.fileName,
        this.sheet ? `sheet ${this.sheet}` : 'the file',
        this.rows,
        this.limits,
      );
    }
    const values = cells.map((cell) => cell.replace(/\s+/g, ' ').trim());
    if (!values.some(Boolean)) return;
    if (!this.header) {
      this.header = values.map((value, index) => value || `Column ${columnName(index)}`);
      if (this.sheet !== undefined) this.push({ kind: 'heading', level: 1, text: this.sheet }, row);
      this.push({ kind: 'paragraph', text: `Columns: ${values.filter(Boolean).join(', ')}` }, row);
      return;
    }
    const fields: string[] = [];
    for (const [index, value] of values.entries()) {
      if (value) fields.push(`${this.header[index] ?? `Column ${columnName(index)}`}: ${value}`);
    }
    this.push({ kind: 'paragraph', text: fields.join(', ') }, row);
  }

  private push(block: Omit<TextBlock, 'pageStart' | 'pageEnd'>, row: number): void {
    this.chars += block.text.length + 2;
    if (this.chars > this.limits.maxTextChars) throw tooMuchText(this.fileName, this.limits);
    this.blocks.push({ ...block, pageStart: row, pageEnd: row });
  }
}

/** 0 → A, 25 → Z, 26 → AA. */
export function columnName(index: number): string {
  let name = '';
  for (let rest = index + 1; rest > 0; rest = Math.floor((rest - 1) / 26)) {
    name = String.fromCharCode(65 + ((rest - 1) % 26)) + name;
  }
  return name;
}

/** A → 0, AA → 26 (the letters of a cell reference such as `AB12`). */
export function columnIndex(reference: string): number {
  let index = 0;
  for (const character of reference) {
    const code = character.charCodeAt(0);
    if (code < 65 || code > 90) break;
    index = index * 26 + (code - 64);
  }
  return index - 1;
}
