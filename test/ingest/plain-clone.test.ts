import { describe, expect, it } from 'vitest';
import { plainStructuredClone } from '../../src/ingest/pdf/plain-clone.ts';

describe('plainStructuredClone (the structuredClone of the extraction workers)', () => {
  it('copies plain data deeply, as the native clone does', () => {
    // The shape of a pdf.js text-content chunk on its way between the two halves of pdf.js.
    const styles = Object.create(null) as Record<string, unknown>;
    styles.g_d0_f1 = { fontFamily: 'serif', ascent: 0.7, descent: -0.2, vertical: false };
    const message = {
      sourceName: 'worker',
      stream: 4,
      chunk: {
        items: [
          { str: 'Description', dir: 'ltr', width: 52.1, transform: [10, 0, 0, 10, 72, 700], hasEOL: false },
          { str: '', dir: 'ltr', width: 0, transform: [1, 0, 0, 1, 0, 0], hasEOL: true },
        ],
        styles,
      },
      missing: undefined,
      nothing: null,
      negativeZero: -0,
    };
    const copy = plainStructuredClone(message);
    expect(copy).toStrictEqual(structuredClone(message));
    expect(Object.is(copy.negativeZero, -0)).toBe(true);
    expect('missing' in copy).toBe(true);
    // Nothing is shared: pdf.js reuses its objects after sending them.
    message.chunk.items[0]?.transform.fill(0);
    message.chunk.items.length = 0;
    expect(copy.chunk.items[0]?.transform).toEqual([10, 0, 0, 10, 72, 700]);
    expect(copy.chunk.items).toHaveLength(2);
  });

  it('keeps the holes of a sparse array', () => {
    const sparse: number[] = [];
    sparse[0] = 1;
    sparse[2] = 3;
    const copy = plainStructuredClone(sparse);
    expect(1 in copy).toBe(false);
    expect(copy).toEqual(structuredClone(sparse));
    expect(copy).toHaveLength(3);
  });

  it('leaves anything but plain data to the native clone: typed arrays, maps, dates, cycles', () => {
    const cyclic: Record<string, unknown> = { name: 'root' };
    cyclic.self = cyclic;
    const value = {
      bytes: new Uint8Array([1, 2, 3]),
      fonts: new Map([['F1', { bold: true }]]),
      when: new Date(0),
      cyclic,
    };
    const copy = plainStructuredClone(value);
    expect(copy.bytes).toBeInstanceOf(Uint8Array);
    expect([...copy.bytes]).toEqual([1, 2, 3]);
    expect(copy.fonts.get('F1')).toEqual({ bold: true });
    expect(copy.when).toBeInstanceOf(Date);
    expect(copy.cyclic.self).toBe(copy.cyclic);
    expect(copy.cyclic).not.toBe(cyclic);
  });

  it('refuses a function as the native clone does, and transfers what it is asked to', () => {
    expect(() => plainStructuredClone({ callback: () => {} })).toThrow(
      expect.objectContaining({ name: 'DataCloneError' }),
    );
    const buffer = new ArrayBuffer(8);
    const copy = plainStructuredClone({ buffer }, { transfer: [buffer] });
    expect(copy.buffer.byteLength).toBe(8);
    expect(buffer.byteLength).toBe(0);
  });
});
