import {
  CAPABILITY_LABELS, type Capability, type DispatchPlan, type DispatchPlanUnit, type DispatchSuggestion, type DispatchSuggestionsResponse, type LatLon,
  type Priority, type StaleThresholds, type TransportCapability, arrivalMinutes, arrivalSeconds, canTransport, distanceMeters, meetsNeed, staleAfterMs,
} from '../contract';
import { type CandidateRow, type TripRow, arrivalRepository } from '../../db/repositories/arrivalRepository';
import type { ServiceContext } from './context';

/** How arrivals are estimated: straight-line metres × road_factor at speed_kmh (docs/user-guide.md "How arrival is estimated"). */
export type EtaModel = DispatchSuggestionsResponse['model'];

/** Without calibration: DOMAIN.md §3's common factor for the extra length of roads over the straight line. */
export const DEFAULT_ROAD_FACTOR = 1.3;
/** Fewer finished trips than this and a median says more about the few crews than about the city's roads. */
export const MIN_CALIBRATION_TRIPS = 20;
/** A shorter trip is mostly the crew setting off and parking: its speed means little. */
export const MIN_TRIP_S = 60;
/** Calibration reads the newest trips of this window, at most CALIBRATION_MAX_TRIPS: roads and fleets change. */
export const CALIBRATION_WINDOW_DAYS = 90;
export const CALIBRATION_MAX_TRIPS = 500;
/** Bounds a calibrated model stays within, whatever a few odd trips (GPS jumps, a crew waiting at a gate) say. */
export const ROAD_FACTOR_BOUNDS = [1, 3] as const;
export const SPEED_BOUNDS_KMH = [10, 90] as const;
/** The model is read on every suggestion and changes slowly: each node reads the trips at most this often. */
export const MODEL_CACHE_MS = 60_000;

const clamp = (v: number, [lo, hi]: readonly [number, number]) => Math.min(hi, Math.max(lo, v));
const round = (v: number, digits: number) => Math.round(v * 10 ** digits) / 10 ** digits;

