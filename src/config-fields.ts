/**
 * The building blocks of the environment schema: one zod field per kind of variable (text, URL,
 * whole number, flag, token), and the shape of a chat platform's part of the configuration. `config.ts`
 * and each platform's settings (`src/platforms/<name>/<name>-settings.ts`) build their variables
 * from these, so every variable is read, defaulted and explained the same way.
 */
import { z } from 'zod';

export const emptyToUndefined = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

export const text = (fallback: string) => z.preprocess(emptyToUndefined, z.string().trim().default(fallback));
export const optionalText = () => z.preprocess(emptyToUndefined, z.string().trim().optional());
export const httpUrl = () => z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' });
export const url = (fallback: string) => z.preprocess(emptyToUndefined, httpUrl().default(fallback));
export const optionalUrl = () => z.preprocess(emptyToUndefined, httpUrl().optional());
export const wholeNumber = (fallback: number, min: number, max: number) =>
  z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ error: 'must be a number' })
      .int({ error: 'must be a whole number' })
      .min(min, { error: `must be at least ${min}` })
      .max(max, { error: `must be at most ${max}` })
      .default(fallback),
  );
export const decimal = (fallback: number, min: number, max: number) =>
  z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ error: 'must be a number' })
      .min(min, { error: `must be at least ${min}` })
      .max(max, { error: `must be at most ${max}` })
      .default(fallback),
  );
export const flag = (fallback: boolean) =>
  z.preprocess(
    (value) => {
      const cleaned = emptyToUndefined(value);
      if (typeof cleaned !== 'string') return cleaned;
      const lowered = cleaned.toLowerCase();
      if (['1', 'true', 'yes', 'on'].includes(lowered)) return true;
      if (['0', 'false', 'no', 'off'].includes(lowered)) return false;
      return cleaned;
    },
    z.boolean({ error: 'must be true or false' }).default(fallback),
  );
/** A comma-separated list (entries trimmed, empty ones dropped), each entry checked by `entry`; default none. */
export const commaList = (entry: z.ZodType<string>) =>
  z.preprocess(
    (value) =>
      typeof value === 'string'
        ? value
            .split(',')
            .map((item) => item.trim())
            .filter(Boolean)
        : value,
    z.array(entry).default([]),
  );
export const token = (prefix: string, what: string) =>
  z.preprocess(
    emptyToUndefined,
    z
      .string()
      .trim()
      .refine((value) => value.startsWith(prefix), { error: `must be ${what} (it starts with "${prefix}")` })
      .optional(),
  );

/**
 * A chat platform's part of the configuration: its variables, how to fix each, the settings read
 * from them (`config.<name>`), which values are secrets, and the shapes of its tokens for the log
 * scrubber. Reading it needs nothing but zod: the platform's SDK is not loaded to parse a setting.
 */
export interface PlatformSettings<Name extends string, Shape extends z.ZodRawShape, Settings> {
  readonly name: Name;
  readonly environment: Shape;
  /** How to fix a variable, shown with its error. */
  readonly fixes: Readonly<Record<string, string>>;
  read(env: z.infer<z.ZodObject<Shape>>): Settings;
  /** The secret values among the settings (removed from every log line). */
  secrets(settings: Settings): ReadonlyArray<string | undefined>;
  /**
   * Shapes of this platform's tokens, scrubbed from logs even when not configured here. A pattern
   * with a capture group keeps what it captured (a URL path) and drops the rest of the match.
   */
  readonly secretPatterns: readonly RegExp[];
}

/** Declares a platform's settings (checks the shape; the value is returned as it is). */
export function platformSettings<Name extends string, Shape extends z.ZodRawShape, Settings>(
  settings: PlatformSettings<Name, Shape, Settings>,
): PlatformSettings<Name, Shape, Settings> {
  return settings;
}
