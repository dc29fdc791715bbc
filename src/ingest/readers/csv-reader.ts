/**
 * CSV and TSV through csv-parse: one record per row that names its columns (the first row with any
 * text is the header), rows numbered as a spreadsheet shows the file (its first line is row 1; a blank
 * line is an empty row). The file has no sheet name, so its chunks have no section path of their own.
 * A CSV whose first line holds more semicolons than commas is read with semicolons (as spreadsheets
 * export it where the comma is the decimal mark).
 */
import { parse } from 'csv-parse';
import { errorMessages } from '../../error-messages-en.ts';
import { RagentError } from '../../errors.ts';
import { ingestCancelled } from '../ingest-limits.ts';
import { SheetBlocks } from '../sheet-records.ts';
import type { Reader } from './reader.ts';

function readDelimited(tab: boolean): Reader {
  return async (bytes, { name, limits, signal }) => {
    const text = new TextDecoder('utf-8').decode(bytes);
    const delimiter = tab ? '\t' : guessDelimiter(text);
    const parser = parse({
      delimiter,
      bom: true,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: false,
      // A quoted field that never closes would otherwise take in the rest of the file.
      max_record_size: 1024 * 1024,
    });
    parser.end(text);
    const sheet = new SheetBlocks(name, limits);
    sheet.startSheet(undefined);
    let row = 0;
    try {
      for await (const record of parser as AsyncIterable<string[]>) {
        sheet.add({ row: ++row, cells: record });
        if (row % 4096 === 0 && signal?.aborted) throw ingestCancelled(name, signal);
      }
    } catch (error) {
      parser.destroy();
      if (error instanceof RagentError) throw error;
      throw new RagentError(
        'FILE_UNSUPPORTED',
        errorMessages.FILE_UNSUPPORTED.delimitedUnreadable({
          name,
          tab,
          line: row + 1,
          reason: (error as Error).message,
        }),
        { cause: error },
      );
    }
    return { pageCount: Math.max(1, row), blocks: sheet.blocks };
  };
}

function guessDelimiter(text: string): string {
  const firstLine = text.slice(0, Math.max(0, text.indexOf('\n')) || 4096);
  const count = (character: string) => firstLine.split(character).length - 1;
  return count(';') > count(',') ? ';' : ',';
}

export const readCsv: Reader = readDelimited(false);
export const readTsv: Reader = readDelimited(true);
