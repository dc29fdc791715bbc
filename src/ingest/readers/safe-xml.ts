/**
 * XML of Office files, parsed with fast-xml-parser in document order. A document type declaration is
 * refused before parsing: Office files never need one, and it is what entity expansion ("billion
 * laughs") and external entities (reading local files or URLs) are made of. Only the five predefined
 * entities and character references are decoded.
 */
import { XMLParser } from 'fast-xml-parser';
import { errorMessages } from '../../error-messages-en.ts';
import { RagentError } from '../../errors.ts';

/** One element (its name → children) or text (`#text`) in document order; attributes under `:@`. */
export type XmlNode = Record<string, unknown>;

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  trimValues: false,
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: true,
  htmlEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
});

/** Throws XML_DOCTYPE_REFUSED for a DOCTYPE, OFFICE_CORRUPT for XML that does not parse. */
export function parseXml(text: string, fileName: string, entry: string): XmlNode[] {
  refuseDoctype(text, fileName, entry);
  try {
    return parser.parse(text) as XmlNode[];
  } catch (error) {
    throw new RagentError(
      'OFFICE_CORRUPT',
      errorMessages.OFFICE_CORRUPT.xmlMalformed({ name: fileName, entry }),
      { cause: error, details: { entry } },
    );
  }
}

export function refuseDoctype(text: string, fileName: string, entry: string): void {
  if (/<!DOCTYPE/i.test(text)) {
    throw new RagentError(
      'XML_DOCTYPE_REFUSED',
      errorMessages.XML_DOCTYPE_REFUSED({ name: fileName, entry }),
      { details: { entry } },
    );
  }
}

/** The element's name (`w:p`), or undefined for text. */
export function tagOf(node: XmlNode): string | undefined {
  for (const key of Object.keys(node)) if (key !== ':@' && key !== '#text') return key;
  return undefined;
}

export function childrenOf(node: XmlNode): XmlNode[] {
  const tag = tagOf(node);
  const children = tag ? node[tag] : undefined;
  return Array.isArray(children) ? (children as XmlNode[]) : [];
}

export function attributeOf(node: XmlNode, name: string): string | undefined {
  const attributes = node[':@'] as Record<string, unknown> | undefined;
  const value = attributes?.[name];
  return value === undefined ? undefined : String(value);
}

export function textNodeOf(node: XmlNode): string | undefined {
  const text = node['#text'];
  return text === undefined ? undefined : String(text);
}

/** The first child element with this name. */
export function childNamed(node: XmlNode, tag: string): XmlNode | undefined {
  return childrenOf(node).find((child) => tagOf(child) === tag);
}

/** Every element with this name below `nodes`, depth first, in document order (not inside a match). */
export function findAll(nodes: readonly XmlNode[], tag: string): XmlNode[] {
  const found: XmlNode[] = [];
  const visit = (list: readonly XmlNode[]) => {
    for (const node of list) {
      if (tagOf(node) === tag) found.push(node);
      else visit(childrenOf(node));
    }
  };
  visit(nodes);
  return found;
}

/** The first element with this name below `nodes`, depth first. */
export function findFirst(nodes: readonly XmlNode[], tag: string): XmlNode | undefined {
  for (const node of nodes) {
    if (tagOf(node) === tag) return node;
    const inside = findFirst(childrenOf(node), tag);
    if (inside) return inside;
  }
  return undefined;
}

/** The relationships of a part (`_rels/*.rels`): id → target, resolved against the part's folder. */
export function readRelationships(xml: XmlNode[], partFolder: string): Map<string, string> {
  const targets = new Map<string, string>();
  for (const relationship of findAll(xml, 'Relationship')) {
    const id = attributeOf(relationship, 'Id');
    const target = attributeOf(relationship, 'Target');
    if (!id || !target || attributeOf(relationship, 'TargetMode') === 'External') continue;
    targets.set(id, resolvePartPath(partFolder, target));
  }
  return targets;
}

/** `ppt/slides` + `../notesSlides/notesSlide1.xml` → `ppt/notesSlides/notesSlide1.xml`. */
export function resolvePartPath(folder: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const parts = folder ? folder.split('/') : [];
  for (const piece of target.split('/')) {
    if (piece === '..') parts.pop();
    else if (piece !== '.' && piece !== '') parts.push(piece);
  }
  return parts.join('/');
}