/** The middle value (the mean of the two middle ones for an even count); NaN for none. */
export function median(values: number[]): number {
  if (!values.length) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** A finished trip as calibration reads it: recorded at on_scene (assignmentService). */
export type Trip = Pick<TripRow, 'en_route_at' | 'on_scene_at' | 'travel_distance_m' | 'travel_straight_m'>;

/**
 * The model from the centre's own trips: with at least MIN_CALIBRATION_TRIPS usable ones (both
 * distances, at least MIN_TRIP_S en route), the median driven/straight ratio and the median
 * driven speed, each clamped; otherwise the defaults, uncalibrated. `trips` counts the usable ones.
 */
export function calibrate(trips: Trip[], defaultSpeedKmh: number): EtaModel {
  const usable = trips.flatMap((t) => {
    const driven = Number(t.travel_distance_m);
    const straight = Number(t.travel_straight_m);
    const seconds = (Date.parse(t.on_scene_at) - Date.parse(t.en_route_at)) / 1000;
    if (t.travel_distance_m == null || t.travel_straight_m == null || !(driven > 0) || !(straight > 0) || !(seconds >= MIN_TRIP_S)) return [];
    return [{ factor: driven / straight, kmh: (driven / seconds) * 3.6 }];
  });
  if (usable.length < MIN_CALIBRATION_TRIPS) {
    return { road_factor: DEFAULT_ROAD_FACTOR, speed_kmh: defaultSpeedKmh, calibrated: false, trips: usable.length };
  }
  return {
    road_factor: round(clamp(median(usable.map((u) => u.factor)), ROAD_FACTOR_BOUNDS), 3),
    speed_kmh: round(clamp(median(usable.map((u) => u.kmh)), SPEED_BOUNDS_KMH), 1),
    calibrated: true,
    trips: usable.length,
  };
}

/** A free ambulance with a known position. */
export type Candidate = Pick<CandidateRow, 'id' | 'license_plate' | 'capability' | 'latitude' | 'longitude' | 'position_at' | 'position_source'>;

/** What a unit is as a suggestion shows it: its capability and whether it meets `need` (without one, whether it conveys). */
export const unitFit = (capability: string, need: TransportCapability | null) => ({
  capability: capability as Capability,
  can_transport: canTransport(capability),
  meets_need: need ? meetsNeed(capability, need) : canTransport(capability),
});

/**
 * Candidates by estimated arrival at `target`, every fresh position before every stale one (as
 * Resgrid's NearestUnitService does: a stale fix may be far from where the ambulance is now), and
 * among each, the units that meet `need` before those that do not (CoCeSo #95: under stress the
 * nearer unit of the right type is missed). Stale is older than its source's threshold; ties go to
 * the lower id, so the order is stable.
 */
export function rankSuggestions(
  candidates: Candidate[], target: LatLon, model: EtaModel, o: { now: number; staleAfterS: StaleThresholds; need?: TransportCapability | null },
): DispatchSuggestion[] {
  return candidates
    .map((c) => {
      const distance = distanceMeters({ latitude: Number(c.latitude), longitude: Number(c.longitude) }, target);
      const ageMs = Math.max(0, o.now - Date.parse(c.position_at));
      return {
        ambulance_id: c.id,
        license_plate: c.license_plate,
        distance_m: Math.round(distance),
        eta_s: arrivalSeconds(distance, model),
        position_age_s: Math.floor(ageMs / 1000),
        stale: ageMs > staleAfterMs(c.position_source, o.staleAfterS),
        ...unitFit(c.capability, o.need ?? null),
      };
    })
    .sort((a, b) => Number(a.stale) - Number(b.stale) || Number(b.meets_need) - Number(a.meets_need)
      || a.eta_s - b.eta_s || a.distance_m - b.distance_m || a.ambulance_id - b.ambulance_id);
}

/** As every screen words an arrival (contract arrivalMinutes: rounded up), so the plan's words match the list beside it. */
const minutes = (s: number | null) => (s == null ? 'no estimate yet' : `~${arrivalMinutes(s)} min`);
const kind = (u: DispatchPlanUnit) => (u.can_transport ? `ambulance ${u.license_plate}` : `car ${u.license_plate}`);
const planUnit = (s: DispatchPlanUnit): DispatchPlanUnit => ({
  ambulance_id: s.ambulance_id, license_plate: s.license_plate, capability: s.capability, can_transport: s.can_transport, meets_need: s.meets_need, stale: s.stale, eta_s: s.eta_s,
});
const quickest = (list: DispatchPlanUnit[]) => {
  const fresh = list.filter((u) => !u.stale);
  const pool = fresh.length ? fresh : list;
  return [...pool].sort((a, b) => (a.eta_s ?? Infinity) - (b.eta_s ?? Infinity) || a.ambulance_id - b.ambulance_id)[0] ?? null;
};

/**
 * The "send both" a dispatcher would choose (contract DispatchPlan), from suggestions made for
 * `need`: the quickest unit of any kind; when it cannot convey or does not meet the need, also the
 * quickest that does (else the quickest that conveys at all). Fresh positions are preferred.
 */
export function planDispatch(suggestions: DispatchPlanUnit[], priority: Priority, need: TransportCapability): DispatchPlan {
  const first = quickest(suggestions);
  const label = need.toUpperCase();
  if (!first) return { priority, need, first: null, transport: null, send: [], reason: 'No unit is free' };
  const cap = (u: DispatchPlanUnit) => CAPABILITY_LABELS[u.capability];
  if (first.meets_need) {
    return { priority, need, first: planUnit(first), transport: null, send: [first.ambulance_id], reason: `${cap(first)} ${first.license_plate}, ${minutes(first.eta_s)}: meets ${label}` };
  }
  const others = suggestions.filter((u) => u.ambulance_id !== first.ambulance_id);
  const transport = quickest(others.filter((u) => u.meets_need)) ?? quickest(others.filter((u) => u.can_transport));
  if (!transport) {
    return { priority, need, first: planUnit(first), transport: null, send: [first.ambulance_id], reason: `${kind(first)}, ${minutes(first.eta_s)}; no free unit can convey at ${label}` };
  }
  const short = transport.meets_need ? '' : ` (does not meet ${label}; none free does)`;
  return {
    priority, need, first: planUnit(first), transport: planUnit(transport), send: [first.ambulance_id, transport.ambulance_id],
    reason: `${kind(first)}, ${minutes(first.eta_s)}; ${kind(transport)}, ${minutes(transport.eta_s)}${short}: send both`,
  };
}

/** What an arrival records for calibration; null when the fixes cannot say. */
export interface TripTravel { travel_distance_m: number; travel_straight_m: number }

/**
 * The trip from the fixes taken between en route and on scene (oldest first): the metres along
 * them, and the straight line from the first to the scene (the case's best known location at
 * arrival, else the last fix). Fewer than two fixes say nothing about the roads: null.
 */
export function tripTravel(fixes: LatLon[], scene: LatLon | null): TripTravel | null {
  if (fixes.length < 2) return null;
  let driven = 0;
  for (let i = 1; i < fixes.length; i++) driven += distanceMeters(fixes[i - 1], fixes[i]);
  const straight = distanceMeters(fixes[0], scene ?? fixes[fixes.length - 1]);
  return { travel_distance_m: round(driven, 1), travel_straight_m: round(straight, 1) };
}

/** Each node's model, per database (a test process runs several servers), with when it was read. */
const modelCache = new WeakMap<object, { at: number; model: Promise<EtaModel> }>();

/** Drops this node's cached model: the next suggestion reads the trips again (tests; nothing else needs it). */
export const forgetEtaModel = (ctx: Pick<ServiceContext, 'db'>) => modelCache.delete(ctx.db);

/** The model in force, read from the trips at most every MODEL_CACHE_MS on this node. */
export function etaModel(ctx: Pick<ServiceContext, 'db' | 'config'>, now = Date.now()): Promise<EtaModel> {
  const cached = modelCache.get(ctx.db);
  if (cached && now - cached.at < MODEL_CACHE_MS) return cached.model;
  const since = new Date(now - CALIBRATION_WINDOW_DAYS * 86_400_000).toISOString();
  const model = arrivalRepository.recentTrips(ctx.db, since, CALIBRATION_MAX_TRIPS).then((trips) => calibrate(trips, ctx.config.etaSpeedKmh));
  modelCache.set(ctx.db, { at: now, model });
  // A failed read is not kept: the next suggestion tries again.
  model.catch(() => { if (modelCache.get(ctx.db)?.model === model) modelCache.delete(ctx.db); });
  return model;
}

export const dispatchSuggestionService = {
  /**
   * GET /api/dispatch/suggestions: the free ambulances with a known position, by estimated arrival at
   * `target`, those meeting the priority's need first, and the plan for that priority.
   */
  async suggest(ctx: ServiceContext, target: LatLon, priority?: Priority, now = Date.now()): Promise<DispatchSuggestionsResponse> {
    const [model, candidates] = await Promise.all([etaModel(ctx, now), arrivalRepository.freeWithPosition(ctx.db)]);
    const need = priority ? ctx.config.priorityNeeds[priority] : null;
    const suggestions = rankSuggestions(candidates, target, model, { now, staleAfterS: ctx.config.staleAfterS, need });
    return { suggestions, model, plan: priority && need ? planDispatch(suggestions, priority, need) : null };
  },
};
