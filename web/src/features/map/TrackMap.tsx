import { useEffect, useMemo, useRef } from 'react';
import 'leaflet/dist/leaflet.css';
import './map.css';
import L from 'leaflet';
import type { SharedPosition, TrailPoint } from '../../api/contract';
import { Circle, MapContainer, Marker, Polyline, Popup, useMap } from 'react-leaflet';
import { markerColor } from '../../domain/fleetRules';
import { PATIENT_COLOR, patientIcon } from '../public/patientMarker';
import { ConfiguredTileLayer } from './ConfiguredTileLayer';
import { markerIcon } from './markerIcons';
import { formatPositionTime } from './positionTime';

/** SPEC §9: about Hyderabad, zoom 13, until the ambulance's position is known. */
export const TRACK_DEFAULT_CENTRE: [number, number] = [17.4, 78.5];
const TRACK_ZOOM = 13;

export interface TrackedPoint { latitude: number; longitude: number; updated_at: string | null }

type LatLngTuple = [number, number];

const TRAIL_STYLE = { color: '#d32f2f', weight: 4, opacity: 0.55, lineJoin: 'round', lineCap: 'round' } as const;
const ACCURACY_STYLE = { color: PATIENT_COLOR, weight: 1, opacity: 0.6, fillColor: PATIENT_COLOR, fillOpacity: 0.12 } as const;

function useLatLng(p: { latitude: number; longitude: number } | null): LatLngTuple | null {
  const latitude = p?.latitude;
  const longitude = p?.longitude;
  return useMemo(() => (latitude != null && longitude != null ? [latitude, longitude] : null), [latitude, longitude]);
}

/**
 * The public tracking map: the ambulance's red marker with its recent trail, and the
 * patient's own location (blue, with its accuracy circle) when the link's case has one.
 * Plain markup in the popups: the page it is on has no MUI (src/track).
 */
export function TrackMap({ ambulanceId, point, trail = [], patient = null }: {
  ambulanceId: string;
  point: TrackedPoint | null;
  trail?: readonly TrailPoint[];
  patient?: SharedPosition | null;
}) {
  // Kept while the coordinates stay the same: a new object for the same place moves nothing.
  const position = useLatLng(point);
  const patientAt = useLatLng(patient);
  // The trail ends at the marker when the marker's position is the newest one.
  const updatedAt = point?.updated_at ?? null;
  const line = useMemo<LatLngTuple[]>(() => {
    const points: LatLngTuple[] = trail.map((p) => [p.latitude, p.longitude]);
    const last = trail.at(-1);
    const newer = !last || (updatedAt != null && updatedAt > last.recorded_at);
    if (position && newer && (!last || last.latitude !== position[0] || last.longitude !== position[1])) points.push(position);
    return points;
  }, [trail, position, updatedAt]);

  return (
    <MapContainer center={position ?? patientAt ?? TRACK_DEFAULT_CENTRE} zoom={TRACK_ZOOM} className="ll-map">
      <ConfiguredTileLayer />
      <KeepInView ambulance={position} patient={patientAt} />
      {line.length > 1 && <Polyline positions={line} pathOptions={TRAIL_STYLE} className="ll-track-trail" interactive={false} />}
      {patientAt && patient && (
        <>
          {patient.accuracy != null && patient.accuracy > 0 && (
            <Circle center={patientAt} radius={patient.accuracy} pathOptions={ACCURACY_STYLE} className="ll-patient-accuracy" interactive={false} />
          )}
          <Marker position={patientAt} icon={patientIcon()} title="Your location" alt="Your location" zIndexOffset={-100}>
            <Popup>
              <p className="ll-popup-title">Your location</p>
              {patient.accuracy != null && <p>Accuracy: ±{Math.round(patient.accuracy)} m</p>}
              <p>Shared: {formatPositionTime(patient.updated_at)}</p>
            </Popup>
          </Marker>
        </>
      )}
      {position && (
        <Marker position={position} icon={markerIcon(markerColor('busy'))} title={`Ambulance #${ambulanceId}`} alt={`Ambulance #${ambulanceId}`}>
          <Popup>
            <p className="ll-popup-title">Ambulance #{ambulanceId}</p>
            <p>Last Updated: {formatPositionTime(point?.updated_at)}</p>
          </Popup>
        </Marker>
      )}
    </MapContainer>
  );
}

/**
 * Alone, the ambulance is recentred on each new position (SPEC §9). With the patient on the
 * map, both are fitted in view once, and again only when one of them leaves the view, so a
 * viewer who pans or zooms is not pulled back on every position.
 */
function KeepInView({ ambulance, patient }: { ambulance: LatLngTuple | null; patient: LatLngTuple | null }) {
  const map = useMap();
  const fitted = useRef(false);
  useEffect(() => {
    if (!ambulance) return;
    if (!patient) {
      map.setView(ambulance, map.getZoom(), { animate: true });
      return;
    }
    const both = L.latLngBounds([ambulance, patient]);
    if (!fitted.current || !map.getBounds().pad(-0.05).contains(both)) {
      map.fitBounds(both, { padding: [72, 72], maxZoom: 16, animate: fitted.current });
      fitted.current = true;
    }
  }, [ambulance, patient, map]);
  return null;
}
