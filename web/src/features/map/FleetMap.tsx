import { useEffect, useMemo, useRef } from 'react';
import 'leaflet/dist/leaflet.css';
import './map.css';
import type L from 'leaflet';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { MapContainer, Marker, Popup, useMap } from 'react-leaflet';
import type { AmbulanceDto } from '../../api/contract';
import { queries } from '../../api/queries';
import { averageCentre, markerColor } from '../../domain/fleetRules';
import { AmbulanceStatusBadge } from '../shared/StatusBadges';
import { ConfiguredTileLayer } from './ConfiguredTileLayer';
import { markerIcon } from './markerIcons';
import { formatPositionTime } from './positionTime';

/** An ambulance whose location is known. */
export type LocatedAmbulance = AmbulanceDto & { location: NonNullable<AmbulanceDto['location']> };

/** SPEC §9: the default view, and the zoom once ambulances are on the map. */
export const DEFAULT_CENTRE: [number, number] = [20.5937, 78.9629];
const ZOOM_WITH_AMBULANCES = 10;
const ZOOM_WITHOUT = 6;

export interface MapFocus { id: number; at: number }

/**
 * The fleet on a Leaflet map. Markers move in place when positions change (live events
 * patch the cache); the view is centred on the average of the ambulances only once, on
 * the first data, so a user who pans keeps their view.
 */
export function FleetMap({ ambulances, focus }: { ambulances: LocatedAmbulance[]; focus: MapFocus | null }) {
  const centre = useMemo(() => averageCentre(ambulances.map((a) => a.location)), [ambulances]);
  // Only the first render's view is used by MapContainer.
  const initial = useRef(centre ? { center: centre, zoom: ZOOM_WITH_AMBULANCES } : { center: DEFAULT_CENTRE, zoom: ZOOM_WITHOUT });
  const markers = useRef(new Map<number, L.Marker>());

  return (
    <MapContainer center={initial.current.center} zoom={initial.current.zoom} className="ll-map" scrollWheelZoom>
      <ConfiguredTileLayer />
      <CentreOnFirstData centre={centre} alreadyCentred={initial.current.zoom === ZOOM_WITH_AMBULANCES} />
      <FocusMarker focus={focus} markers={markers.current} />
      {ambulances.map((a) => (
        <AmbulanceMarker key={a.id} ambulance={a} markers={markers.current} />
      ))}
    </MapContainer>
  );
}

function CentreOnFirstData({ centre, alreadyCentred }: { centre: [number, number] | null; alreadyCentred: boolean }) {
  const map = useMap();
  const done = useRef(alreadyCentred);
  useEffect(() => {
    if (done.current || !centre) return;
    done.current = true;
    map.setView(centre, ZOOM_WITH_AMBULANCES);
  }, [centre, map]);
  return null;
}

function FocusMarker({ focus, markers }: { focus: MapFocus | null; markers: Map<number, L.Marker> }) {
  const map = useMap();
  useEffect(() => {
    const marker = focus && markers.get(focus.id);
    if (!marker) return;
    map.setView(marker.getLatLng(), Math.max(map.getZoom(), 13));
    marker.openPopup();
  }, [focus, map, markers]);
  return null;
}

function AmbulanceMarker({ ambulance, markers }: { ambulance: LocatedAmbulance; markers: Map<number, L.Marker> }) {
  const { latitude, longitude } = ambulance.location;
  const position = useMemo<[number, number]>(() => [latitude, longitude], [latitude, longitude]);
  const id = ambulance.id;
  return (
    <Marker
      position={position}
      icon={markerIcon(markerColor(ambulance.status))}
      title={ambulance.license_plate}
      alt={`Ambulance ${ambulance.license_plate}`}
      ref={(marker) => {
        if (marker) markers.set(id, marker);
        else markers.delete(id);
      }}
    >
      <Popup>
        <AmbulancePopup ambulance={ambulance} />
      </Popup>
    </Marker>
  );
}

/** Popup: plate, status, place name, coordinates to 6 decimals, the position's own time. */
function AmbulancePopup({ ambulance }: { ambulance: LocatedAmbulance }) {
  const { latitude, longitude, placeName, updated_at } = ambulance.location;
  const place = usePopupPlace(latitude, longitude, placeName);
  return (
    <Box data-testid="ambulance-popup" data-ambulance-id={ambulance.id} sx={{ display: 'grid', gap: 0.5 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1 }}>
        <Typography sx={{ fontWeight: 800 }}>{ambulance.license_plate}</Typography>
        <AmbulanceStatusBadge status={ambulance.status} />
      </Box>
      <Typography variant="body2">{place}</Typography>
      <Typography variant="body2" sx={{ fontVariantNumeric: 'tabular-nums' }}>
        Latitude: {latitude.toFixed(6)}<br />
        Longitude: {longitude.toFixed(6)}
      </Typography>
      <Typography variant="caption" color="text.secondary">Last updated: {formatPositionTime(updated_at)}</Typography>
    </Box>
  );
}

/**
 * The place name the data carries, else the server geocoder's (asked only when a popup
 * opens); 'Location name not available' when neither knows one.
 */
function usePopupPlace(latitude: number, longitude: number, known: string | null) {
  const query = useQuery({ ...queries.placeName(latitude, longitude), enabled: !known });
  if (known) return known;
  const name = query.data;
  return name && name !== `${latitude}, ${longitude}` ? name : 'Location name not available';
}
