// The web's one door to the shared contract (the only server folder the web may import).
// Values come only from the light modules; the zod schemas stay on the server, so the
// browser bundle carries no validation library (types are free).
export * from '../../../realtime-server/contract/enums';
export * from '../../../realtime-server/contract/geo';
export * from '../../../realtime-server/contract/eta';
export * from '../../../realtime-server/contract/trail';
export * from '../../../realtime-server/contract/timeline';
export * from '../../../realtime-server/contract/callLife';
export * from '../../../realtime-server/contract/capability';
export * from '../../../realtime-server/contract/location';
export * from '../../../realtime-server/contract/reports';
export * from '../../../realtime-server/contract/zonedTime';
export * from '../../../realtime-server/contract/hospitals';
// The list query schemas are zod/mini (a few KB): the history screens validate their search params with them.
export * from '../../../realtime-server/contract/caseLists';
export type * from '../../../realtime-server/contract/auth';
export type * from '../../../realtime-server/contract/users';
export type * from '../../../realtime-server/contract/ambulances';
export type * from '../../../realtime-server/contract/cases';
export type * from '../../../realtime-server/contract/callLifeSchemas';
export type * from '../../../realtime-server/contract/capabilitySchemas';
export type * from '../../../realtime-server/contract/locationSchemas';
export type * from '../../../realtime-server/contract/tracking';
export type * from '../../../realtime-server/contract/events';
export type * from '../../../realtime-server/contract/queue';
export type * from '../../../realtime-server/contract/hospitalSchemas';
export type { ErrorBody } from '../../../realtime-server/contract/common';
