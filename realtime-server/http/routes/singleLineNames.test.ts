import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectNoWrite } from '../../testing/assertions';
import { casePayload, dispatchCase } from '../../testing/dispatchHelpers';
import { useTestServer } from '../../testing/testServer';

/**
 * Names are single-line: a line break of any kind in a patient's or a user's name would reach
 * the plain-text e-mails as a line of its own ("Bcc: …"). Every such name is refused with 400
 * naming the field, and nothing is written. Descriptions may keep line breaks (the mails
 * indent them: jobs/hostileMail.test.ts).
 */
const BREAKS: [string, string][] = [
  ['LF', '\n'], ['CR', '\r'], ['CR LF', '\r\n'], ['NEL (U+0085)', '\u0085'], ['LINE SEPARATOR (U+2028)', '\u2028'], ['PARAGRAPH SEPARATOR (U+2029)', '\u2029'],
];
const hostile = (br: string) => `Pat Doe${br}Bcc: x@y.example`;

const s = useTestServer();
let operator: string;
let admin: string;
let caseId: string;
let operatorId: number;
beforeAll(async () => {
  [operator, admin] = await Promise.all([s.signIn('operator'), s.signIn('admin')]);
  caseId = await dispatchCase(s, operator, 1);
  operatorId = (await s.ctx.db('users').where({ role: 'operator' }).first()).id;
});

const userForm = (name: string) => ({ name, email: 'one.line@lifeline.test', role: 'operator', shift: 1, gender: 0, phone: '5550177' });

describe.each(BREAKS)('a name with a %s', (_what, br) => {
  it('POST /live-location: patientName is refused', async () => {
    await expectNoWrite(s.ctx.db, async () =>
      expectError(await s.api('POST', '/live-location', { token: operator, body: casePayload(2, { patientName: hostile(br) }) }), 400, 'patientName: must be a single line'));
  });

  it('POST /api/cases: patientName is refused', async () => {
    const body = { patientName: hostile(br), email: 'p@example.com', description: 'Injury', status: 'active', ambulance_id: 2 };
    await expectNoWrite(s.ctx.db, async () =>
      expectError(await s.api('POST', '/api/cases', { token: operator, body }), 400, 'patientName: must be a single line'));
  });

  it('PUT /api/cases/{id}: patientName and patient_name are refused', async () => {
    await expectNoWrite(s.ctx.db, async () => {
      expectError(await s.api('PUT', `/api/cases/${caseId}`, { token: operator, body: { patientName: hostile(br) } }), 400, 'patientName: must be a single line');
      expectError(await s.api('PUT', `/api/cases/${caseId}`, { token: operator, body: { patient_name: hostile(br) } }), 400, 'patient_name: must be a single line');
    });
  });

  it("POST and PUT /api/users: a user's name is refused", async () => {
    await expectNoWrite(s.ctx.db, async () => {
      expectError(await s.api('POST', '/api/users', { token: admin, body: userForm(hostile(br)) }), 400, 'name: must be a single line');
      expectError(await s.api('PUT', `/api/users/${operatorId}`, { token: admin, body: { ...userForm(hostile(br)), email: 'operator@lifeline.test' } }), 400, 'name: must be a single line');
    });
  });
});

describe('what is still accepted', () => {
  it('a one-line name that only looks like a header, and a description over several lines', async () => {
    const res = await s.api('POST', '/live-location', { token: operator, body: casePayload(3, { patientName: 'Bcc: x@y.example', description: 'Chest pain\nSubject: x\n\nconscious' }) });
    expect(res.status).toBe(201);
    const row = await s.ctx.db('cases').where({ id: res.body.caseId }).first();
    expect(row).toMatchObject({ patient_name: 'Bcc: x@y.example', description: 'Chest pain\nSubject: x\n\nconscious' });
  });
});
