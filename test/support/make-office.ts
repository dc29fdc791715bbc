/**
 * Office files made in the test: DOCX, PPTX, XLSX, ODT, ODP and ODS as the zips of XML parts their
 * applications write (only the parts the readers and mammoth need), built with fflate.
 */
import { strToU8, type Zippable, zipSync } from 'fflate';

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const xmlHead = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

export function zipParts(
  parts: Record<string, string | Uint8Array>,
  options: { store?: string[] } = {},
): Uint8Array {
  const files: Zippable = {};
  for (const [name, content] of Object.entries(parts)) {
    const bytes = typeof content === 'string' ? strToU8(content) : content;
    files[name] = options.store?.includes(name) ? [bytes, { level: 0 }] : bytes;
  }
  return zipSync(files);
}

// ── DOCX ────────────────────────────────────────────────────────────────────────────────────────────

const w =
  'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';

export const docx = {
  heading: (level: number, text: string) =>
    `<w:p><w:pPr><w:pStyle w:val="Heading${level}"/></w:pPr><w:r><w:t>${escapeXml(text)}</w:t></w:r></w:p>`,
  paragraph: (text: string, extraRuns = '') =>
    `<w:p><w:r><w:t xml:space="preserve">${escapeXml(text)}</w:t></w:r>${extraRuns}</w:p>`,
  bullet: (text: string, level = 0) =>
    `<w:p><w:pPr><w:pStyle w:val="ListParagraph"/><w:numPr><w:ilvl w:val="${level}"/><w:numId w:val="1"/></w:numPr></w:pPr><w:r><w:t>${escapeXml(text)}</w:t></w:r></w:p>`,
  footnoteReference: (id: number) => `<w:r><w:footnoteReference w:id="${id}"/></w:r>`,
  commentReference: (id: number) => `<w:r><w:commentReference w:id="${id}"/></w:r>`,
  /** A picture (relationship rId9 → word/media/image1.png, added by makeDocx's `image` option). */
  image: (description: string) =>
    `<w:p><w:r><w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"><wp:docPr id="1" name="Picture 1" descr="${escapeXml(description)}"/><a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:blipFill><a:blip r:embed="rId9"/></pic:blipFill></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`,
  table: (rows: readonly (readonly string[])[]) =>
    `<w:tbl><w:tblPr/>${rows
      .map(
        (row) =>
          `<w:tr>${row.map((cell) => `<w:tc><w:p><w:r><w:t>${escapeXml(cell)}</w:t></w:r></w:p></w:tc>`).join('')}</w:tr>`,
      )
      .join('')}</w:tbl>`,
};

export function makeDocx(
  body: string,
  options: {
    footnotes?: Record<number, string>;
    comments?: Record<number, string>;
    extra?: Record<string, string>;
    /** Adds word/media/image1.png and its relationship (see docx.image). */
    image?: boolean;
  } = {},
): Uint8Array {
  const styles = [1, 2, 3]
    .map(
      (level) =>
        `<w:style w:type="paragraph" w:styleId="Heading${level}"><w:name w:val="heading ${level}"/></w:style>`,
    )
    .join('');
  const footnotes = Object.entries(options.footnotes ?? {})
    .map(
      ([id, text]) =>
        `<w:footnote w:id="${id}"><w:p><w:r><w:t>${escapeXml(text)}</w:t></w:r></w:p></w:footnote>`,
    )
    .join('');
  const comments = Object.entries(options.comments ?? {})
    .map(
      ([id, text]) =>
        `<w:comment w:id="${id}" w:author="Reviewer"><w:p><w:r><w:t>${escapeXml(text)}</w:t></w:r></w:p></w:comment>`,
    )
    .join('');
  return zipParts({
    '[Content_Types].xml': `${xmlHead}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
    '_rels/.rels': `${xmlHead}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
    'word/_rels/document.xml.rels': `${xmlHead}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/numbering" Target="numbering.xml"/><Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/footnotes" Target="footnotes.xml"/><Relationship Id="rId4" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/comments" Target="comments.xml"/>${
      options.image
        ? '<Relationship Id="rId9" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="media/image1.png"/>'
        : ''
    }</Relationships>`,
    'word/document.xml': `${xmlHead}<w:document ${w}><w:body>${body}</w:body></w:document>`,
    'word/styles.xml': `${xmlHead}<w:styles ${w}>${styles}</w:styles>`,
    'word/numbering.xml': `${xmlHead}<w:numbering ${w}><w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:numFmt w:val="bullet"/></w:lvl><w:lvl w:ilvl="1"><w:numFmt w:val="bullet"/></w:lvl></w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num></w:numbering>`,
    'word/footnotes.xml': `${xmlHead}<w:footnotes ${w}>${footnotes}</w:footnotes>`,
    'word/comments.xml': `${xmlHead}<w:comments ${w}>${comments}</w:comments>`,
    ...(options.image ? { 'word/media/image1.png': '\x89PNG not really a picture' } : {}),
    ...options.extra,
  });
}

