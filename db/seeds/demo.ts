import type { Knex } from 'knex';
import { ambulanceRepository } from '../repositories/ambulanceRepository';
import { hospitalRepository } from '../repositories/hospitalRepository';
import { userRepository } from '../repositories/userRepository';
import { lockForTransaction } from '../advisoryLock';
import { isSqlite } from '../connection';
import { demoHistoryRepository } from '../repositories/demoHistoryRepository';
import { type DemoCapability, demoCreatedEntries, generateDemoHistory, mulberry32 } from './demoHistory';

const SEED_LOCK_KEY = 7_104_202;

/** Hyderabad, where the demo fleet stands (DESIGN.md §5). */
export const DEMO_CENTRE = { latitude: 17.385, longitude: 78.4867 };

export const DEMO_USERS = [
  { name: 'Admin', email: 'admin@lifeline.test', phone: '5550100', role: 'admin' as const, shift: 1, gender: 0, location: 'Control Room, Hyderabad', address: null },
  { name: 'Operator', email: 'operator@lifeline.test', phone: '5550101', role: 'operator' as const, shift: 1, gender: 1, location: 'Dispatch Desk 1, Hyderabad', address: null },
];

export const DEMO_AMBULANCES = [
  { license_plate: 'TS09 EA 1001', capability: 'als', driver_email: 'driver1@lifeline.test', latitude: 17.4126, longitude: 78.4482, place_name: 'Banjara Hills, Hyderabad' },
  { license_plate: 'TS09 EA 1002', capability: 'als', driver_email: 'driver2@lifeline.test', latitude: 17.4399, longitude: 78.4983, place_name: 'Secunderabad, Hyderabad' },
  { license_plate: 'TS09 EA 1003', capability: 'als', driver_email: 'driver3@lifeline.test', latitude: 17.3616, longitude: 78.4747, place_name: 'Charminar, Hyderabad' },
  { license_plate: 'TS09 EA 1004', capability: 'bls', driver_email: 'driver4@lifeline.test', latitude: 17.4483, longitude: 78.3915, place_name: 'HITEC City, Hyderabad' },
  { license_plate: 'TS09 EA 1005', capability: 'als', driver_email: 'driver5@lifeline.test', latitude: 17.4239, longitude: 78.4738, place_name: 'Hussain Sagar, Hyderabad' },
  { license_plate: 'TS09 EA 1006', capability: 'als', driver_email: 'driver6@lifeline.test', latitude: 17.3850, longitude: 78.4867, place_name: 'Abids, Hyderabad' },
  { license_plate: 'TS09 EA 1007', capability: 'bls', driver_email: 'driver7@lifeline.test', latitude: 17.4062, longitude: 78.5526, place_name: 'Uppal, Hyderabad' },
  { license_plate: 'TS09 EA 1008', capability: 'responder', driver_email: 'driver8@lifeline.test', latitude: 17.3924, longitude: 78.4676, place_name: 'Nampally, Hyderabad' },
];

/**
 * Four hospitals around the centre, open, each able to take different patients (contract
 * HOSPITAL_CAPABILITIES): a major centre for stroke, heart attack (PCI) and trauma to the north-west,
 * a women's and children's hospital to the north-east, a burns and trauma centre to the south-east,
 * and a general hospital in the old city near the centre; each list in HOSPITAL_CAPABILITIES' order,
 * as the API keeps it. Made-up names at real places: the demo's capabilities are not those of any
 * real hospital there.
 */
export const DEMO_HOSPITALS = [
  { name: 'Punjagutta Heart, Stroke and Trauma Centre', address: 'Punjagutta, Hyderabad', latitude: 17.4232, longitude: 78.4518, capabilities: ['stroke', 'pci', 'trauma'] },
  { name: "Secunderabad Women's and Children's Hospital", address: 'Secunderabad, Hyderabad', latitude: 17.4337, longitude: 78.5016, capabilities: ['paediatrics', 'maternity'] },
  { name: 'LB Nagar Burns and Trauma Centre', address: 'LB Nagar, Hyderabad', latitude: 17.3474, longitude: 78.5527, capabilities: ['trauma', 'burns'] },
  { name: 'Old City General Hospital', address: 'Afzal Gunj, Hyderabad', latitude: 17.3713, longitude: 78.4740, capabilities: [] },
] as const satisfies readonly { name: string; address: string; latitude: number; longitude: number; capabilities: readonly DemoCapability[] }[];

/** The demo history's seed: every first start makes the same calls (relative to its `now`). */
const HISTORY_SEED = 17;

export interface SeedOptions {
  /** Days of past calls to generate (demoHistory.ts); 0, the default, for none. */
  historyDays?: number;
  now?: Date;
}

/**
 * Demo data (the staff, the fleet and the hospitals), only into an empty database (no users and
 * no ambulances). Returns whether it seeded.
 * Several nodes may start at once on one PostgreSQL database: a transaction-level advisory lock
 * makes them check and seed one after the other (the second finds the data and does nothing).
 * With `historyDays`, the same transaction adds that many days of past, closed demo calls.
 */
export async function seedDemo(db: Knex, opts: SeedOptions = {}): Promise<boolean> {
  return db.transaction(async (trx) => {
    if (!isSqlite(db)) await lockForTransaction(trx, SEED_LOCK_KEY);
    if ((await userRepository.count(trx)) > 0 || (await ambulanceRepository.count(trx)) > 0) return false;
    for (const u of DEMO_USERS) await userRepository.insert(trx, u);
    const ambulances = [];
    for (const a of DEMO_AMBULANCES) ambulances.push({ ...a, id: await ambulanceRepository.insert(trx, { ...a, status: 'available' }) });
    const hospitals = [];
    for (const h of DEMO_HOSPITALS) hospitals.push({ ...h, id: await hospitalRepository.insert(trx, { ...h, status: 'open' }) });
    if (opts.historyDays) {
      const now = opts.now ?? new Date();
      const history = generateDemoHistory({
        now, days: opts.historyDays, ambulances, hospitals, random: mulberry32(HISTORY_SEED), centre: DEMO_CENTRE,
      });
      // On shift since the history began: otherwise unit hour utilisation would divide 30 days of calls by minutes of shift.
      await ambulanceRepository.setCreatedAt(trx, ambulances.map((a) => a.id), new Date(now.getTime() - opts.historyDays * 86_400_000).toISOString());
      await demoHistoryRepository.insert(trx, { ...history, events: demoCreatedEntries(history.cases) });
    }
    return true;
  });
}

/** The demo accounts that can still sign in with their seeded e-mail, name and phone (none when changed or deleted). */
export async function usableDemoAccounts(db: Knex): Promise<typeof DEMO_USERS> {
  const usable = [];
  for (const u of DEMO_USERS) {
    if (await userRepository.findForSignIn(db, u.email, u.name.toLowerCase(), u.phone)) usable.push(u);
  }
  return usable;
}
