import { describe, expect, it } from 'vitest';
import { type ShapeRule, shapeCheck } from '../../src/doctor/value-shapes.ts';

const rule = (wrong: boolean, status: 'fail' | 'warn', detail: string): ShapeRule => ({
  wrong,
  status,
  detail,
  fix: [`fix ${detail}`],
});

describe('shapeCheck', () => {
  it("passes with the platform's words when no rule finds a wrong value", () => {
    expect(shapeCheck('Chat', [rule(false, 'fail', 'a'), rule(false, 'warn', 'b')], 'looks right')).toEqual({
      title: 'Chat',
      status: 'pass',
      detail: 'looks right',
    });
  });

  it('lets the first rule that finds a wrong value decide, in the order given', () => {
    expect(
      shapeCheck('Chat', [rule(false, 'fail', 'a'), rule(true, 'warn', 'b'), rule(true, 'fail', 'c')], 'ok'),
    ).toEqual({
      title: 'Chat',
      status: 'warn',
      detail: 'b',
      fix: ['fix b'],
    });
    expect(shapeCheck('Chat', [rule(true, 'fail', 'a'), rule(true, 'warn', 'b')], 'ok')).toMatchObject({
      status: 'fail',
      detail: 'a',
    });
  });
});
