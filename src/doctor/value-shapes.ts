/**
 * The doctor's check of a platform's settings by their shape, once for every platform: the platform
 * lists its rules in the order it wants them checked (each says whether its value looks wrong and,
 * if so, how bad it is and what to do); the first rule that finds a wrong value decides the line,
 * as a failure (the value cannot work) or a warning (it looks odd). Doctor never prints the values.
 */
import type { CheckResult } from './check-result.ts';

export interface ShapeRule {
  /** True when the value does not have the shape the rule asks for. */
  wrong: boolean;
  /** `fail` = it cannot work; `warn` = it looks odd but may work. */
  status: 'fail' | 'warn';
  /** What was found, without the value. */
  detail: string;
  fix: string[];
}

/** Passes with `passDetail` when no rule finds a wrong value; otherwise the first rule that does speaks. */
export function shapeCheck(title: string, rules: readonly ShapeRule[], passDetail: string): CheckResult {
  const first = rules.find((rule) => rule.wrong);
  if (!first) return { title, status: 'pass', detail: passDetail };
  return { title, status: first.status, detail: first.detail, fix: first.fix };
}
