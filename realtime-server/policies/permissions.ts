import type { Role } from '../contract';

const STAFF: readonly Role[] = ['operator', 'admin'];
const ADMIN: readonly Role[] = ['admin'];

/**
 * Who may do what: the one table every route and socket handler checks. Public routes
 * (sign-in, health, config, the patient's location share, tracking links) have no entry
 * here; they check their own link or token.
 */
export const permissions = {
  'profile.read': { roles: STAFF, denied: 'Sign in as staff to see a profile' },
  'session.end': { roles: STAFF, denied: 'Sign in as staff to sign out' },
  'case.read': { roles: STAFF, denied: 'Only staff can read cases' },
  'case.create': { roles: STAFF, denied: 'Only staff can create cases' },
  'case.update': { roles: STAFF, denied: 'Only staff can update cases' },
  'case.delete': { roles: ADMIN, denied: 'Only admins can delete cases' },
  'case.timeline': { roles: ADMIN, denied: "Only admins can read a case's timeline" },
  'ambulance.read': { roles: STAFF, denied: 'Only staff can read ambulances' },
  'ambulance.create': { roles: ADMIN, denied: 'Only admins can add ambulances' },
  /** Operators may change the status only; the service refuses other fields for them. */
  'ambulance.update': { roles: STAFF, denied: 'Only staff can update ambulances' },
  'ambulance.delete': { roles: ADMIN, denied: 'Only admins can delete ambulances' },
  'ambulance.position': { roles: STAFF, denied: 'Only staff or the ambulance driver can send positions' },
  'user.list': { roles: ADMIN, denied: 'Only admins can list operators' },
  'user.lookup': { roles: STAFF, denied: 'Only staff can look up staff accounts' },
  'user.create': { roles: ADMIN, denied: 'Only admins can add operators' },
  'user.update': { roles: ADMIN, denied: 'Only admins can edit operators' },
  'user.delete': { roles: ADMIN, denied: 'Only admins can delete operators' },
  'tracking.initiate': { roles: STAFF, denied: 'Only staff can send tracking links' },
  'outbox.read': { roles: ADMIN, denied: 'Only admins can read the outbox' },
  'geocode.read': { roles: STAFF, denied: 'Only staff can look up place names' },
} as const satisfies Record<string, { roles: readonly Role[]; denied: string }>;

export type Permission = keyof typeof permissions;

export const may = (role: Role, permission: Permission) => permissions[permission].roles.includes(role);
