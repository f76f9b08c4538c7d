import { useEffect, type RefObject } from 'react';
import type { LatLng, LatLngExpression } from 'leaflet';

/** A Leaflet layer that has one point: a marker or a circle. */
export interface PointLayer {
  getLatLng(): LatLng;
  setLatLng(latlng: LatLngExpression): unknown;
}

export const GLIDE_MS = 800;

const easeInOut = (k: number) => (k < 0.5 ? 2 * k * k : 1 - (-2 * k + 2) ** 2 / 2);
/** Leaflet's own flag while a zoom animation runs (not in its typings). */
const isZooming = (layer: PointLayer) => Boolean((layer as { _map?: { _animatingZoom?: boolean } })._map?._animatingZoom);
const reducedMotion = () => typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;

/**
 * Moves a layer to a new point over ~800 ms with requestAnimationFrame: the same element
 * moves (no remount, no flicker) and the map view is never touched. A new point arriving
 * mid-way continues from where the layer is. Jumps at once when the tab is hidden or the
 * user asked for reduced motion. The layer must be created at its first point and never be
 * handed a new `position`/`center` prop (react-leaflet would jump it there).
 */
export function useGlide(layer: RefObject<PointLayer | null>, latitude: number, longitude: number, ms = GLIDE_MS) {
  useEffect(() => {
    const target = layer.current;
    if (!target) return;
    const from = target.getLatLng();
    if (from.lat === latitude && from.lng === longitude) return;
    if (ms <= 0 || document.hidden || reducedMotion()) {
      target.setLatLng([latitude, longitude]);
      return;
    }
    let frame = 0;
    const start = performance.now();
    const step = (t: number) => {
      const k = Math.min(1, (t - start) / ms);
      // While Leaflet animates a zoom it places layers itself: a move now would jump, so wait.
      if (k < 1 && isZooming(target)) {
        frame = requestAnimationFrame(step);
        return;
      }
      const e = easeInOut(k);
      target.setLatLng([from.lat + (latitude - from.lat) * e, from.lng + (longitude - from.lng) * e]);
      if (k < 1) frame = requestAnimationFrame(step);
    };
    frame = requestAnimationFrame(step);
    return () => cancelAnimationFrame(frame);
  }, [layer, latitude, longitude, ms]);
}
