import L from 'leaflet';

/**
 * Map pins drawn as inline SVG (bundled with the app: no marker images from public hosts).
 * One icon object per colour, reused, so a marker that moves or re-renders keeps its DOM
 * element (no flicker).
 */
const cache = new Map<string, L.DivIcon>();

function pinSvg(color: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 44" width="32" height="44" aria-hidden="true">`
    + `<path d="M16 1.5C8 1.5 1.5 8 1.5 16c0 10.6 14.5 26.5 14.5 26.5S30.5 26.6 30.5 16C30.5 8 24 1.5 16 1.5z" fill="${color}" stroke="#fff" stroke-width="2.5"/>`
    + `<circle cx="16" cy="16" r="9" fill="#fff"/>`
    + `<path d="M14.2 10.5h3.6v3.7h3.7v3.6h-3.7v3.7h-3.6v-3.7h-3.7v-3.6h3.7z" fill="${color}"/>`
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
