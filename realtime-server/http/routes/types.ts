import type Router from '@koa/router';
import type { Geocoder } from '../../services/geocodeService';
import type { ServiceContext } from '../../services/context';

export interface RouteDeps { svc: ServiceContext; geocoder: Geocoder }
export type Mount = (router: Router, deps: RouteDeps) => void;
