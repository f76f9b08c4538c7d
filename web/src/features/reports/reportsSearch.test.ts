import { describe, expect, it } from 'vitest';
import { choiceOf, parseReportsSearch, searchOf } from './reportsSearch';

const TODAY = '2026-11-26';

describe('the reports screen\'s search params', () => {
  it('keeps a preset by name, and a custom period with its days', () => {
    expect(parseReportsSearch({ period: 'last7' })).toEqual({ period: 'last7' });
    expect(parseReportsSearch({ period: 'custom', first: '2026-10-01', last: '2026-10-31' })).toEqual({ period: 'custom', first: '2026-10-01', last: '2026-10-31' });
  });

  it('leaves Last 30 days (the default) out of the URL', () => {
    expect(parseReportsSearch({})).toEqual({});
    expect(parseReportsSearch({ period: 'last30' })).toEqual({});
    expect(searchOf(choiceOf({}, TODAY))).toEqual({});
  });

  it('falls back to the default for garbage, field by field', () => {
    expect(parseReportsSearch({ period: 'forever' })).toEqual({});
    expect(parseReportsSearch({ period: 7 })).toEqual({});
    expect(parseReportsSearch({ period: 'custom', first: 'yesterday', last: '2026-02-31' })).toEqual({ period: 'custom' });
    expect(parseReportsSearch({ period: 'custom', first: 2026, last: '2026-11-02' })).toEqual({ period: 'custom', last: '2026-11-02' });
  });

  it('has days only with Custom', () => {
    expect(parseReportsSearch({ period: 'month', first: '2026-10-01', last: '2026-10-31' })).toEqual({ period: 'month' });
    expect(parseReportsSearch({ first: '2026-10-01' })).toEqual({});
  });

  it('overrides every refused param: the router lays the validated search over the raw one', () => {
    const raw = { period: 'forever', first: '2026-10-01', last: 'soon' };
    expect({ ...raw, ...parseReportsSearch(raw) }).toEqual({});
    const custom = { period: 'custom', first: '2026-10-01', last: 'soon' };
    expect({ ...custom, ...parseReportsSearch(custom) }).toEqual({ period: 'custom', first: '2026-10-01' });
  });

  it('shows a preset\'s days counted from today, Custom\'s as written (an unwritten day empty)', () => {
    expect(choiceOf({ period: 'last7' }, TODAY)).toEqual({ preset: 'last7', first: '2026-11-20', last: TODAY });
    expect(choiceOf({}, TODAY)).toEqual({ preset: 'last30', first: '2026-10-28', last: TODAY });
    expect(choiceOf({ period: 'custom', first: '2026-10-01' }, TODAY)).toEqual({ preset: 'custom', first: '2026-10-01', last: '' });
  });

  it('writes a choice as a search the route reads back as the same choice', () => {
    for (const choice of [
      { preset: 'today' as const, first: TODAY, last: TODAY },
      { preset: 'month' as const, first: '2026-11-01', last: TODAY },
      { preset: 'custom' as const, first: '2026-09-01', last: '2026-09-30' },
      { preset: 'custom' as const, first: '', last: '2026-09-30' },
    ]) expect(choiceOf(parseReportsSearch(searchOf(choice)), TODAY)).toEqual(choice);
  });
});
