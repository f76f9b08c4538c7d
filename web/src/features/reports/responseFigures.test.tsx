import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { type GroupReport, type IntervalFigures, INTERVALS, type PriorityReport } from '../../api/contract';
import { PriorityTiles } from './PriorityTiles';
import { ResponseChart } from './ResponseChart';

/** Both arrivals of a call with several units, per priority, in the tiles and the response section's tables. */
const none: IntervalFigures = { n: 0, mean_s: null, p50_s: null, p90_s: null, missing: 0 };
const fig = (n: number, p50: number, mean: number, p90: number): IntervalFigures => ({ n, mean_s: mean, p50_s: p50, p90_s: p90, missing: 0 });
function priority(p: 1 | 2 | 3 | 4, clock_stop: PriorityReport['clock_stop'], first: IntervalFigures, convey: IntervalFigures): PriorityReport {
  const intervals = { ...Object.fromEntries(INTERVALS.map((k) => [k, none])), response: clock_stop === 'first' ? first : convey, first_response: first, transport_response: convey } as PriorityReport['intervals'];
  return { priority: p, target_s: 900 * p, clock_stop, calls: first.n, intervals, response_within_target: { n: first.n, share: first.n ? 1 : null } };
}
const priorities = [
  priority(1, 'first', fig(1, 300, 300, 300), fig(1, 600, 600, 600)),
  priority(2, 'transport', fig(2, 420, 660, 900), fig(2, 900, 1200, 1500)),
  priority(3, 'transport', none, none),
  priority(4, 'transport', none, none),
];
const overall: GroupReport = { calls: 3, intervals: priorities[1].intervals, response_within_target: { n: 3, share: 1 } };
/** The markup's text, each element's apart (`|`), without the style sheets emotion writes inline. */
const text = (html: string) => html.replace(/<style[^>]*>.*?<\/style>/g, '').replace(/<[^>]+>/g, '|').replace(/\|+/g, '|');

describe('first on scene and able to convey on scene on the Reports screen', () => {
  it('tiles show both 90th percentiles per priority, labelled, and where the response clock stops', () => {
    const html = renderToStaticMarkup(<QueryClientProvider client={new QueryClient()}><PriorityTiles priorities={priorities} /></QueryClientProvider>);
    const t = text(html);
    expect(t).toContain('|First on scene, 90th|5:00|Able to convey on scene, 90th|10:00|Response clock stops at: First on scene|');
    expect(t).toContain('|First on scene, 90th|15:00|Able to convey on scene, 90th|25:00|Response clock stops at: Able to convey on scene (first on scene when nobody conveyed)|');
    expect(t).toContain('|First on scene, 90th|–|Able to convey on scene, 90th|–|');
  });

  it('the response section\'s tables give both arrivals per priority, and each as a row of every interval', () => {
    const t = text(renderToStaticMarkup(<ResponseChart priorities={priorities} overall={overall} />));
    expect(t).toContain('|Priority|Response clock stops at|First on scene: calls with it|First on scene: median|First on scene: mean|First on scene: 90th percentile|'
      + 'Able to convey on scene: calls with it|Able to convey on scene: median|Able to convey on scene: mean|Able to convey on scene: 90th percentile|');
    expect(t).toContain('|P1|First on scene|1|5:00|5:00|5:00|1|10:00|10:00|10:00|');
    expect(t).toContain('|P2|Able to convey on scene (first on scene when nobody conveyed)|2|7:00|11:00|15:00|2|15:00|20:00|25:00|');
    expect(t).toContain('|P3|Able to convey on scene (first on scene when nobody conveyed)|0|–|–|–|0|–|–|–|');
    expect(t).toContain('|First on scene|2|0|7:00|11:00|15:00|Able to convey on scene|2|0|15:00|20:00|25:00|');
  });
});