// ── PPTX ────────────────────────────────────────────────────────────────────────────────────────────

const p =
  'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"';

export interface Slide {
  title?: string;
  bullets?: string[];
  textBox?: string;
  table?: string[][];
  notes?: string;
}

const shape = (placeholder: string, paragraphs: readonly string[]) =>
  `<p:sp><p:nvSpPr><p:cNvPr id="2" name="s"/><p:cNvSpPr/><p:nvPr>${placeholder}</p:nvPr></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/>${paragraphs
    .map((text) => `<a:p><a:r><a:rPr lang="en-US"/><a:t>${escapeXml(text)}</a:t></a:r></a:p>`)
    .join('')}</p:txBody></p:sp>`;

export function makePptx(slides: readonly Slide[]): Uint8Array {
  const parts: Record<string, string> = {
    '[Content_Types].xml': `${xmlHead}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/></Types>`,
    'ppt/presentation.xml': `${xmlHead}<p:presentation ${p}><p:sldIdLst>${slides
      .map((_, index) => `<p:sldId id="${256 + index}" r:id="rId${index + 10}"/>`)
      .join('')}</p:sldIdLst></p:presentation>`,
    'ppt/_rels/presentation.xml.rels': `${xmlHead}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${slides
      .map(
        (_, index) =>
          `<Relationship Id="rId${index + 10}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/slide" Target="slides/slide${index + 1}.xml"/>`,
      )
      .join('')}</Relationships>`,
  };
  slides.forEach((slide, index) => {
    const number = index + 1;
    const tree = [
      slide.title !== undefined ? shape('<p:ph type="title"/>', [slide.title]) : '',
      slide.bullets ? shape('<p:ph idx="1"/>', slide.bullets) : '',
      slide.textBox ? shape('', [slide.textBox]) : '',
      shape('<p:ph type="sldNum" idx="12"/>', [String(number)]),
      slide.table
        ? `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="9" name="t"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr><a:graphic><a:graphicData><a:tbl>${slide.table
            .map(
              (row) =>
                `<a:tr>${row.map((cell) => `<a:tc><a:txBody><a:bodyPr/><a:p><a:r><a:t>${escapeXml(cell)}</a:t></a:r></a:p></a:txBody></a:tc>`).join('')}</a:tr>`,
            )
            .join('')}</a:tbl></a:graphicData></a:graphic></p:graphicFrame>`
        : '',
    ].join('');
    parts[`ppt/slides/slide${number}.xml`] =
      `${xmlHead}<p:sld ${p}><p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>${tree}</p:spTree></p:cSld></p:sld>`;
    if (slide.notes) {
      parts[`ppt/slides/_rels/slide${number}.xml.rels`] =
        `${xmlHead}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/notesSlide" Target="../notesSlides/notesSlide${number}.xml"/></Relationships>`;
      parts[`ppt/notesSlides/notesSlide${number}.xml`] =
        `${xmlHead}<p:notes ${p}><p:cSld><p:spTree>${shape('<p:ph type="sldImg"/>', [])}${shape('<p:ph type="body" idx="1"/>', [slide.notes])}</p:spTree></p:cSld></p:notes>`;
    }
  });
  return zipParts(parts);
}

