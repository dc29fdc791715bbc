/** A plain-text "manual" of a few paragraphs on one subject, long enough for several children. */
export function textManual(subject: string): Uint8Array {
  const paragraphs = Array.from(
    { length: 8 },
    (_unused, at) =>
      `The ${subject} chapter ${at} explains how the ${subject} works in practice. ` +
      `Operators tune the ${subject} settings step ${at} carefully, check the ${subject} logs, ` +
      `and restart the ${subject} service when the ${subject} configuration changes at stage ${at}.`,
  );
  return new TextEncoder().encode(paragraphs.join('\n\n'));
}
