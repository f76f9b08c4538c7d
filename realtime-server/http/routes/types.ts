import type { Geocoder } from '../../services/geocodeService';
import type { ServiceContext } from '../../services/context';
import type { GatedRouter } from '../gatedRouter';

export interface RouteDeps { svc: ServiceContext; geocoder: Geocoder }
export type Mount = (router: GatedRouter, deps: RouteDeps) => void;
