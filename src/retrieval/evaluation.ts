/**
 * Retrieval evaluation over a question set (JSON lines). Each line:
 *   {"question": "...", "evidence": ["verbatim phrase", ...], "doc": "file.pdf"}   (evidence, doc optional)
 * Over the lines with evidence:
 * - hitAtK: every evidence phrase (compared in `normalizeForMatch` form) occurs in the concatenated
 *   text of the top-k children;
 * - parentHitAtK: the same over the parents of the top-k children;
 * - docAtK: a top-k child comes from `doc` (over the lines that name one);
 * - parentHitAt1: every evidence phrase occurs in the parent of the first child;
 * - bothHitAtK: every evidence phrase occurs in the top-k children or the parent of the first one — what
 *   the agent has when a search gives it children and it reads the best one's whole section;
 * - mrr: 1 / rank of the first top-k child that contains an evidence phrase (0 when none does);
 * - childTokens / parentTokens / bothTokens: the tokens the agent would read, on average per question:
 *   the top-k children's texts, the texts of their distinct parents, or the children plus the first
 *   child's parent.
 * Questions marked `"heldOut": true` are also reported apart (`splits.heldOut`, the rest in
 * `splits.tuning`): settings are chosen on the tuning part and confirmed on the held-out part.
 * Latency (p50Ms / p95Ms) is measured over every search.
 */
import path from 'node:path';
import type { Scope, SearchHit } from '../core/types.ts';
import { errorMessages } from '../error-messages-en.ts';
import { RagentError } from '../errors.ts';
import type { Retriever } from './chunk-index.ts';

export interface EvalQuestion {
  question: string;
  evidence?: string[];
  doc?: string;
  /** The 1-based page of `doc` the evidence is on (documentation; not scored). */
  page?: number;
  /** Kept aside when choosing settings: reported as a separate split. */
  heldOut?: boolean;
}

export interface EvalItem {
  question: string;
  doc: string | null;
  evidence: string[];
  heldOut: boolean;
  hit: boolean | null;
  parentHit: boolean | null;
  parentHitAt1: boolean | null;
  bothHit: boolean | null;
  docHit: boolean | null;
  childTokens: number;
  parentTokens: number;
  bothTokens: number;
  /** 1-based rank of the first child holding evidence; null when none or no evidence. */
  rank: number | null;
  ms: number;
  top: { file: string; pages: [number, number]; section: string[]; score: number }[];
}

export interface EvalMetrics {
  /** Questions in this part (with or without evidence). */
  questions: number;
  hitAtK: number;
  parentHitAtK: number;
  parentHitAt1: number;
  bothHitAtK: number;
  docAtK: number;
  mrr: number;
  childTokens: number;
  parentTokens: number;
  bothTokens: number;
}

export interface EvalReport {
  hitAtK: number;
  parentHitAtK: number;
  parentHitAt1: number;
  bothHitAtK: number;
  docAtK: number;
  mrr: number;
  childTokens: number;
  parentTokens: number;
  bothTokens: number;
  p50Ms: number;
  p95Ms: number;
  /** Null when no question is held out. */
  splits: { tuning: EvalMetrics; heldOut: EvalMetrics } | null;
  items: EvalItem[];
}

export interface EvaluateOptions {
  scopes: readonly Scope[];
  k: number;
  onProgress?: (done: number, total: number) => void;
  /** Tokens of a text (the answer model's tokenizer); default: one token per four characters. */
  countTokens?: (text: string) => number;
}

const roughTokens = (text: string) => Math.ceil(text.length / 4);

export function parseQuestions(text: string, source = 'the question file'): EvalQuestion[] {
  const questions: EvalQuestion[] = [];
  text.split(/\r?\n/).forEach((line, index) => {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new RagentError(
        'INVALID_INPUT',
        errorMessages.INVALID_INPUT.evaluationLineNotJson({ line: index + 1, source }),
      );
    }
    const record = value as Partial<EvalQuestion>;
    const evidenceOk =
      record.evidence === undefined ||
      (Array.isArray(record.evidence) && record.evidence.every((phrase) => typeof phrase === 'string'));
    if (typeof record.question !== 'string' || record.question.trim() === '' || !evidenceOk) {
      throw new RagentError(
        'INVALID_INPUT',
        errorMessages.INVALID_INPUT.evaluationLineShape({ line: index + 1, source }),
      );
    }
    questions.push({
      question: record.question,
      ...(record.evidence ? { evidence: record.evidence } : {}),
      ...(typeof record.doc === 'string' ? { doc: record.doc } : {}),
      ...(typeof record.page === 'number' ? { page: record.page } : {}),
      ...(record.heldOut === true ? { heldOut: true } : {}),
    });
  });
  return questions;
}

/**
 * The form evidence and chunk text are compared in, the same for both sides: the Markdown markup that
 * chunking adds around a block (code fences, heading marks, list bullets at a line start) is removed, so
 * a phrase that runs from a paragraph into a code block still matches; compatibility forms are folded
 * (NFKC: ligatures such as "ﬁ", composed accents), soft hyphens dropped, curly quotes made straight,
 * case ignored and whitespace collapsed.
 */
