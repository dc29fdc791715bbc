/**
 * Three real parent sections of the Bash reference manual exactly as `ragent ingest` cut them
 * (fixtures/bashref-parents.json, 2.2–3.4k characters each), as a sample document: the tool outputs
 * of a typical turn are then as long as they are in production.
 */
import { readFileSync } from 'node:fs';
import type { SampleDocument } from './sample-index.ts';

interface RecordedParent {
  id: string;
  pages: [number, number];
  sectionPath: string[];
  text: string;
}

export function recordedParents(): RecordedParent[] {
  const file = new URL('./fixtures/bashref-parents.json', import.meta.url);
  return (JSON.parse(readFileSync(file, 'utf8')) as { parents: RecordedParent[] }).parents;
}

export function bashrefDocument(): SampleDocument {
  return {
    id: 'doc-bashref',
    name: 'bashref.pdf',
    scope: 'shared',
    sections: recordedParents().map((parent) => ({
      id: parent.id,
      pages: parent.pages,
      heading: parent.sectionPath.at(-1) ?? '',
      sectionPath: parent.sectionPath,
      text: parent.text,
    })),
  };
}
