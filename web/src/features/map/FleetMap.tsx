import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import 'leaflet/dist/leaflet.css';
import './map.css';
import type L from 'leaflet';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Circle, MapContainer, Marker, Polyline, Popup, useMap, useMapEvents } from 'react-leaflet';
import type { AmbulanceDto, CaseDto } from '../../api/contract';
import { ambulanceTrail, queries } from '../../api/queries';
import { patientNameOf } from '../../domain/caseRules';
import { averageCentre } from '../../domain/fleetRules';
import { ambulanceFix, caseApproach, caseFix } from '../../domain/liveText';
import { batteryText, sourceText, staleHint } from '../../domain/positionText';
import { CaseLocationNotes } from '../cases/CaseLocationNotes';
import { extendTrail, trailLine } from '../../domain/trail';
import { ApproachLines, PatientFixLine, StaleChip } from '../cases/LiveCaseInfo';
import { CapabilityChip } from '../shared/CapabilityChip';
import { capabilityWords, isResponderCar } from '../shared/capabilityWords';
import { AmbulanceStatusBadge } from '../shared/StatusBadges';
import { usePlaceName } from '../shared/usePlaceName';
import { AmbulanceUnitChip } from '../fleet/UnitStatusChip';
import { unitColor, unitLabel } from '../fleet/unitStatus';
import { ConfiguredTileLayer } from './ConfiguredTileLayer';
import { useEtaModel, useStaleThresholds } from './liveHooks';
import { PATIENT_COLOR, ambulanceIcon, patientIcon } from './markerIcons';
import { formatPositionTime } from './positionTime';
import { useGlide } from './useGlide';

/** An ambulance whose location is known. */
export type LocatedAmbulance = AmbulanceDto & { location: NonNullable<AmbulanceDto['location']> };
/** A case whose patient has shared a location. */
export type LocatedCase = CaseDto & { latitude: number; longitude: number };

/** SPEC §9: the default view, and the zoom once ambulances are on the map. */
export const DEFAULT_CENTRE: [number, number] = [20.5937, 78.9629];
const ZOOM_WITH_AMBULANCES = 10;
const ZOOM_WITHOUT = 6;
/** A stale marker is faded to this opacity. */
export const STALE_OPACITY = 0.45;
const TRAIL_COLOR = '#1565c0';
const TRAIL_STYLE = { color: TRAIL_COLOR, weight: 4, opacity: 0.85, lineCap: 'round', lineJoin: 'round' } as const;

/** A request to show one marker (from the list): centre on it and open its popup. */
export interface MapFocus { kind: 'ambulance' | 'case'; id: number | string; at: number }

type MarkerRegistry = Map<string, L.Marker>;
const markerKey = (kind: MapFocus['kind'], id: number | string) => `${kind}:${id}`;

/**
 * The fleet and the located active cases on a Leaflet map. Markers glide to new positions
 * (live events patch the cache) without remounting; the view is centred on the average of
 * the ambulances only once, on the first data, so a user who pans or zooms keeps their view.
 * The selected ambulance draws its recent trail. `now` (ticking every ~15 s) fades stale ones.
 * Pins take their unit status's colour; one late past turnout (`lateIds`) carries a badge.
 */
