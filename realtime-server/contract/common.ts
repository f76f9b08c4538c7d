import { z } from 'zod';

export const email = () => z.string().trim().toLowerCase().pipe(z.email({ error: 'Invalid email address' }).max(254, { error: 'Too long: at most 254 characters' }));

/**
 * Characters no one types: NUL and the other C0 and DEL control characters (tab and line
 * breaks aside) and unpaired UTF-16 surrogate halves, which have no UTF-8 form (PostgreSQL
 * refuses NUL in text; a lone surrogate would be stored as U+FFFD).
 */
// eslint-disable-next-line no-control-regex -- matching control characters is this pattern's whole purpose
const UNTYPEABLE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Free text a person typed: any script, emoji and line breaks, but no control characters or broken unicode. */
export const text = () => z.string().refine((v) => !UNTYPEABLE.test(v), { error: 'must not contain control characters or broken unicode' });

/** Line breaks text() lets through: CR, LF, NEL, LINE SEPARATOR, PARAGRAPH SEPARATOR (vertical tab and form feed are control characters). */
const LINE_BREAK = /[\r\n\u0085\u2028\u2029]/;

/**
 * Text on one line, such as a name: what text() accepts, without a line break of any kind
 * (a name goes into e-mails, where a line of its own could pass for a header).
 */
export const singleLine = () => text().refine((v) => !LINE_BREAK.test(v), { error: 'must be a single line' });

/** The largest id a database integer column holds (PostgreSQL `integer`). */
export const MAX_ID = 2_147_483_647;

/** A positive integer id, accepted as a number or a numeric string (forms send strings). */
export const intId = () =>
  z.union([z.number(), z.string().trim().regex(/^\d+$/).transform(Number)], { error: 'must be a whole number' })
    .pipe(z.number().int().positive({ error: 'must be a positive whole number' }).max(MAX_ID, { error: 'is not a known id' }));

export const latitude = () => z.number().finite().min(-90).max(90);
export const longitude = () => z.number().finite().min(-180).max(180);

export const optionalText = (max: number) =>
  text().trim().max(max).nullish().transform((v) => (v ? v : null));

/** Error body of every failed call. */
export interface ErrorBody { error: string }
