import L from 'leaflet';

/**
 * The patient's own location on the public tracking map: a blue pin with a person, clearly
 * unlike the ambulance's red pin with a cross. Inline SVG, bundled (no image hosts); one
 * icon object, so the marker keeps its DOM element when it moves.
 */
const PATIENT_BLUE = '#1565c0';

const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 44" width="32" height="44" aria-hidden="true">`
  + `<path d="M16 1.5C8 1.5 1.5 8 1.5 16c0 10.6 14.5 26.5 14.5 26.5S30.5 26.6 30.5 16C30.5 8 24 1.5 16 1.5z" fill="${PATIENT_BLUE}" stroke="#fff" stroke-width="2.5"/>`
  + `<circle cx="16" cy="16" r="9.5" fill="#fff"/>`
  + `<circle cx="16" cy="12.6" r="3.1" fill="${PATIENT_BLUE}"/>`
  + `<path d="M10.4 22.2c0-3.4 2.5-5.6 5.6-5.6s5.6 2.2 5.6 5.6z" fill="${PATIENT_BLUE}"/>`
  + `</svg>`;

let icon: L.DivIcon | null = null;

export function patientIcon(): L.DivIcon {
  icon ??= L.divIcon({ html: svg, className: 'll-map-pin ll-patient-pin', iconSize: [32, 44], iconAnchor: [16, 43], popupAnchor: [0, -38] });
  return icon;
}

export const PATIENT_COLOR = PATIENT_BLUE;
