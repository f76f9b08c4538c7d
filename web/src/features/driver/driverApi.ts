import { apiFetch } from '../../api/client';
import type { DriverFix } from './positionQueue';

/** The REST fallback: POST /api/ambulances/{id}/position?t=DRIVER_TOKEN (no sign-in; the link is the permission). */
export const postPosition = (ambulanceId: string, token: string, fix: DriverFix) =>
  apiFetch<{ ok: boolean; latest: boolean }>(
    `/api/ambulances/${encodeURIComponent(ambulanceId)}/position?t=${encodeURIComponent(token)}`,
    { method: 'POST', body: fix, auth: false },
  );

/** High accuracy, a fresh fix every time, 15 s for each. */
export const DRIVER_GEOLOCATION: PositionOptions = { enableHighAccuracy: true, maximumAge: 0, timeout: 15_000 };

/** localStorage when the browser lets the page use it. */
export function pageStorage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}
