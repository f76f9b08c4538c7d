import { describe, expect, it } from 'vitest';
import { reportPeriodQuery } from '../../api/queries';
import { localDate } from '../../api/contract';
import { addDays, customProblem, periodOf, periodText, presetDays } from './reportPeriod';

describe('report periods', () => {
  it('counts days on the calendar, across month, year and daylight-saving changes', () => {
    expect(addDays('2026-11-30', 1)).toBe('2026-12-01');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2026-03-29', 1)).toBe('2026-03-30'); // Europe's spring change
  });

  it('presets end today and begin as their name says', () => {
    expect(presetDays('today', '2026-11-26')).toEqual({ first: '2026-11-26', last: '2026-11-26' });
    expect(presetDays('last7', '2026-11-26')).toEqual({ first: '2026-11-20', last: '2026-11-26' });
    expect(presetDays('last30', '2026-11-26')).toEqual({ first: '2026-10-28', last: '2026-11-26' });
    expect(presetDays('month', '2026-11-26')).toEqual({ first: '2026-11-01', last: '2026-11-26' });
  });

  it('asks for the day after the last one shown (the server’s period is half-open)', () => {
    const p = periodOf('2026-11-01', '2026-11-30', 'Asia/Kolkata');
    expect(p).toEqual({ from: '2026-11-01', to: '2026-12-01', tz: 'Asia/Kolkata' });
    expect(reportPeriodQuery(p)).toBe('from=2026-11-01&to=2026-12-01&tz=Asia%2FKolkata');
    expect(periodText(p, 'en-GB')).toBe('1 Nov 2026 – 30 Nov 2026');
    expect(periodText(periodOf('2026-11-26', '2026-11-26', 'UTC'), 'en-GB')).toBe('26 Nov 2026');
  });

  it('says what is wrong with a custom choice', () => {
    expect(customProblem('2026-11-01', '2026-11-01')).toBeNull();
    expect(customProblem('', '2026-11-01')).toBe('Choose both a first and a last day');
    expect(customProblem('2026-11-02', '2026-11-01')).toBe('The first day must not be after the last day');
    expect(customProblem('2025-01-01', '2026-11-01')).toMatch(/at most 400 days/);
  });

  it('reads today in the zone asked for, not in UTC', () => {
    const lateEvening = Date.parse('2026-11-26T20:00:00Z');
    expect(localDate(lateEvening, 'UTC')).toBe('2026-11-26');
    expect(localDate(lateEvening, 'Asia/Kolkata')).toBe('2026-11-27');
  });
});
