import { useEffect } from 'react';
import 'leaflet/dist/leaflet.css';
import '../map/map.css';
import './intakeMap.css';
import { MapContainer, Marker, useMap, useMapEvents } from 'react-leaflet';
import type { LatLon } from '../../api/contract';
import { ConfiguredTileLayer } from '../map/ConfiguredTileLayer';
import { markerIcon } from '../map/markerIcons';

/** The intake pin's colour: the place the caller gave, apart from the patient's purple GPS badge. */
export const INTAKE_COLOR = '#c62828';
const START_ZOOM = 12;
const PLACE_ZOOM = 15;

/**
 * The small intake map (loaded on demand: Leaflet is most of its weight). A click drops the pin;
 * a place found by the search is brought into view. Without tiles (offline) it is plain grey
 * with the marker. It is the pointer's way to give a location: the keyboard's is the Location
 * box beside it (which takes "lat, lon"), so the map and its controls are out of the Tab order,
 * which goes from the Location box straight on to the patient's name.
 */
export default function IntakeMap({ centre, value, onPick, disabled }: {
  centre: LatLon;
  value: LatLon | null;
  onPick: (point: LatLon) => void;
  disabled: boolean;
}) {
  return (
    <MapContainer
      center={[value?.latitude ?? centre.latitude, value?.longitude ?? centre.longitude]}
      zoom={value ? PLACE_ZOOM : START_ZOOM}
      className="ll-map ll-intake-map"
      scrollWheelZoom={false}
      keyboard={false}
    >
      <ConfiguredTileLayer />
      <PinOnClick onPick={onPick} disabled={disabled} />
      <KeepInView point={value} />
      {value && <Marker position={[value.latitude, value.longitude]} icon={markerIcon(INTAKE_COLOR)} keyboard={false} title="Location of the call" />}
      <OutOfTabOrder />
    </MapContainer>
  );
}

/** The zoom buttons and the attribution's links stay clickable, but Tab passes them by. */
function OutOfTabOrder() {
  const map = useMap();
  useEffect(() => {
    const untab = () => {
      for (const el of map.getContainer().querySelectorAll<HTMLElement>('a[href], button, [tabindex]')) el.tabIndex = -1;
    };
    untab();
    // A layer's attribution arrives with the layer.
    map.on('layeradd', untab);
    return () => { map.off('layeradd', untab); };
  }, [map]);
  return null;
}

function PinOnClick({ onPick, disabled }: { onPick: (point: LatLon) => void; disabled: boolean }) {
  useMapEvents({
    click: (e) => {
      if (!disabled) onPick({ latitude: e.latlng.lat, longitude: e.latlng.lng });
    },
  });
  return null;
}

/** A place that is off the view (found by the search, or prefilled) is flown to; a pin just dropped is already in view and stays put. */
function KeepInView({ point }: { point: LatLon | null }) {
  const map = useMap();
  const lat = point?.latitude;
  const lon = point?.longitude;
  useEffect(() => {
    if (lat == null || lon == null) return;
    if (!map.getBounds().pad(-0.1).contains([lat, lon])) map.setView([lat, lon], Math.max(map.getZoom(), PLACE_ZOOM));
  }, [map, lat, lon]);
  return null;
}
