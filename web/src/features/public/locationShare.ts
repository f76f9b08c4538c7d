import { apiFetch } from '../../api/client';
import { type LatLon, type LocationLinkState, MAX_ACCURACY_M, distanceMeters } from '../../api/contract';

/** The copy of a shared location kept in the browser under the case id (SPEC §3). */
export interface SavedLocation {
  latitude: number;
  longitude: number;
  updated_at: string;
}

/** Answer of POST /api/location/{caseId}. */
interface ShareAnswer extends SavedLocation {
  accuracy: number | null;
}

export const round8 = (value: number) => Number(value.toFixed(8));

/** High accuracy, 10 s time-out, no cached position (SPEC §9). */
export const GEOLOCATION_OPTIONS: PositionOptions = { enableHighAccuracy: true, timeout: 10_000, maximumAge: 0 };

/**
 * The location saved for a case, or null when there is none. Throws when something is
 * stored but cannot be read (storage blocked, or not a saved location).
 */
export function readSavedLocation(caseId: string, storage: Storage = localStorage): SavedLocation | null {
  const raw = storage.getItem(caseId);
  if (raw == null) return null;
  const value: unknown = JSON.parse(raw);
  const v = value as Partial<SavedLocation> | null;
  if (!v || typeof v !== 'object' || typeof v.latitude !== 'number' || typeof v.longitude !== 'number') {
    throw new Error('The stored location cannot be read');
  }
  return { latitude: v.latitude, longitude: v.longitude, updated_at: typeof v.updated_at === 'string' ? v.updated_at : '' };
}

/** Keeps the local copy; a full or blocked storage does not undo a successful share. */
export function saveLocation(caseId: string, latitude: number, longitude: number, storage: Storage = localStorage): SavedLocation {
  const saved: SavedLocation = { latitude: round8(latitude), longitude: round8(longitude), updated_at: new Date().toISOString() };
  try {
    storage.setItem(caseId, JSON.stringify(saved));
  } catch {
    // The server has the position; the copy only marks the page as shared on the next visit.
  }
  return saved;
}

export const geolocationSupported = () => typeof navigator !== 'undefined' && Boolean(navigator.geolocation);

export function currentPosition(): Promise<GeolocationPosition> {
  return new Promise((resolve, reject) => navigator.geolocation.getCurrentPosition(resolve, reject, GEOLOCATION_OPTIONS));
}

/** The patient's link: the case and the link's own token (`/location/{caseId}?t=TOKEN`), which is the permission to share. */
export interface LocationLink { caseId: string; token: string }

/** Sends the position to the case (no sign-in; the link's token is the permission). */
export function sendLocation(link: LocationLink, coords: Pick<GeolocationCoordinates, 'latitude' | 'longitude' | 'accuracy'>): Promise<ShareAnswer> {
  const body: { latitude: number; longitude: number; accuracy?: number } = { latitude: coords.latitude, longitude: coords.longitude };
  if (Number.isFinite(coords.accuracy)) body.accuracy = Math.min(Math.max(coords.accuracy, 0), MAX_ACCURACY_M);
  const url = `/api/location/${encodeURIComponent(link.caseId)}?t=${encodeURIComponent(link.token)}`;
  return apiFetch<ShareAnswer>(url, { method: 'POST', body, auth: false });
}

/** Whether the link can still share (GET, nothing else about the case): rejects with the server's 404 or 410 when it cannot. */
export function checkLink(link: LocationLink, signal?: AbortSignal): Promise<LocationLinkState> {
  const url = `/api/location/${encodeURIComponent(link.caseId)}?t=${encodeURIComponent(link.token)}`;
  return apiFetch<LocationLinkState>(url, { auth: false, signal });
}

/** A GeolocationPositionError (the browser refused or could not find a position). */
export const isGeolocationError = (error: unknown): error is GeolocationPositionError =>
  typeof error === 'object' && error !== null && 'code' in error && 'PERMISSION_DENIED' in error;

/** Continuous sharing: a new fix goes when the patient moved this far from the last one sent… */
export const MOVE_THRESHOLD_M = 10;
/** …or when this long has passed since the last send (so the dispatcher sees the fix is fresh). */
export const RESEND_AFTER_MS = 15_000;
/** A fix less precise than this is flagged as approximate. */
export const POOR_ACCURACY_M = 50;

export interface SentFix extends LatLon { at: number }

/** Whether a new fix is worth sending: the first one, a move of more than 10 m, or 15 s since the last send. */
export function shouldSend(lastSent: SentFix | null, fix: LatLon, now: number): boolean {
  if (!lastSent) return true;
  if (now - lastSent.at >= RESEND_AFTER_MS) return true;
  return distanceMeters(lastSent, fix) > MOVE_THRESHOLD_M;
}

export const isPoorAccuracy = (accuracy: number | null | undefined) => accuracy != null && Number.isFinite(accuracy) && accuracy > POOR_ACCURACY_M;
