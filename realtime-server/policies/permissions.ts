import type { Role } from '../contract';

const STAFF: readonly Role[] = ['operator', 'admin'];
const ADMIN: readonly Role[] = ['admin'];

/**
 * What each staff role may do. `access` below says, for every route and socket event,
 * which of these permissions (and which link-token holders) it needs.
 */
export const permissions = {
  'profile.read': { roles: STAFF, denied: 'Sign in as staff to see a profile' },
  'session.end': { roles: STAFF, denied: 'Sign in as staff to sign out' },
  'case.read': { roles: STAFF, denied: 'Only staff can read cases' },
  'case.create': { roles: STAFF, denied: 'Only staff can create cases' },
  'case.update': { roles: STAFF, denied: 'Only staff can update cases' },
  /** Dispatching a waiting call, with a free unit or one diverted from a less urgent call. */
  'case.dispatch': { roles: STAFF, denied: 'Only staff can dispatch calls' },
  'case.delete': { roles: ADMIN, denied: 'Only admins can delete cases' },
  'case.timeline': { roles: ADMIN, denied: "Only admins can read a case's timeline" },
  'ambulance.read': { roles: STAFF, denied: 'Only staff can read ambulances' },
  'ambulance.create': { roles: ADMIN, denied: 'Only admins can add ambulances' },
  /** Operators may change the status only; the service refuses other fields for them. */
  'ambulance.update': { roles: STAFF, denied: 'Only staff can update ambulances' },
  'ambulance.delete': { roles: ADMIN, denied: 'Only admins can delete ambulances' },
  'ambulance.position': { roles: STAFF, denied: 'Only staff or the ambulance driver can send positions' },
  'ambulance.unitStatus': { roles: STAFF, denied: "Only staff or the ambulance driver can change a unit's status" },
  'case.correctTimes': { roles: STAFF, denied: "Only staff can correct an assignment's times" },
  'case.units': { roles: STAFF, denied: "Only staff can add or stand down a call's units" },
  'ambulance.backup': { roles: STAFF, denied: 'Only staff or the ambulance crew can ask for backup' },
  'user.list': { roles: ADMIN, denied: 'Only admins can list operators' },
  'user.lookup': { roles: STAFF, denied: 'Only staff can look up staff accounts' },
  'user.create': { roles: ADMIN, denied: 'Only admins can add operators' },
  'user.update': { roles: ADMIN, denied: 'Only admins can edit operators' },
  'user.delete': { roles: ADMIN, denied: 'Only admins can delete operators' },
  'user.signout': { roles: ADMIN, denied: 'Only admins can sign staff out' },
  'user.signinLimits': { roles: ADMIN, denied: "Only admins can see and clear a staff member's sign-in limits" },
  'tracking.initiate': { roles: STAFF, denied: 'Only staff can send tracking links' },
  'outbox.read': { roles: ADMIN, denied: 'Only admins can read the outbox' },
  'geocode.read': { roles: STAFF, denied: 'Only staff can look up place names' },
  'reports.read': { roles: STAFF, denied: 'Only staff can read reports' },
  'dispatch.suggest': { roles: STAFF, denied: 'Only staff can ask which ambulance is nearest' },
  'ambulance.device': { roles: ADMIN, denied: 'Only admins can give an ambulance a device identity' },
  'live.connect': { roles: STAFF, denied: 'Only staff can follow every live event' },
  'metrics.read': { roles: ADMIN, denied: 'Only admins (or the METRICS_TOKEN scraper) can read metrics' },
  'hospital.read': { roles: STAFF, denied: 'Only staff can read hospitals' },
  'hospital.manage': { roles: ADMIN, denied: 'Only admins can add, edit or delete hospitals' },
  'hospital.link': { roles: ADMIN, denied: "Only admins can make a hospital's link" },
  /** A unit's destination and pre-alert: staff, or the unit's own driver link. */
  'case.destination': { roles: STAFF, denied: "Only staff or the unit's crew can set its destination or send a pre-alert" },
} as const satisfies Record<string, { roles: readonly Role[]; denied: string }>;

export type Permission = keyof typeof permissions;

export const may = (role: Role, permission: Permission) => permissions[permission].roles.includes(role);

/** A signed-in staff member, as the row and field rules (`*Policy.ts`) judge them. */
export type StaffMember = { id: number; role: Role };

/**
 * Everyone who can reach the server: no credentials; the holder of a tracking link's viewer
 * token (watch one ambulance); the holder of a driver link's token (watch it and send its
 * positions); the holder of a hospital's link (its own page: units coming to it); a signed-in
 * operator; a signed-in admin.
 */
export const PRINCIPALS = ['anonymous', 'viewer', 'driver', 'hospital', 'operator', 'admin'] as const;
export type Principal = (typeof PRINCIPALS)[number];
export type LinkPrincipal = 'viewer' | 'driver' | 'hospital';

