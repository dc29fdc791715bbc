/** The files an `ingest` run means: named files as they are, directories walked for the supported types. */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';

export const ingestibleExtension =
  /\.(pdf|md|markdown|txt|docx|odt|pptx|odp|xlsx|ods|csv|tsv|html?|eml|mbox|png|jpe?g|tiff?)$/i;

export interface CollectedFiles {
  files: string[];
  /** Paths that do not exist (or cannot be read), with the reason. */
  missing: { path: string; reason: string }[];
}

export async function collectFiles(paths: readonly string[]): Promise<CollectedFiles> {
  const files: string[] = [];
  const missing: CollectedFiles['missing'] = [];
  for (const given of paths) {
    const resolved = path.resolve(given);
    try {
      const info = await stat(resolved);
      if (info.isDirectory()) files.push(...(await walk(resolved)));
      else files.push(resolved);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      missing.push({ path: given, reason: code === 'ENOENT' ? 'no such file or directory' : String(code) });
    }
  }
  return { files: [...new Set(files)], missing };
}

async function walk(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { withFileTypes: true });
  entries.sort((a, b) => a.name.localeCompare(b.name));
  const found: string[] = [];
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) found.push(...(await walk(full)));
    else if (entry.isFile() && ingestibleExtension.test(entry.name)) found.push(full);
  }
  return found;
}