// ── XLSX ────────────────────────────────────────────────────────────────────────────────────────────

/** A cell: a string (shared), a number with an optional style index, or a formula with its cached value. */
export type XlsxCell =
  | string
  | { number: number; style?: number }
  | { formula: string; cached: string | number; style?: number }
  | null;

export interface XlsxSheet {
  name: string;
  state?: 'hidden' | 'veryHidden';
  /** Rows by their number as the sheet shows it (row 1 first); cells from column A. */
  rows: Record<number, readonly XlsxCell[]> | (readonly XlsxCell[])[];
}

/** Styles: 0 General, 1 `#,##0`, 2 `yyyy-mm-dd` (custom 164), 3 `0.0%` (custom 165), 4 `d mmm yyyy` (166). */
export function makeXlsx(sheets: readonly XlsxSheet[], options: { date1904?: boolean } = {}): Uint8Array {
  const strings: string[] = [];
  const indexes = new Map<string, number>();
  const stringIndex = (text: string) => {
    const found = indexes.get(text);
    if (found !== undefined) return found;
    strings.push(text);
    indexes.set(text, strings.length - 1);
    return strings.length - 1;
  };
  const column = (index: number) => {
    let name = '';
    for (let rest = index + 1; rest > 0; rest = Math.floor((rest - 1) / 26))
      name = String.fromCharCode(65 + ((rest - 1) % 26)) + name;
    return name;
  };
  const parts: Record<string, string> = {};
  sheets.forEach((sheet, sheetIndex) => {
    const rows = Array.isArray(sheet.rows)
      ? sheet.rows.map((cells, index) => [index + 1, cells] as const)
      : Object.entries(sheet.rows).map(([number, cells]) => [Number(number), cells] as const);
    const xmlRows = rows
      .map(([number, cells]) => {
        const xmlCells = cells
          .map((cell, index) => {
            const reference = `${column(index)}${number}`;
            if (cell === null) return '';
            if (typeof cell === 'string') return `<c r="${reference}" t="s"><v>${stringIndex(cell)}</v></c>`;
            if ('formula' in cell) {
              const text = typeof cell.cached === 'string';
              return `<c r="${reference}"${cell.style ? ` s="${cell.style}"` : ''}${text ? ' t="str"' : ''}><f>${escapeXml(cell.formula)}</f><v>${escapeXml(String(cell.cached))}</v></c>`;
            }
            return `<c r="${reference}"${cell.style ? ` s="${cell.style}"` : ''}><v>${cell.number}</v></c>`;
          })
          .join('');
        return `<row r="${number}">${xmlCells}</row>`;
      })
      .join('');
    parts[`xl/worksheets/sheet${sheetIndex + 1}.xml`] =
      `${xmlHead}<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${xmlRows}</sheetData></worksheet>`;
  });
  return zipParts({
    '[Content_Types].xml': `${xmlHead}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/></Types>`,
    'xl/workbook.xml': `${xmlHead}<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">${
      options.date1904 ? '<workbookPr date1904="1"/>' : ''
    }<sheets>${sheets
      .map(
        (sheet, index) =>
          `<sheet name="${escapeXml(sheet.name)}" sheetId="${index + 1}"${sheet.state ? ` state="${sheet.state}"` : ''} r:id="rId${index + 1}"/>`,
      )
      .join('')}</sheets></workbook>`,
    'xl/_rels/workbook.xml.rels': `${xmlHead}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${sheets
      .map(
        (_, index) =>
          `<Relationship Id="rId${index + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet${index + 1}.xml"/>`,
      )
      .join('')}</Relationships>`,
    'xl/sharedStrings.xml': `${xmlHead}<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${strings.length}">${strings
      .map((text) => `<si><t xml:space="preserve">${escapeXml(text)}</t></si>`)
      .join('')}</sst>`,
    'xl/styles.xml': `${xmlHead}<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><numFmts count="3"><numFmt numFmtId="164" formatCode="yyyy-mm-dd"/><numFmt numFmtId="165" formatCode="0.0%"/><numFmt numFmtId="166" formatCode="d mmm yyyy"/></numFmts><cellXfs count="5"><xf numFmtId="0"/><xf numFmtId="3"/><xf numFmtId="164"/><xf numFmtId="165"/><xf numFmtId="166"/></cellXfs></styleSheet>`,
    ...parts,
  });
}

