import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ReportsFreshness, updatedText } from './ReportsFreshness';

const at = new Date(2026, 10, 24, 14, 5).getTime();

describe('Updated and Refresh on the Reports screen', () => {
  it('says when the figures were fetched, and Refresh is described by it', () => {
    expect(updatedText(at, 'en-GB')).toBe('Updated 14:05');
    const html = renderToStaticMarkup(<ReportsFreshness updatedAt={at} fetching={false} onRefresh={() => Promise.resolve(true)} />);
    expect(html).toMatch(/id="reports-updated"[^>]*>Updated \d{1,2}:05/);
    expect(html).toMatch(/<button[^>]*aria-describedby="reports-updated"[^>]*>Refresh<\/button>/);
    // Never disabled while fetching: the focus would fall to the page.
    const busy = renderToStaticMarkup(<ReportsFreshness updatedAt={at} fetching onRefresh={() => Promise.resolve(true)} />);
    expect(busy).not.toMatch(/<button[^>]*disabled/);
  });

  it('says nothing of a time before anything has loaded', () => {
    const html = renderToStaticMarkup(<ReportsFreshness updatedAt={0} fetching onRefresh={() => Promise.resolve(true)} />);
    expect(html).not.toContain('Updated');
    expect(html).not.toContain('aria-describedby');
  });
});
