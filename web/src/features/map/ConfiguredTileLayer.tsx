import { useQuery } from '@tanstack/react-query';
import { TileLayer } from 'react-leaflet';
import { queries } from '../../api/queries';

const ATTRIBUTION = '&copy; <a href="https://www.openstreetmap.org/copyright" target="_blank" rel="noopener noreferrer">OpenStreetMap</a> contributors';

/**
 * Tiles from the server's TILE_URL (GET /api/config). When tiles cannot load (offline,
 * blocked), failed tiles stay hidden and the map is a plain grey background with markers.
 */
export function ConfiguredTileLayer() {
  const { data } = useQuery(queries.config());
  if (!data?.tileUrl) return null;
  return <TileLayer url={data.tileUrl} attribution={ATTRIBUTION} maxZoom={19} />;
}
