import { describe, expect, it } from 'vitest';
import { splitMessage, splitWhileWriting, splitWithin } from '../../../src/replies/split-message.ts';

function fenceBalanced(part: string): boolean {
  return (part.match(/^```/gm) ?? []).length % 2 === 0;
}

describe('splitMessage', () => {
  it('keeps a short message whole', () => {
    expect(splitMessage('Hello **world**', 2000)).toEqual(['Hello **world**']);
  });

  it('splits a 5,000-character answer under the limit at paragraph boundaries', () => {
    const paragraph = 'The shell reads a line, splits it into words and runs the command. '.repeat(6).trim();
    const text = Array.from({ length: 13 }, (_, i) => `${i + 1}. ${paragraph}`).join('\n\n');
    expect(text.length).toBeGreaterThan(5000);
    const parts = splitMessage(text, 2000);
    expect(parts.length).toBeGreaterThanOrEqual(3);
    for (const part of parts) {
      expect(part.length).toBeLessThanOrEqual(2000);
      expect(part.endsWith('.')).toBe(true);
    }
    expect(parts.join('\n\n')).toBe(text);
  });

  it('never leaves a code block open across parts', () => {
    const code = Array.from({ length: 120 }, (_, i) => `echo "line ${i}"`).join('\n');
    const text = `Intro paragraph.\n\n\`\`\`bash\n${code}\n\`\`\`\n\nOutro paragraph.`;
    const parts = splitMessage(text, 500);
    expect(parts.length).toBeGreaterThan(2);
    for (const part of parts) {
      expect(part.length).toBeLessThanOrEqual(500);
      expect(fenceBalanced(part)).toBe(true);
    }
    expect(parts.slice(1, -1).every((part) => part.startsWith('```bash'))).toBe(true);
    const lines = parts
      .join('\n')
      .split('\n')
      .filter((line) => line.startsWith('echo'));
    expect(lines).toHaveLength(120);
  });

  it('cuts an unbroken run at the limit', () => {
    const parts = splitMessage('x'.repeat(450), 100);
    expect(parts.every((part) => part.length <= 100)).toBe(true);
    expect(parts.join('')).toBe('x'.repeat(450));
  });
});

describe('splitting for fields and for an answer still being written', () => {
  it('keeps at most the fields there are, the last one marked as cut', () => {
    const lines = Array.from({ length: 20 }, (_, index) => `line ${index} ${'x'.repeat(40)}`).join('\n');
    const parts = splitWithin(lines, 100, 3);
    expect(parts).toHaveLength(3);
    expect(parts.every((part) => part.length <= 100)).toBe(true);
    expect(parts[2]?.endsWith('\n…')).toBe(true);
    expect(splitWithin('short', 100, 3)).toEqual(['short']);
  });

  it('closes an open code block and leaves room for the mark on the last part', () => {
    const parts = splitWhileWriting(`${'word '.repeat(30)}\n\`\`\`sh\necho`, 60, ' [writing]');
    expect(parts.every((part) => part.length <= 60)).toBe(true);
    expect(parts.at(-1)).toMatch(/echo\n```\s*\[writing\]$/);
  });
});
