import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { createHistoryChanges } from '../../../realtime/historyChanges';
import { HistoryChangesBanner, changesText } from './HistoryChangesBanner';
import { rangeText, totalText } from './HistoryPagination';

// Emotion writes its styles inline when rendered on a server: the text is what is outside <style>.
const textOf = (html: string) => html.replace(/<style[^>]*>[^<]*<\/style>/g, '').replace(/<[^>]+>/g, '');

describe('the history changes banner', () => {
  it('counts the calls the live cache noted, says so without a count after missed events, and is absent when none', () => {
    const store = createHistoryChanges();
    const banner = () => textOf(renderToStaticMarkup(<HistoryChangesBanner count={store.count()} onShow={() => {}} />));
    expect(banner()).toBe('');
    store.note('a');
    expect(banner()).toBe('1 new or changed call — show');
    store.note('b');
    store.note('a');
    expect(banner()).toBe('2 new or changed calls — show');
    store.reset();
    store.noteUnknown();
    expect(banner()).toBe('New or changed calls — show');
    store.reset();
    expect(banner()).toBe('');
  });

  it('words', () => {
    expect(changesText(12)).toBe('12 new or changed calls');
    expect(changesText(null)).toBe('New or changed calls');
  });
});

describe('the pagination label', () => {
  it('says the rows shown and the total, "10,000+" when the server stopped counting', () => {
    expect(rangeText({ page: 1, limit: 25, shown: 25, total: 240, totalExact: true })).toBe('26–50 of 240');
    expect(rangeText({ page: 0, limit: 25, shown: 0, total: 0, totalExact: true })).toBe('0–0 of 0');
    expect(totalText({ total: 10_000, totalExact: false })).toBe('10,000+');
  });
});
