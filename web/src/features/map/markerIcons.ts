import L from 'leaflet';

/**
 * Map pins drawn as inline SVG (bundled with the app: no marker images from public hosts).
 * One icon object per colour, reused, so a marker that moves or re-renders keeps its DOM
 * element (no flicker).
 */
const cache = new Map<string, L.DivIcon>();

/** A red "!" badge on the pin's shoulder: the unit is late (e.g. still dispatched past turnout). */
const FLAG_SVG = `<circle cx="25" cy="7" r="6" fill="#b71c1c" stroke="#fff" stroke-width="1.5"/>`
  + `<path d="M24 3.6h2v4.6h-2zM24 9.3h2v2h-2z" fill="#fff"/>`;

/** The cross of an ambulance, in the pin's white disc. */
const CROSS_PATH = 'M14.2 10.5h3.6v3.7h3.7v3.6h-3.7v3.7h-3.6v-3.7h-3.7v-3.6h3.7z';
/** A car (Material's DirectionsCar, 24 units) shrunk into the white disc: a responder, which cannot convey. */
const CAR_GLYPH = `<path transform="translate(9.5 9.5) scale(0.54)" d="M18.92 6.01C18.72 5.42 18.16 5 17.5 5h-11c-.66 0-1.21.42-1.42 1.01L3 12v8c0 .55.45 1 1 1h1c.55 0 1-.45 1-1v-1h12v1c0 .55.45 1 1 1h1c.55 0 1-.45 1-1v-8l-2.08-5.99zM6.5 16c-.83 0-1.5-.67-1.5-1.5S5.67 13 6.5 13s1.5.67 1.5 1.5S7.33 16 6.5 16zm11 0c-.83 0-1.5-.67-1.5-1.5s.67-1.5 1.5-1.5 1.5.67 1.5 1.5-.67 1.5-1.5 1.5zM5 11l1.5-4.5h11L19 11H5z"`;

function pinSvg(color: string, flagged = false, car = false): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 44" width="32" height="44" aria-hidden="true">`
    + `<path d="M16 1.5C8 1.5 1.5 8 1.5 16c0 10.6 14.5 26.5 14.5 26.5S30.5 26.6 30.5 16C30.5 8 24 1.5 16 1.5z" fill="${color}" stroke="#fff" stroke-width="2.5"/>`
    + `<circle cx="16" cy="16" r="9" fill="#fff"/>`
    + (car ? `${CAR_GLYPH} fill="${color}"/>` : `<path d="${CROSS_PATH}" fill="${color}"/>`)
    + (flagged ? FLAG_SVG : '')
    + `</svg>`;
}

export function markerIcon(color: string): L.DivIcon {
  let icon = cache.get(color);
  if (!icon) {
    icon = L.divIcon({
      html: pinSvg(color),
      className: 'll-map-pin',
      iconSize: [32, 44],
      iconAnchor: [16, 43],
      popupAnchor: [0, -38],
    });
    cache.set(color, icon);
  }
  return icon;
}

const ambulanceCache = new Map<string, L.DivIcon>();

/**
 * The ambulance map's pin: markerIcon's drawing in the unit status's colour, with a class that
 * tells ambulances from patients; `flagged` adds the late badge (and a class tests can find);
 * `car` draws a car in place of the cross, for a responder that cannot convey.
 */
export function ambulanceIcon(color: string, flagged = false, car = false): L.DivIcon {
  const key = `${color}${flagged ? ':late' : ''}${car ? ':car' : ''}`;
  let icon = ambulanceCache.get(key);
  if (!icon) {
    icon = L.divIcon({
      html: pinSvg(color, flagged, car),
      className: `ll-map-pin ll-ambulance-pin${flagged ? ' ll-pin-late' : ''}${car ? ' ll-car-pin' : ''}`,
      iconSize: [32, 44],
      iconAnchor: [16, 43],
      popupAnchor: [0, -38],
    });
    ambulanceCache.set(key, icon);
  }
  return icon;
}

/** Purple, round and centred on the point (an accuracy circle is drawn around it): not a pin. */
export const PATIENT_COLOR = '#7b1fa2';

let patient: L.DivIcon | undefined;

/** A patient's shared location: a round badge with a person, one shared icon object. */
export function patientIcon(): L.DivIcon {
  patient ??= L.divIcon({
    html: `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 34 34" width="28" height="28" aria-hidden="true">`
      + `<circle cx="17" cy="17" r="15" fill="${PATIENT_COLOR}" stroke="#fff" stroke-width="3"/>`
      + `<circle cx="17" cy="12.5" r="4.2" fill="#fff"/>`
      + `<path d="M9.5 24.5c0-4.2 3.4-6.8 7.5-6.8s7.5 2.6 7.5 6.8z" fill="#fff"/>`
      + `</svg>`,
    className: 'll-map-pin ll-patient-pin',
    // Small, so that a typical accuracy circle shows around it once zoomed in.
    iconSize: [28, 28],
    iconAnchor: [14, 14],
    popupAnchor: [0, -13],
  });
  return patient;
}
