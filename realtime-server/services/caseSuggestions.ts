import { type CaseSuggestion, type CaseSuggestionsResponse, type LatLon, type StaleThresholds, type TransportCapability, staleAfterMs } from '../contract';
import { type FreeUnitRow, arrivalRepository } from '../../db/repositories/arrivalRepository';
import { presentCase } from '../presenters/presentCase';
import { findCase } from './caseService';
import type { ServiceContext } from './context';
import { type Candidate, type EtaModel, etaModel, planDispatch, rankSuggestions, unitFit } from './dispatchSuggestions';

const placed = (u: FreeUnitRow): u is FreeUnitRow & Candidate => u.latitude != null && u.longitude != null && u.position_at != null;

/** What can be said of a unit without a place to reach: how old its fix is (none: stale, there is nothing fresh to go by). */
function unranked(u: FreeUnitRow, o: Ranking): CaseSuggestion {
  const ageMs = placed(u) ? Math.max(0, o.now - Date.parse(u.position_at)) : null;
  return {
    ambulance_id: u.id, license_plate: u.license_plate, distance_m: null, eta_s: null,
    position_age_s: ageMs == null ? null : Math.floor(ageMs / 1000),
    stale: ageMs == null || ageMs > staleAfterMs(u.position_source, o.staleAfterS),
    ...unitFit(u.capability, o.need),
  };
}

type Ranking = { now: number; staleAfterS: StaleThresholds; need: TransportCapability };

/**
 * Units in the order a dispatcher should consider them for `target`: ranked as the
 * ?latitude=&longitude= suggestions are (rankSuggestions), then the never-placed ones in id order;
 * with no target, every one in id order without estimates.
 */
function offer(units: FreeUnitRow[], target: LatLon | null, model: EtaModel, o: Ranking): CaseSuggestion[] {
  if (!target) return units.map((u) => unranked(u, o));
  return [...rankSuggestions(units.filter(placed), target, model, o), ...units.filter((u) => !placed(u)).map((u) => unranked(u, o))];
}

export const caseSuggestionService = {
  /**
   * GET /api/dispatch/suggestions?case_id=: the free units for the call's best-known place (the
   * patient's accurate fix, else the intake location: presentCase's latitude/longitude), and the
   * units on less urgent calls not reached yet, which POST /api/cases/{id}/dispatch may divert.
   */
  async suggest(ctx: ServiceContext, caseId: string, now = Date.now()): Promise<CaseSuggestionsResponse> {
    const c = presentCase(await findCase(ctx.db, caseId));
    const target = c.latitude != null && c.longitude != null ? { latitude: c.latitude, longitude: c.longitude } : null;
    const [model, free, busy] = await Promise.all([etaModel(ctx, now), arrivalRepository.free(ctx.db), arrivalRepository.divertibleBelow(ctx.db, c.priority)]);
    const o = { now, staleAfterS: ctx.config.staleAfterS, need: ctx.config.priorityNeeds[c.priority] };
    const onCall = new Map(busy.map((b) => [b.id, b]));
    const suggestions = offer(free, target, model, o);
    return {
      suggestions,
      plan: planDispatch(suggestions, c.priority, o.need),
      model,
      located: target != null,
      divertible: offer(busy, target, model, o).map((s) => {
        const b = onCall.get(s.ambulance_id)!;
        return { ...s, case_id: b.case_id, case_priority: b.case_priority, unit_status: b.unit_status };
      }),
    };
  },
};