/**
 * One entry per REST route (`METHOD /path` as the router declares it) and per socket event
 * (`socket:event`; `socket:connect` is the handshake). An entry is either
 * - `anyone`: no session needed (sign-in, health, the patient's location link, whose own
 *   `?t=` token the case service checks: it answers 410 once the case is no longer active), or
 * - `permission`: the signed-in staff roles of that permission (401 without a session, 403
 *   for another role), and/or
 * - `links`: the link-token holders the handler accepts (`?t=` on REST, `auth` on sockets);
 *   the handler checks the token itself so that every bad link gets the same answer.
 * Each route's gate is made from its entry as the route is registered (http/gatedRouter.ts)
 * and runs before the route's own middleware; a route without an entry is refused.
 * `policies/roles.test.ts` walks every route and event here × every principal, and fails for
 * a route the router serves that is missing here.
 */
export interface AccessRule {
  anyone?: true;
  permission?: Permission;
  links?: readonly LinkPrincipal[];
  /** Also a request bearing the configured METRICS_TOKEN (a Prometheus scraper has no session). */
  scraper?: true;
}

export const access = {
  'GET /api/health': { anyone: true },
  'GET /api/config': { anyone: true },
  /** The API document (http/openapi.ts): routes, shapes and who may call them; nothing secret. */
  'GET /api/openapi.json': { anyone: true },
  'POST /api/auth/signin': { anyone: true },
  /** SIGNIN_CODE=email's second step: the challenge and the mailed code are the credentials. */
  'POST /api/auth/signin/verify': { anyone: true },
  'POST /api/auth/signout': { permission: 'session.end' },
  'GET /api/auth/profile': { permission: 'profile.read' },

  'GET /api/cases': { permission: 'case.read' },
  'GET /api/cases/:id': { permission: 'case.read' },
  'POST /api/cases': { permission: 'case.create' },
  'PUT /api/cases/:id': { permission: 'case.update' },
  /** A waiting call takes a free unit, or one diverted from a less urgent call (which goes back to the queue). */
  'POST /api/cases/:id/dispatch': { permission: 'case.dispatch' },
  'DELETE /api/cases/:id': { permission: 'case.delete' },
  'GET /api/cases/:id/timeline': { permission: 'case.timeline' },
  /** A dispatcher corrects one recorded time of an assignment, with a reason. */
  'POST /api/cases/:id/assignments/:assignmentId/corrections': { permission: 'case.correctTimes' },
  /** Several units on one call: another unit added, or one stood down before it reaches the scene. */
  'POST /api/cases/:id/assignments': { permission: 'case.units' },
  'POST /api/cases/:id/assignments/:assignmentId/cancel': { permission: 'case.units' },
  'POST /live-location': { permission: 'case.create' },
  'POST /api/tracking/initiate': { permission: 'tracking.initiate' },

  'GET /api/ambulances': { permission: 'ambulance.read' },
  'POST /api/ambulances': { permission: 'ambulance.create' },
  'PUT /api/ambulances/:id': { permission: 'ambulance.update' },
  'DELETE /api/ambulances/:id': { permission: 'ambulance.delete' },
  'GET /api/ambulances/:id/trail': { permission: 'ambulance.read' },
  /** Staff with a bearer session, or `?t=` with this ambulance's driver token while its case is active. */
  'POST /api/ambulances/:id/position': { permission: 'ambulance.position', links: ['driver'] },
  /** The unit's next step: staff, or this ambulance's driver link while its case is active. */
  'POST /api/ambulances/:id/unit-status': { permission: 'ambulance.unitStatus', links: ['driver'] },
  /** The crew asks for another unit on its call: staff, or this ambulance's driver link while it is on the call. */
  'POST /api/ambulances/:id/backup': { permission: 'ambulance.backup', links: ['driver'] },

  'GET /api/users/operators': { permission: 'user.list' },
  'GET /api/users/by-email': { permission: 'user.lookup' },
  'POST /api/users': { permission: 'user.create' },
  'PUT /api/users/:id': { permission: 'user.update' },
  'DELETE /api/users/:id': { permission: 'user.delete' },
  /** Ends every live session of a staff member of any role. */
  'POST /api/users/:id/signout': { permission: 'user.signout' },
  /** The account's sign-in counts (code mails, failures) and, DELETE, clearing them. */
  'GET /api/users/:id/signin-limits': { permission: 'user.signinLimits' },
  'DELETE /api/users/:id/signin-limits': { permission: 'user.signinLimits' },

  /** Response times, unit hour utilisation, demand and hospital handover over a period, and every assignment of it as CSV. */
  'GET /api/reports/response-times': { permission: 'reports.read' },
  'GET /api/reports/utilisation': { permission: 'reports.read' },
  'GET /api/reports/demand': { permission: 'reports.read' },
  'GET /api/reports/handover': { permission: 'reports.read' },
  'GET /api/reports/assignments.csv': { permission: 'reports.read' },

  'GET /api/outbox': { permission: 'outbox.read' },
  /** Prometheus text: admins, or `Authorization: Bearer <METRICS_TOKEN>` when that is configured. */
  'GET /api/metrics': { permission: 'metrics.read', scraper: true },
  'GET /api/geocode/reverse': { permission: 'geocode.read' },
  /** An address, plus code or "lat, lon" typed at intake; addresses go to the geocoder. */
  'GET /api/geocode/search': { permission: 'geocode.read' },
  /** Free ambulances ranked by estimated arrival at a point, or for a call (?case_id=) with the units that could be diverted to it. */
  'GET /api/dispatch/suggestions': { permission: 'dispatch.suggest' },
  /** A new device secret for the ambulance's GPS app or tracker (answered once; replaces the earlier one). */
  'POST /api/ambulances/:id/device': { permission: 'ambulance.device' },

  /** GPS apps and trackers: the device secret (`id`, or HTTP Basic's password for OwnTracks) is the credential, checked by the handler. */
  'GET /api/devices/osmand': { anyone: true },
  'POST /api/devices/osmand': { anyone: true },
  'POST /api/devices/owntracks': { anyone: true },

  /** The patient's share link: its own `?t=` token (the case id alone is not enough); only while the case is active (410 after). */
  'POST /api/location/:caseId': { anyone: true },
  /** The same link's state (usable, 404, 410) for the page at load; nothing else about the case. */
  'GET /api/location/:caseId': { anyone: true },
  /** `?t=` with a viewer or driver token of an active case holding this ambulance; every bad link is the same 404. */
  'GET /api/track/:ambulanceId': { links: ['viewer', 'driver'] },

  /** Hospitals (issue 30): staff read them (and rank them for a conveyance), admins manage them and make each one's page link. */
  'GET /api/hospitals': { permission: 'hospital.read' },
  /** Also the crew (`?t=` its driver link), choosing where to convey. */
  'GET /api/hospitals/suggestions': { permission: 'hospital.read', links: ['driver'] },
  'POST /api/hospitals': { permission: 'hospital.manage' },
  'PUT /api/hospitals/:id': { permission: 'hospital.manage' },
  'DELETE /api/hospitals/:id': { permission: 'hospital.manage' },
  'POST /api/hospitals/:id/link': { permission: 'hospital.link' },
  /** A unit's destination and its ATMIST pre-alert: staff, or `?t=` with that unit's driver link. */
  'POST /api/cases/:id/assignments/:assignmentId/destination': { permission: 'case.destination', links: ['driver'] },
  'POST /api/cases/:id/assignments/:assignmentId/prealert': { permission: 'case.destination', links: ['driver'] },
  /** A hospital's own page: `?t=` with its link; every bad link is the same 404. */
  'GET /api/hospital/:id': { links: ['hospital'] },
  'PUT /api/hospital/:id/status': { links: ['hospital'] },
  'POST /api/hospital/:id/prealerts/:prealertId/ack': { links: ['hospital'] },
  /** The hospital presses "Handover complete" for a unit conveyed to it (eTimes.12). */
  'POST /api/hospital/:id/handover/:assignmentId': { links: ['hospital'] },

  /** Staff sessions (rooms `staff`, admins also `admins`) and link holders (their ambulance's and case's rooms; a hospital's page its hospital's). */
  'socket:connect': { permission: 'live.connect', links: ['viewer', 'driver', 'hospital'] },
  /** The events a client sends: a driver link's position for its own ambulance, and its unit's next step. */
  'socket:ambulance.position': { links: ['driver'] },
  'socket:unit.status': { links: ['driver'] },
  'socket:unit.backup': { links: ['driver'] },
} as const satisfies Record<string, AccessRule>;

export type AccessKey = keyof typeof access;

/** The principals an entry admits. */
export function principalsOf(rule: AccessRule): Principal[] {
  if (rule.anyone) return [...PRINCIPALS];
  const roles: readonly Role[] = rule.permission ? permissions[rule.permission].roles : [];
  return PRINCIPALS.filter((p) => (p === 'operator' || p === 'admin' ? roles.includes(p) : rule.links?.includes(p as LinkPrincipal) ?? false));
}

/** Whether a principal may call a route or send a socket event (false for a key with no entry). */
export const mayCall = (key: string, principal: Principal) => {
  const rule = (access as Record<string, AccessRule>)[key];
  return rule ? principalsOf(rule).includes(principal) : false;
};

/** The entry of a route, with HEAD read as GET; undefined when none is declared. */
export const ruleFor = (method: string, path: string): AccessRule | undefined =>
  (access as Record<string, AccessRule>)[`${method === 'HEAD' ? 'GET' : method} ${path}`];