export function FleetMap({ ambulances, cases = [], focus, selectedId = null, onSelect, now, lateIds }: {
  ambulances: LocatedAmbulance[];
  cases?: LocatedCase[];
  focus: MapFocus | null;
  selectedId?: number | null;
  onSelect?: (id: number | null) => void;
  now: number;
  lateIds?: ReadonlySet<number>;
}) {
  const centre = useMemo(() => averageCentre(ambulances.map((a) => a.location)), [ambulances]);
  // Only the first render's view is used by MapContainer.
  const [initial] = useState(() => (centre ? { center: centre, zoom: ZOOM_WITH_AMBULANCES } : { center: DEFAULT_CENTRE, zoom: ZOOM_WITHOUT }));
  // Filled by the markers as they mount, read when a list entry asks to show one.
  const [markers] = useState<MarkerRegistry>(() => new Map());
  const selected = selectedId == null ? undefined : ambulances.find((a) => a.id === selectedId);
  const trail = useTrailLine(selected);

  return (
    <MapContainer center={initial.center} zoom={initial.zoom} className="ll-map" scrollWheelZoom>
      <ConfiguredTileLayer />
      <CentreOnFirstData centre={centre} alreadyCentred={initial.zoom === ZOOM_WITH_AMBULANCES} />
      <FocusMarker focus={focus} markers={markers} />
      {onSelect && <ClearSelectionOnMapClick onClear={() => onSelect(null)} />}
      {trail.length >= 2 && (
        <Polyline
          positions={trail}
          className="ll-trail"
          interactive={false}
          pathOptions={TRAIL_STYLE}
        />
      )}
      {cases.map((c) => (
        <PatientMarker key={c.id} item={c} ambulances={ambulances} now={now} markers={markers} />
      ))}
      {ambulances.map((a) => (
        <AmbulanceMarker
          key={a.id}
          ambulance={a}
          now={now}
          late={lateIds?.has(a.id) ?? false}
          selected={a.id === selectedId}
          hasTrail={a.id === selectedId && trail.length >= 2}
          onSelect={onSelect}
          markers={markers}
        />
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

function FocusMarker({ focus, markers }: { focus: MapFocus | null; markers: MarkerRegistry }) {
  const map = useMap();
  useEffect(() => {
    const marker = focus && markers.get(markerKey(focus.kind, focus.id));
    if (!marker) return;
    map.setView(marker.getLatLng(), Math.max(map.getZoom(), 13));
    marker.openPopup();
  }, [focus, map, markers]);
  return null;
}

/** A click on the map itself (not on a marker or popup) ends the selection and hides the trail. */
function ClearSelectionOnMapClick({ onClear }: { onClear: () => void }) {
  useMapEvents({ click: onClear });
  return null;
}

/**
 * A marker created at its first point that glides to every later one: react-leaflet is
 * never handed a new position (it would jump), useGlide moves the same element instead.
 */
function GlidingMarker({ latitude, longitude, registryKey, markers, children, ...props }: {
  latitude: number;
  longitude: number;
  registryKey: string;
  markers: MarkerRegistry;
  children: ReactNode;
  icon: L.DivIcon;
  title: string;
  alt: string;
  opacity: number;
  zIndexOffset: number;
  eventHandlers?: L.LeafletEventHandlerFnMap;
}) {
  const [first] = useState<[number, number]>(() => [latitude, longitude]);
  const layer = useRef<L.Marker | null>(null);
  useGlide(layer, latitude, longitude);
  const ref = useCallback((m: L.Marker | null) => {
    layer.current = m;
    if (m) markers.set(registryKey, m);
    else markers.delete(registryKey);
  }, [markers, registryKey]);
  return <Marker position={first} ref={ref} {...props}>{children}</Marker>;
}

function AmbulanceMarker({ ambulance, now, late, selected, hasTrail, onSelect, markers }: {
  ambulance: LocatedAmbulance;
  now: number;
  late: boolean;
  selected: boolean;
  hasTrail: boolean;
  onSelect?: (id: number | null) => void;
  markers: MarkerRegistry;
}) {
  const { latitude, longitude } = ambulance.location;
  const id = ambulance.id;
  const stale = ambulanceFix(ambulance, now, useStaleThresholds())?.stale ?? true;
  const eventHandlers = useMemo(() => (onSelect ? { click: () => onSelect(id) } : undefined), [id, onSelect]);
  return (
    <GlidingMarker
      latitude={latitude}
      longitude={longitude}
      registryKey={markerKey('ambulance', id)}
      markers={markers}
      icon={ambulanceIcon(unitColor(ambulance), late, isResponderCar(ambulance.capability))}
      title={ambulance.license_plate}
      alt={`Ambulance ${ambulance.license_plate} (${capabilityWords(ambulance.capability)}), ${unitLabel(ambulance)}${late ? ', turnout late' : ''}`}
      opacity={stale ? STALE_OPACITY : 1}
      zIndexOffset={selected ? 1000 : 0}
      eventHandlers={eventHandlers}
    >
      <Popup>
        <AmbulancePopup ambulance={ambulance} stale={stale} late={late} selected={selected} hasTrail={hasTrail} />
      </Popup>
    </GlidingMarker>
  );
}

/** Popup: plate, status, capability, place name, coordinates to 6 decimals, the position's own time and source, Stale, battery. */
function AmbulancePopup({ ambulance, stale, late, selected, hasTrail }: { ambulance: LocatedAmbulance; stale: boolean; late: boolean; selected: boolean; hasTrail: boolean }) {
  const { latitude, longitude, placeName, updated_at } = ambulance.location;
  const place = usePopupPlace(latitude, longitude, placeName);
  const thresholds = useStaleThresholds();
  const source = sourceText(ambulance.location.source);
  const battery = batteryText(ambulance.location.battery);
  return (
    <Box data-testid="ambulance-popup" data-ambulance-id={ambulance.id} data-stale={stale} sx={{ display: 'grid', gap: 0.5 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1 }}>
        <Typography sx={{ fontWeight: 800 }}>{ambulance.license_plate}</Typography>
        <AmbulanceStatusBadge status={ambulance.status} />
      </Box>
      <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 0.75 }}>
        <CapabilityChip capability={ambulance.capability} />
        <AmbulanceUnitChip ambulance={ambulance} />
        {late && <Typography variant="caption" color="error" sx={{ fontWeight: 700 }} data-testid="popup-turnout-late">Turnout late</Typography>}
      </Box>
      <Typography variant="body2">{place}</Typography>
      <Typography variant="body2" sx={{ fontVariantNumeric: 'tabular-nums' }}>
        Latitude: {latitude.toFixed(6)}<br />
        Longitude: {longitude.toFixed(6)}
      </Typography>
      <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 0.75 }}>
        <Typography variant="caption" color="text.secondary">
          Last updated: {formatPositionTime(updated_at)}{source && ` · ${source}`}
        </Typography>
        {stale && <StaleChip title={staleHint(ambulance.location.source, thresholds)} testId="ambulance-stale" />}
      </Box>
      {battery && (
        <Typography variant="caption" sx={{ color: battery.low ? 'error.main' : 'text.secondary', fontWeight: battery.low ? 700 : 400 }}>
          {battery.label}{battery.warning && ` · ${battery.warning}`}
        </Typography>
      )}
      {selected && (
        <Typography variant="caption" sx={{ color: hasTrail ? TRAIL_COLOR : 'text.secondary', fontWeight: 600 }}>
          {hasTrail ? 'Blue line: its last 30 minutes' : 'No movement in the last 30 minutes'}
        </Typography>
      )}
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

/** A patient's shared location: a round purple badge in its accuracy circle. */
function PatientMarker({ item, ambulances, now, markers }: {
  item: LocatedCase; ambulances: LocatedAmbulance[]; now: number; markers: MarkerRegistry;
}) {
  const fix = caseFix(item, now);
  const name = patientNameOf(item);
  const accuracy = item.location_accuracy;
  return (
    <>
      {/* The accuracy is the patient's fix's: drawn only where that fix is the marker. */}
      {accuracy != null && accuracy > 0 && item.location_source === 'patient' && (
        <AccuracyCircle latitude={item.latitude} longitude={item.longitude} radius={accuracy} stale={!!fix?.stale} />
      )}
      <GlidingMarker
        latitude={item.latitude}
        longitude={item.longitude}
        registryKey={markerKey('case', item.id)}
        markers={markers}
        icon={patientIcon()}
        title={`Patient ${name}`}
        alt={`Patient ${name}`}
        opacity={fix?.stale ? STALE_OPACITY : 1}
        zIndexOffset={500}
      >
        <Popup>
          <PatientPopup item={item} ambulances={ambulances} now={now} />
        </Popup>
      </GlidingMarker>
    </>
  );
}

/** The accuracy of the patient's fix, in metres, gliding with the marker. */
function AccuracyCircle({ latitude, longitude, radius, stale }: { latitude: number; longitude: number; radius: number; stale: boolean }) {
  const [first] = useState<[number, number]>(() => [latitude, longitude]);
  const layer = useRef<L.Circle | null>(null);
  useGlide(layer, latitude, longitude);
  const pathOptions = useMemo(
    () => ({ color: PATIENT_COLOR, weight: 1.5, opacity: stale ? 0.4 : 0.8, fillColor: PATIENT_COLOR, fillOpacity: stale ? 0.06 : 0.14 }),
    [stale],
  );
  return <Circle ref={layer} center={first} radius={radius} pathOptions={pathOptions} className="ll-accuracy" interactive={false} />;
}

/** Popup: patient, short case id, place, coordinates, last fix (Stale), accuracy, ambulance ETA. */
function PatientPopup({ item, ambulances, now }: { item: LocatedCase; ambulances: LocatedAmbulance[]; now: number }) {
  const place = usePlaceName(item.latitude, item.longitude);
  const fix = caseFix(item, now);
  const toPatient = caseApproach(item, ambulances, useEtaModel());
  return (
    <Box data-testid="patient-popup" data-case-id={item.id} sx={{ display: 'grid', gap: 0.5 }}>
      <Box sx={{ display: 'flex', alignItems: 'baseline', justifyContent: 'space-between', gap: 1 }}>
        <Typography sx={{ fontWeight: 800, overflowWrap: 'anywhere' }}>{patientNameOf(item)}</Typography>
        <Typography variant="caption" color="text.secondary" sx={{ fontFamily: 'monospace' }} title={item.id}>#{item.id.slice(0, 8)}</Typography>
      </Box>
      <Typography variant="body2">{place}</Typography>
      <Typography variant="body2" sx={{ fontVariantNumeric: 'tabular-nums' }}>
        Latitude: {item.latitude.toFixed(6)}<br />
        Longitude: {item.longitude.toFixed(6)}
      </Typography>
      <CaseLocationNotes item={item} dense />
      {fix && <PatientFixLine fix={fix} />}
      {toPatient && (
        <Box sx={{ mt: 0.5, pt: 0.5, borderTop: 1, borderColor: 'divider' }}>
          <ApproachLines approach={toPatient} plate={toPatient.ambulance.license_plate} dense />
        </Box>
      )}
    </Box>
  );
}

/**
 * The selected ambulance's recent trail as a line: GET /api/ambulances/{id}/trail once on
 * selection, then every live position the ambulances cache receives is appended (an older
 * one never is). Empty without a selection or below two distinct points.
 */
function useTrailLine(ambulance: LocatedAmbulance | undefined): [number, number][] {
  const qc = useQueryClient();
  const id = ambulance?.id ?? -1;
  const { data } = useQuery({ ...ambulanceTrail(id), enabled: ambulance != null });
  const latitude = ambulance?.location.latitude;
  const longitude = ambulance?.location.longitude;
  const recordedAt = ambulance?.location.updated_at;
  const loaded = data !== undefined;
  useEffect(() => {
    if (id < 0 || latitude == null || longitude == null) return;
    qc.setQueryData(ambulanceTrail(id).queryKey, (t) => extendTrail(t, { latitude, longitude, recorded_at: recordedAt }));
  }, [qc, id, latitude, longitude, recordedAt, loaded]);
  const selected = ambulance != null;
  return useMemo(() => (selected ? trailLine(data) : []), [selected, data]);
}
