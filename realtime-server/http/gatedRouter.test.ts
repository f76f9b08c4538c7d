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

  it('keeps what a route declares about itself beside it, out of its middleware (HEAD reads as GET)', () => {
    const router = new GatedRouter();
    const handler = () => undefined;
    const doc = { summary: 'Deletes an operator' };
    router.delete('/api/users/:id', doc, handler);
    router.get('/api/cases', handler);
    expect(router.stack.map((l) => l.stack.length)).toEqual([2, 2]);
    expect(router.stack[0].stack[1]).toBe(handler);
    expect([router.docOf('DELETE', '/api/users/:id'), router.docOf('GET', '/api/cases'), router.docOf('PUT', '/api/users/:id')]).toEqual([doc, undefined, undefined]);
    router.get('/api/health', { summary: 'Health' }, handler);
    expect(router.docOf('HEAD', '/api/health')).toEqual({ summary: 'Health' });
  });
});
