import { describe, expect, it } from 'vitest';
import { sendWithFallbacks } from '../../src/replies/send-with-fallbacks.ts';

const refused = new Error('refused');
const refuses = (error: unknown) => error === refused;

describe('sending in the richest form the platform takes', () => {
  it('tries the next variant only while the platform refuses the one before', async () => {
    const tried: string[] = [];
    const send = async (variant: string) => {
      tried.push(variant);
      if (variant !== 'text') throw refused;
      return `sent ${variant}`;
    };
    await expect(sendWithFallbacks(['blocks', 'sections', 'text'], send, refuses)).resolves.toBe('sent text');
    expect(tried).toEqual(['blocks', 'sections', 'text']);
  });

  it('throws any other error at once, and the last refusal when nothing simpler is left', async () => {
    const broken = new Error('network');
    const tried: string[] = [];
    const failing = async (variant: string) => {
      tried.push(variant);
      throw variant === 'blocks' ? broken : refused;
    };
    await expect(sendWithFallbacks(['blocks', 'text'], failing, refuses)).rejects.toBe(broken);
    expect(tried).toEqual(['blocks']);
    await expect(sendWithFallbacks(['sections', 'text'], failing, refuses)).rejects.toBe(refused);
  });
});
