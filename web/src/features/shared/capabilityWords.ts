import { CAPABILITIES, CAPABILITY_DESCRIPTIONS, CAPABILITY_LABELS, type Capability } from '../../api/contract';

export type { Capability };

/** The four capabilities in the order a form offers them. */
export const CAPABILITY_OPTIONS: readonly Capability[] = CAPABILITIES;
/** Short words that never rely on colour. */
export const CAPABILITY_WORDS: Readonly<Record<Capability, string>> = CAPABILITY_LABELS;
/** One line on what the unit is. */
export const CAPABILITY_HINTS: Readonly<Record<Capability, string>> = CAPABILITY_DESCRIPTIONS;

const known = (c: string | null | undefined): c is Capability => c != null && Object.hasOwn(CAPABILITY_WORDS, c);

/** The capability in words; a value this app does not know (a newer server) shows as it is. */
export const capabilityWords = (c: string | null | undefined): string => (known(c) ? CAPABILITY_WORDS[c] : c ? c.toUpperCase() : 'Unknown');

/** The one-line description, or nothing for a value this app does not know. */
export const capabilityHint = (c: string | null | undefined): string => (known(c) ? CAPABILITY_HINTS[c] : '');

/** A car rather than an ambulance: what picks the icon beside the words. */
export const isResponderCar = (c: string | null | undefined) => c === 'responder';
