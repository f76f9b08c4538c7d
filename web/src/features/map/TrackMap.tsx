import { useEffect, useMemo } from 'react';
import 'leaflet/dist/leaflet.css';
import './map.css';
import Typography from '@mui/material/Typography';
import { MapContainer, Marker, Popup, useMap } from 'react-leaflet';
import { markerColor } from '../../domain/fleetRules';
import { ConfiguredTileLayer } from './ConfiguredTileLayer';
import { markerIcon } from './markerIcons';
import { formatPositionTime } from './positionTime';

/** SPEC §9: about Hyderabad, zoom 13, until the ambulance's position is known. */
export const TRACK_DEFAULT_CENTRE: [number, number] = [17.4, 78.5];
const TRACK_ZOOM = 13;

export interface TrackedPoint { latitude: number; longitude: number; updated_at: string | null }

/** The public tracking map: one red marker, recentred on each new position. */
export function TrackMap({ ambulanceId, point }: { ambulanceId: string; point: TrackedPoint | null }) {
  const position = useMemo<[number, number] | null>(
    () => (point ? [point.latitude, point.longitude] : null),
    [point?.latitude, point?.longitude], // eslint-disable-line react-hooks/exhaustive-deps
  );
  return (
    <MapContainer center={position ?? TRACK_DEFAULT_CENTRE} zoom={TRACK_ZOOM} className="ll-map">
      <ConfiguredTileLayer />
      {position && (
        <>
          <Recentre position={position} />
          <Marker position={position} icon={markerIcon(markerColor('busy'))} title={`Ambulance #${ambulanceId}`} alt={`Ambulance #${ambulanceId}`}>
            <Popup>
              <Typography sx={{ fontWeight: 800 }}>Ambulance #{ambulanceId}</Typography>
              <Typography variant="body2">Last Updated: {formatPositionTime(point?.updated_at)}</Typography>
            </Popup>
          </Marker>
        </>
      )}
    </MapContainer>
  );
}

function Recentre({ position }: { position: [number, number] }) {
  const map = useMap();
  useEffect(() => {
    map.setView(position, map.getZoom(), { animate: true });
  }, [position, map]);
  return null;
}
