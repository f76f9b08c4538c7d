import { useQuery } from '@tanstack/react-query';
import { queries } from '../../api/queries';

/**
 * The place text for a point, resolved through the server's cached geocoder:
 * 'latitude, longitude' when it has no name, 'Location not specified' without coordinates.
 */
export function usePlaceName(latitude: number | null | undefined, longitude: number | null | undefined, known?: string | null) {
  const located = latitude != null && longitude != null;
  const query = useQuery({ ...queries.placeName(latitude ?? 0, longitude ?? 0), enabled: located && !known });
  if (!located) return 'Location not specified';
  return known || query.data || `${latitude}, ${longitude}`;
}
