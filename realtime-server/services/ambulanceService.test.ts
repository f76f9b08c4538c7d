import { describe, expect, it } from 'vitest';
import { dispatchCase, updateCase } from '../testing/dispatchHelpers';
import { useTestServer } from '../testing/testServer';
import { ambulanceService } from './ambulanceService';
import { DomainError } from './errors';

const s = useTestServer();

// A driver socket is disconnected when its case closes, but a position already on its way
// must be refused by the write itself, not only by the handshake.
describe('driver positions and the case they belong to', () => {
  it('are stored while the case is active and refused, with nothing stored, once it closes', async () => {
    const token = await s.signIn('operator');
    const caseId = await dispatchCase(s, token, 4);
    const driver = { type: 'driver' as const, caseId };
    expect(await ambulanceService.recordPosition(s.ctx, 4, { latitude: 17.4, longitude: 78.4 }, driver)).toEqual({ ok: true, latest: true });

    expect((await updateCase(s, token, caseId, { status: 'closed' })).status).toBe(200);
    const before = await s.ctx.db('ambulance_positions').where({ ambulance_id: 4 }).count({ n: '*' }).first();
    const refused = await ambulanceService.recordPosition(s.ctx, 4, { latitude: 17.5, longitude: 78.5 }, driver).catch((e) => e);
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({ status: 403, message: 'This driver link is no longer valid: its case is closed' });
    expect(await s.ctx.db('ambulance_positions').where({ ambulance_id: 4 }).count({ n: '*' }).first()).toEqual(before);
  });

  it('are refused for another ambulance than the case holds', async () => {
    const token = await s.signIn('operator');
    const caseId = await dispatchCase(s, token, 5);
    await expect(ambulanceService.recordPosition(s.ctx, 6, { latitude: 17.4, longitude: 78.4 }, { type: 'driver', caseId })).rejects.toMatchObject({ status: 403 });
  });
});
