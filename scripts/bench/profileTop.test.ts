import { describe, expect, it } from 'vitest';
import { selfTimes } from './profileTop';

const frame = (functionName: string, url: string) => ({ functionName, url, lineNumber: 0 });

describe('profileTop', () => {
  // route (ours) → validate (ours) → zod; route → knex; recursion in ours counted once; idle left out.
  const profile = {
    nodes: [
      { id: 1, callFrame: frame('(root)', ''), children: [2, 6] },
      { id: 2, callFrame: frame('route', 'file:///w/realtime-server/http/routes/a.ts'), children: [3, 5] },
      { id: 3, callFrame: frame('validate', 'file:///w/realtime-server/http/validate.ts'), children: [4, 7] },
      { id: 4, callFrame: frame('parse', 'file:///w/node_modules/zod/index.js'), children: [] },
      { id: 5, callFrame: frame('_query', 'file:///w/node_modules/knex/lib/x.js'), children: [] },
      { id: 6, callFrame: frame('(idle)', ''), children: [] },
      { id: 7, callFrame: frame('validate', 'file:///w/realtime-server/http/validate.ts'), children: [] },
    ],
    samples: [4, 4, 5, 6, 6, 6, 7, 2],
    timeDeltas: [1000, 1000, 3000, 9000, 9000, 9000, 1000, 1000],
  };

  it('ranks self time by package and inclusive time of our own functions', () => {
    const r = selfTimes(profile);
    expect(r.totalMs).toBe(7);
    expect(Object.fromEntries(r.areas.map((a) => [a.name, a.ms]))).toEqual({ knex: 3, zod: 2, 'realtime-server/http': 2 });
    const own = Object.fromEntries(r.own.map((f) => [f.name.split(' ')[0], f.ms]));
    expect(own).toEqual({ route: 7, validate: 3 });
  });
});
