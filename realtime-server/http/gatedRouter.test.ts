import { describe, expect, it } from 'vitest';
import { GatedRouter } from './gatedRouter';

describe('GatedRouter', () => {
  it('lists a route registered without an entry in `access`, so that the app refuses to start', () => {
    const router = new GatedRouter();
    router.get('/api/cases', (ctx) => { ctx.body = {}; });
    router.post('/api/not-declared', (ctx) => { ctx.body = {}; });
    expect(router.undeclared).toEqual(['POST /api/not-declared']);
  });

  it('puts the gate first on every route, before the route’s own middleware', () => {
    const router = new GatedRouter();
    const handler = () => undefined;
    router.put('/api/cases/:id', handler);
    const [layer] = router.stack;
    expect({ methods: layer.methods, path: layer.path, count: layer.stack.length, last: layer.stack[1] }).toEqual({ methods: ['PUT'], path: '/api/cases/:id', count: 2, last: handler });
  });
});