export function normalizeForMatch(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/^[ \t]*```[^\n]*$/gm, ' ')
    .replace(/^[ \t]*(?:#{1,6}|[-*])[ \t]+/gm, '')
    .replace(/\u00ad/g, '')
    .replace(/[‘’‚‛]/g, "'")
    .replace(/[“”„‟]/g, '"')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

export async function evaluateRetrieval(
  retriever: Retriever,
  questions: readonly EvalQuestion[],
  options: EvaluateOptions,
): Promise<EvalReport> {
  const items: EvalItem[] = [];
  const countTokens = options.countTokens ?? roughTokens;
  for (const [position, question] of questions.entries()) {
    const started = performance.now();
    const hits = await retriever.search(question.question, { scopes: options.scopes, k: options.k });
    const ms = performance.now() - started;
    items.push(await judge(retriever, question, hits, ms, options.scopes, countTokens));
    options.onProgress?.(position + 1, questions.length);
  }
  const latencies = items.map((item) => item.ms);
  const { questions: _count, ...overall } = metricsOf(items);
  const heldOut = items.filter((item) => item.heldOut);
  return {
    hitAtK: overall.hitAtK,
    parentHitAtK: overall.parentHitAtK,
    parentHitAt1: overall.parentHitAt1,
    bothHitAtK: overall.bothHitAtK,
    docAtK: overall.docAtK,
    mrr: overall.mrr,
    childTokens: overall.childTokens,
    parentTokens: overall.parentTokens,
    bothTokens: overall.bothTokens,
    p50Ms: percentile(latencies, 0.5),
    p95Ms: percentile(latencies, 0.95),
    splits:
      heldOut.length === 0
        ? null
        : { tuning: metricsOf(items.filter((item) => !item.heldOut)), heldOut: metricsOf(heldOut) },
    items,
  };
}

/** The metrics over some items (shares over the items with evidence; tokens over all). */
export function metricsOf(items: readonly EvalItem[]): EvalMetrics {
  const judged = items.filter((item) => item.hit !== null);
  const withDoc = judged.filter((item) => item.docHit !== null);
  const share = (list: EvalItem[], pick: (item: EvalItem) => boolean) =>
    list.length === 0 ? 0 : list.filter(pick).length / list.length;
  const mean = (pick: (item: EvalItem) => number) =>
    items.length === 0 ? 0 : items.reduce((sum, item) => sum + pick(item), 0) / items.length;
  return {
    questions: items.length,
    hitAtK: share(judged, (item) => item.hit === true),
    parentHitAtK: share(judged, (item) => item.parentHit === true),
    parentHitAt1: share(judged, (item) => item.parentHitAt1 === true),
    bothHitAtK: share(judged, (item) => item.bothHit === true),
    docAtK: share(withDoc, (item) => item.docHit === true),
    mrr:
      judged.length === 0
        ? 0
        : judged.reduce((sum, item) => sum + (item.rank ? 1 / item.rank : 0), 0) / judged.length,
    childTokens: mean((item) => item.childTokens),
    parentTokens: mean((item) => item.parentTokens),
    bothTokens: mean((item) => item.bothTokens),
  };
}

async function judge(
  retriever: Retriever,
  question: EvalQuestion,
  hits: SearchHit[],
  ms: number,
  scopes: readonly Scope[],
  countTokens: (text: string) => number,
): Promise<EvalItem> {
  const parentIds = [...new Set(hits.map((hit) => hit.child.parentId))];
  const parents = await Promise.all(parentIds.map((id) => retriever.getParent(id, scopes)));
  const childTokens = hits.reduce((sum, hit) => sum + countTokens(hit.child.text), 0);
  const parentTokens = parents.reduce((sum, parent) => sum + (parent ? countTokens(parent.text) : 0), 0);
  const bothTokens = childTokens + (parents[0] ? countTokens(parents[0].text) : 0);
  const heldOut = question.heldOut === true;
  const evidence = (question.evidence ?? []).map(normalizeForMatch).filter((phrase) => phrase !== '');
  const top = hits.map((hit) => ({
    file: hit.child.documentName,
    pages: [hit.child.pageStart, hit.child.pageEnd] as [number, number],
    section: hit.child.sectionPath,
    score: hit.score,
  }));
  const docHit =
    question.doc === undefined || evidence.length === 0
      ? null
      : hits.some((hit) => sameFile(hit.child.documentName, question.doc!));
  if (evidence.length === 0) {
    return {
      question: question.question,
      doc: question.doc ?? null,
      evidence: [],
      heldOut,
      hit: null,
      parentHit: null,
      parentHitAt1: null,
      bothHit: null,
      docHit,
      childTokens,
      parentTokens,
      bothTokens,
      rank: null,
      ms,
      top,
    };
  }
  const childTexts = hits.map((hit) => normalizeForMatch(hit.child.text));
  const joined = childTexts.join(' ');
  const hit = evidence.every((phrase) => joined.includes(phrase));
  const parentTexts = parents.map((parent) => normalizeForMatch(parent?.text ?? ''));
  const parentText = parentTexts.join(' ');
  const parentHit = evidence.every((phrase) => parentText.includes(phrase));
  const firstParent = parentTexts[0] ?? '';
  const parentHitAt1 = hits.length > 0 && evidence.every((phrase) => firstParent.includes(phrase));
  const bothText = `${joined} ${firstParent}`;
  const bothHit = hits.length > 0 && evidence.every((phrase) => bothText.includes(phrase));
  const firstRank = childTexts.findIndex((text) => evidence.some((phrase) => text.includes(phrase)));
  return {
    question: question.question,
    doc: question.doc ?? null,
    evidence: question.evidence ?? [],
    heldOut,
    hit,
    parentHit,
    parentHitAt1,
    bothHit,
    docHit,
    childTokens,
    parentTokens,
    bothTokens,
    rank: firstRank < 0 ? null : firstRank + 1,
    ms,
    top,
  };
}

function sameFile(name: string, wanted: string): boolean {
  return path.basename(name).toLowerCase() === path.basename(wanted).toLowerCase();
}

export function percentile(values: readonly number[], fraction: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]!;
}
