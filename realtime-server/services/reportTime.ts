import { tzOffsetMs } from '../contract/zonedTime';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  return era * 146097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - 719468;
}

const digit = (s: string, i: number) => s.charCodeAt(i) - 48;
const two = (s: string, i: number) => digit(s, i) * 10 + digit(s, i + 1);

/**
 * Epoch milliseconds of a stored time. Every time is written by `toISOString()`
 * ("2026-11-24T09:30:00.000Z"), read here digit by digit: a year's report parses millions of
 * them, and Date.parse takes about four times as long (measured for issue 17). Anything else
 * falls back to Date.parse. No closures inside: this runs millions of times.
 */
export function isoMs(s: string): number {
  if (s.length !== 24 || s.charCodeAt(23) !== 90 || s.charCodeAt(10) !== 84 || s.charCodeAt(19) !== 46) return Date.parse(s);
  const days = daysFromCivil(two(s, 0) * 100 + two(s, 2), two(s, 5), two(s, 8));
  return days * DAY_MS + (two(s, 11) * 60 + two(s, 14)) * 60_000 + two(s, 17) * 1000 + digit(s, 20) * 100 + two(s, 21);
}

export interface LocalSlot {
  /** The local date as days since 1970-01-01 (see `date`). */
  day: number;
  /** 0–23 */
  hour: number;
  /** 0 Monday … 6 Sunday */
  weekday: number;
}

/**
 * Local days and hours in one zone for many instants, asking Intl once per UTC day: a day whose
 * offset at its start equals the next day's is taken as one offset throughout (no zone changes
 * twice within a day); a day of a DST switch is looked at per hour the same way, and the hour
 * of the switch per instant. 1970-01-01 was a Thursday.
 */
export function zoneClock(tz: string) {
  const at = new Map<number, number>();
  const offsetAtStart = (ms: number) => {
    let o = at.get(ms);
    if (o === undefined) at.set(ms, (o = tzOffsetMs(ms, tz)));
    return o;
  };
  const dates = new Map<number, string>();
  const offsetAt = (ms: number) => {
    const dayStart = Math.floor(ms / DAY_MS) * DAY_MS;
    const o = offsetAtStart(dayStart);
    if (o === offsetAtStart(dayStart + DAY_MS)) return o;
    const hourStart = Math.floor(ms / HOUR_MS) * HOUR_MS;
    const h = offsetAtStart(hourStart);
    return h === offsetAtStart(hourStart + HOUR_MS) ? h : tzOffsetMs(ms, tz);
  };
  return {
    slot(ms: number): LocalSlot {
      const local = ms + offsetAt(ms);
      const day = Math.floor(local / DAY_MS);
      return { day, hour: Math.floor((local - day * DAY_MS) / HOUR_MS), weekday: (((day + 3) % 7) + 7) % 7 };
    },
    /** "YYYY-MM-DD" of a local day number. */
    date(day: number): string {
      let s = dates.get(day);
      if (s === undefined) {
        s = new Date(day * DAY_MS).toISOString().slice(0, 10);
        dates.set(day, s);
      }
      return s;
    },
  };
}
