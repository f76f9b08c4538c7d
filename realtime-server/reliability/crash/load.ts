import { randomUUID } from 'node:crypto';
import { UNIT_STEPS } from '../../contract/callLife';
import type { CrashClient } from './client';
import type { CrashFigures } from './figures';
import type { Prng } from './plan';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What the load knows of the server's state: the active cases (with their ambulance), the free ambulances, the fleet. */
interface Board { active: Map<string, number | null>; free: Set<number>; fleet: number[] }

/**
 * One write, chosen at random: a dispatch (20 %), a close (15 %), a position (20 %), a unit's
 * step (15 %), a location share (15 %), a second unit added to a call (10 %), a tracking link (5 %).
 */
async function oneWrite(client: CrashClient, board: Board, rnd: Prng) {
  const { active, free, fleet } = board;
  const roll = rnd.next();
  const activeIds = [...active.keys()];
  if (roll < 0.2 || activeIds.length === 0) {
    const key = randomUUID();
    const marker = `crash-load ${key}`;
    const amb = free.size && rnd.next() < 0.7 ? rnd.pick([...free]) : undefined;
    if (amb !== undefined) free.delete(amb);
    const body = { to: 'patient@example.com', status: 'active', patientName: 'Crash Patient', description: marker, caseType: 'Hospitalization', ...(amb ? { license_plate: amb } : {}) };
    try {
      const res = await client.dispatch(key, body, marker);
      if (res.status === 201) active.set(res.body.caseId, amb ?? null);
    } catch (err) {
      client.inDoubt.push({ key, body, marker });
      throw err;
    }
  } else if (roll < 0.35) {
    const id = rnd.pick(activeIds);
    const status = rnd.pick(['closed', 'resolved']);
    active.delete(id);
    const res = await client.call<{ case: { version: number; ambulance_id: number | null } }>('PUT', `/api/cases/${id}`, { status });
    if (res.status === 200) {
      client.acknowledged({ kind: 'status', caseId: id, status, version: res.body.case.version });
      if (res.body.case.ambulance_id) free.add(res.body.case.ambulance_id);
    }
  } else if (roll < 0.55) {
    const ambulanceId = rnd.pick(fleet);
    const latitude = 17.3 + rnd.next() / 5;
    const longitude = 78.4 + rnd.next() / 5;
    const res = await client.call('POST', `/api/ambulances/${ambulanceId}/position`, { latitude, longitude, accuracy: 8 });
    if (res.status === 200) client.acknowledged({ kind: 'position', ambulanceId, latitude, longitude });
  } else if (roll < 0.7) {
    // A step forward or not (a 409 is an answer too); cleared resolves the case and frees its ambulance.
    const withAmbulance = activeIds.filter((id) => active.get(id));
    if (!withAmbulance.length) return;
    const id = rnd.pick(withAmbulance);
    const ambulanceId = active.get(id)!;
    const status = rnd.pick([...UNIT_STEPS]);
    const res = await client.call<{ assignment: { id: number } & Record<string, string | number | null> }>('POST', `/api/ambulances/${ambulanceId}/unit-status`, { status });
    if (res.status === 200) {
      client.acknowledged({ kind: 'unitStatus', assignmentId: res.body.assignment.id, step: status, at: String(res.body.assignment[`${status}_at`]) });
      if (status === 'cleared') {
        active.delete(id);
        free.add(ambulanceId);
      }
    }
  } else if (roll < 0.8) {
    // A second unit on a running call: it stays busy until the call closes (the load does not follow it, the audit does).
    const withAmbulance = activeIds.filter((id) => active.get(id));
    if (!withAmbulance.length || !free.size) return;
    const id = rnd.pick(withAmbulance);
    const amb = rnd.pick([...free]);
    free.delete(amb);
    const res = await client.call<{ assignment: { id: number } }>('POST', `/api/cases/${id}/assignments`, { ambulance_id: amb });
    if (res.status === 201) client.acknowledged({ kind: 'unitAdded', caseId: id, assignmentId: res.body.assignment.id, ambulanceId: amb });
  } else if (roll < 0.95) {
    const shareable = activeIds.filter((id) => client.locationTokens.has(id));
    if (!shareable.length) return;
    const id = rnd.pick(shareable);
    const res = await client.call<{ latitude: number; longitude: number }>('POST', `/api/location/${id}?t=${client.locationTokens.get(id)}`, { latitude: 17.3 + rnd.next() / 5, longitude: 78.4 + rnd.next() / 5, accuracy: 15 });
    if (res.status === 200) client.acknowledged({ kind: 'share', caseId: id, latitude: res.body.latitude, longitude: res.body.longitude });
  } else {
    const withAmbulance = activeIds.filter((id) => active.get(id));
    if (!withAmbulance.length) return;
    const id = rnd.pick(withAmbulance);
    const res = await client.call('POST', '/api/tracking/initiate', { caseId: id, ambulanceId: active.get(id) });
    if (res.status === 200) client.acknowledged({ kind: 'tracking', caseId: id });
  }
}

/** The write load of `workers` concurrent clients until `stop.stopped` or the server is gone (killed). */
export async function runLoad(client: CrashClient, figures: CrashFigures, rnd: Prng, workers: number, stop: { stopped: boolean }) {
  let board: Board;
  try {
    const { cases } = (await client.call<{ cases: { id: string; status: string; ambulance_id: number | null }[] }>('GET', '/api/cases')).body;
    const { ambulances } = (await client.call<{ ambulances: { id: number; status: string }[] }>('GET', '/api/ambulances')).body;
    board = {
      active: new Map(cases.filter((c) => c.status === 'active').map((c) => [c.id, c.ambulance_id])),
      free: new Set(ambulances.filter((a) => a.status === 'available').map((a) => a.id)),
      fleet: ambulances.map((a) => a.id),
    };
  } catch {
    return; // killed before the load began
  }
  await Promise.all(Array.from({ length: workers }, async () => {
    while (!stop.stopped) {
      try {
        await oneWrite(client, board, rnd);
        // A paced load: the SMTP listener (like real ones) takes ~0.1 s a message, so the
        // outbox can keep up with the e-mails the dispatches and tracking links queue.
        await sleep(rnd.int(5, 40));
      } catch {
        // The server is gone (killed): whatever was in flight is in doubt.
        figures.inDoubt += 1;
        return;
      }
    }
  }));
}
