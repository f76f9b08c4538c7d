// Local days and hours in an IANA time zone, with nothing but Intl (zod-free: the web uses it too).

const formats = new Map<string, Intl.DateTimeFormat>();
function format(tz: string) {
  let f = formats.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz, hourCycle: 'h23', weekday: 'short', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
    });
    formats.set(tz, f);
  }
  return f;
}

/** Whether Intl knows the zone (an IANA name such as "Asia/Kolkata", or "UTC"). */
export function isTimeZone(tz: string): boolean {
  try {
    format(tz);
    return true;
  } catch {
    return false;
  }
}

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

export interface LocalParts { year: number; month: number; day: number; hour: number; minute: number; second: number; /** 0 Monday … 6 Sunday */ weekday: number }

/** The wall-clock reading of an instant in a zone. */
export function localParts(utcMs: number, tz: string): LocalParts {
  const parts = format(tz).formatToParts(new Date(utcMs));
  const get = (t: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === t)!.value;
  return {
    year: Number(get('year')), month: Number(get('month')), day: Number(get('day')),
    hour: Number(get('hour')), minute: Number(get('minute')), second: Number(get('second')),
    weekday: WEEKDAYS.indexOf(get('weekday')),
  };
}

/** How far the zone's wall clock is ahead of UTC at an instant, in milliseconds. */
export function tzOffsetMs(utcMs: number, tz: string): number {
  const p = localParts(utcMs, tz);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - Math.floor(utcMs / 1000) * 1000;
}

/** The instant a local date's midnight begins in the zone (a day starting in a DST gap begins at its first valid time). */
export function zonedMidnight(year: number, month: number, day: number, tz: string): number {
  const guess = Date.UTC(year, month - 1, day);
  const first = guess - tzOffsetMs(guess, tz);
  const second = guess - tzOffsetMs(first, tz);
  return second;
}

/** "YYYY-MM-DD" of an instant in the zone. */
export function localDate(utcMs: number, tz: string): string {
  const p = localParts(utcMs, tz);
  return `${p.year}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`;
}