// ── OpenDocument ────────────────────────────────────────────────────────────────────────────────────

const odfNamespaces =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" office:version="1.3"';

export function makeOpenDocument(
  type: 'text' | 'presentation' | 'spreadsheet',
  body: string,
  options: { automaticStyles?: string; encrypted?: boolean } = {},
): Uint8Array {
  const mimetype = `application/vnd.oasis.opendocument.${type}`;
  const encryption = options.encrypted
    ? '<manifest:encryption-data manifest:checksum-type="SHA1/1K" manifest:checksum="x"><manifest:algorithm manifest:algorithm-name="Blowfish CFB" manifest:initialisation-vector="x"/></manifest:encryption-data>'
    : '';
  return zipParts(
    {
      mimetype,
      'META-INF/manifest.xml': `${xmlHead}<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="/" manifest:media-type="${mimetype}"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml">${encryption}</manifest:file-entry></manifest:manifest>`,
      'content.xml': `${xmlHead}<office:document-content ${odfNamespaces}><office:automatic-styles>${options.automaticStyles ?? ''}</office:automatic-styles><office:body><office:${type}>${body}</office:${type}></office:body></office:document-content>`,
    },
    { store: ['mimetype'] },
  );
}

export const odf = {
  heading: (level: number, text: string) =>
    `<text:h text:outline-level="${level}">${escapeXml(text)}</text:h>`,
  paragraph: (text: string, inner = '') => `<text:p>${escapeXml(text)}${inner}</text:p>`,
  list: (items: readonly string[]) =>
    `<text:list>${items.map((item) => `<text:list-item><text:p>${escapeXml(item)}</text:p></text:list-item>`).join('')}</text:list>`,
  table: (rows: readonly (readonly string[])[]) =>
    `<table:table table:name="T">${rows
      .map(
        (row) =>
          `<table:table-row>${row.map((cell) => `<table:table-cell><text:p>${escapeXml(cell)}</text:p></table:table-cell>`).join('')}</table:table-row>`,
      )
      .join('')}</table:table>`,
  /** A spreadsheet row of displayed texts, optionally repeated. */
  sheetRow: (cells: readonly string[], repeated = 1) =>
    `<table:table-row${repeated > 1 ? ` table:number-rows-repeated="${repeated}"` : ''}>${cells
      .map((cell) =>
        cell
          ? `<table:table-cell office:value-type="string"><text:p>${escapeXml(cell)}</text:p></table:table-cell>`
          : '<table:table-cell/>',
      )
      .join('')}<table:table-cell table:number-columns-repeated="1020"/></table:table-row>`,
  slide: (title: string, content: string, notes?: string) =>
    `<draw:page draw:name="p"><draw:frame presentation:class="title"><draw:text-box><text:p>${escapeXml(title)}</text:p></draw:text-box></draw:frame><draw:frame presentation:class="outline"><draw:text-box>${content}</draw:text-box></draw:frame><draw:frame presentation:class="page-number"><draw:text-box><text:p>9</text:p></draw:text-box></draw:frame>${
      notes
        ? `<presentation:notes><draw:frame presentation:class="notes"><draw:text-box><text:p>${escapeXml(notes)}</text:p></draw:text-box></draw:frame></presentation:notes>`
        : ''
    }</draw:page>`,
};
