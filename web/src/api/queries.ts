import { queryOptions } from '@tanstack/react-query';
import { ApiError, apiFetch } from './client';
import { REPORTS_KEY, reportStaleTime } from './reportRefresh';

/** Query-string of a list query: the set fields only, in a stable order (so equal queries share a key and a URL). */
export function listQueryString(q: object): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(q).sort(([a], [b]) => a.localeCompare(b))) if (v != null && v !== '') params.set(k, String(v));
  return params.toString();
}

/** The board's counts, written by every board fetch beside the board itself. */
export const CASE_COUNTS_KEY = ['cases', 'counts'] as const;
/** Every history page (All Cases, phone list, Case Management) is cached under this prefix. */
export const CASE_HISTORY_KEY = ['cases', 'history'] as const;
/** The crews' requests for backup this tab heard (queries.backupAlerts). */
export const BACKUP_ALERTS_KEY = ['alerts', 'backup'] as const;
/** Pre-alerts no hospital acknowledged in time, heard on this tab's socket (queries.prealertAlerts). */
export const PREALERT_ALERTS_KEY = ['alerts', 'prealert'] as const;
import {
  type AmbulanceDto, type CaseBoardResponse, type CaseSuggestionsResponse, type CaseCounts, type CaseDetail, type CaseHistoryQuery, type CaseHistoryResponse, type OutboxPageResponse, type OutboxQuery, type ConfigResponse, type DispatchSuggestionsResponse, type GeocodeResponse, type GeocodeSearchResponse,
  type BackupAlert, type DemandReport, type HospitalDto, type PrealertLateAlert, type Priority, type ProfileResponse, type SigninLimitsDto, type ResponseTimesReport, type TimelineEntryDto, type UserDto, type UtilisationReport,
} from './contract';

/** A report's period: local dates YYYY-MM-DD in an IANA zone, half-open (`to` is the day after the last). */
export interface ReportPeriodParams { from: string; to: string; tz: string }

/** "from=…&to=…&tz=…" of every report URL (the CSV's too). */
export const reportPeriodQuery = (p: ReportPeriodParams) => new URLSearchParams({ from: p.from, to: p.to, tz: p.tz }).toString();

/** queryOptions factories: the single source of query keys. */
export const queries = {
  profile: () =>
    queryOptions({
      queryKey: ['auth', 'profile'] as const,
      queryFn: ({ signal }) => apiFetch<ProfileResponse>('/api/auth/profile', { signal }),
      staleTime: 60_000,
    }),
  /**
   * The live board (bare GET /api/cases): every open call and the recently ended, in board
   * order; its size follows what is open, never history. The answer's counts go to
   * CASE_COUNTS_KEY (read them with caseCounts).
   */
  cases: () =>
    queryOptions({
      queryKey: ['cases'] as const,
      queryFn: ({ signal, client }) => apiFetch<CaseBoardResponse>('/api/cases', { signal }).then((r) => {
        client.setQueryData<CaseCounts>(CASE_COUNTS_KEY, r.counts);
        return r.cases;
      }),
    }),
  /** The board's counts ({active, pending, total}); filled by the board's fetch, which this starts when none has run. */
  caseCounts: () =>
    queryOptions({
      queryKey: CASE_COUNTS_KEY,
      queryFn: async ({ client }) => {
        await client.fetchQuery(queries.cases());
        return client.getQueryData<CaseCounts>(CASE_COUNTS_KEY) ?? { active: 0, pending: 0, total: 0 };
      },
      staleTime: Infinity,
    }),
  /** One page of history (GET /api/cases?scope=all&…), searched and paged by the server. */
  caseHistory: (q: CaseHistoryQuery) =>
    queryOptions({
      queryKey: [...CASE_HISTORY_KEY, listQueryString(q)] as const,
      queryFn: ({ signal }) => apiFetch<CaseHistoryResponse>(`/api/cases?${listQueryString({ ...q, scope: 'all' })}`, { signal }),
    }),
  /** One case with every assignment it had (GET /api/cases/{id}). */
  caseDetail: (id: string) =>
    queryOptions({
      queryKey: ['cases', 'detail', id] as const,
      queryFn: ({ signal }) => apiFetch<CaseDetail>(`/api/cases/${id}`, { signal }),
    }),
  caseTimeline: (id: string) =>
    queryOptions({
      queryKey: ['cases', id, 'timeline'] as const,
      queryFn: ({ signal }) => apiFetch<{ timeline: TimelineEntryDto[] }>(`/api/cases/${id}/timeline`, { signal }).then((r) => r.timeline),
    }),
  ambulances: () =>
    queryOptions({
      queryKey: ['ambulances'] as const,
      queryFn: ({ signal }) => apiFetch<{ ambulances: AmbulanceDto[] }>('/api/ambulances', { signal }).then((r) => r.ambulances),
    }),
  /** Every hospital (staff): Manage Hospitals, the destinations on the board. Kept live by `hospital.updated`/`hospital.deleted`. */
  hospitals: () =>
    queryOptions({
      queryKey: ['hospitals'] as const,
      queryFn: ({ signal }) => apiFetch<{ hospitals: HospitalDto[] }>('/api/hospitals', { signal }).then((r) => r.hospitals),
      staleTime: 60_000,
    }),
  /** Late pre-alerts heard on this tab's socket (`prealert.late`): nothing to fetch, the live cache writes them. */
  prealertAlerts: () =>
    queryOptions({
      queryKey: PREALERT_ALERTS_KEY,
      queryFn: ({ client }) => client.getQueryData<PrealertLateAlert[]>(PREALERT_ALERTS_KEY) ?? [],
      initialData: [] as PrealertLateAlert[],
      staleTime: Infinity,
      gcTime: Infinity,
    }),
  operators: () =>
    queryOptions({
      queryKey: ['operators'] as const,
      queryFn: ({ signal }) => apiFetch<{ operators: UserDto[] }>('/api/users/operators', { signal }).then((r) => r.operators),
    }),
  /** A staff member's sign-in counts (GET /api/users/{id}/signin-limits, admins): whether strangers spent the code mails. */
  signinLimits: (userId: number) =>
    queryOptions({
      queryKey: ['signin-limits', userId] as const,
      queryFn: ({ signal }) => apiFetch<SigninLimitsDto>(`/api/users/${userId}/signin-limits`, { signal }),
    }),
  /** One page of the outbox (GET /api/outbox?status=&limit=&cursor=), newest first. */
  outbox: (q: OutboxQuery = {}) =>
    queryOptions({
      queryKey: ['outbox', listQueryString(q)] as const,
      queryFn: ({ signal }) => {
        const qs = listQueryString(q);
        return apiFetch<OutboxPageResponse>(qs ? `/api/outbox?${qs}` : '/api/outbox', { signal });
      },
    }),
  /** Place names through the server's cached geocoder (never a public geocoder from the browser). */
  placeName: (latitude: number, longitude: number) =>
    queryOptions({
      queryKey: ['geocode', latitude.toFixed(5), longitude.toFixed(5)] as const,
      queryFn: ({ signal }) =>
        apiFetch<GeocodeResponse>(`/api/geocode/reverse?lat=${latitude}&lon=${longitude}`, { signal })
          .then((r) => r.displayName)
          .catch(() => `${latitude}, ${longitude}`),
      staleTime: Infinity,
      gcTime: 30 * 60_000,
    }),
  /**
   * What a location text was understood as (GET /api/geocode/search): coordinates and plus codes
   * by the server itself, addresses through its geocoder. Run on Enter or Find only, never per
   * keystroke (Nominatim forbids autocomplete); a 503 (no geocoder) is an answer, not retried.
   */
  geocodeSearch: (q: string) =>
    queryOptions({
      queryKey: ['geocode', 'search', q] as const,
      queryFn: ({ signal }) => apiFetch<GeocodeSearchResponse>(`/api/geocode/search?q=${encodeURIComponent(q)}`, { signal }).then((r) => r.results),
      staleTime: 10 * 60_000,
      retry: false,
    }),
  /**
   * Free ambulances by estimated arrival at a point (GET /api/dispatch/suggestions). Under the
   * ambulances key, so every write that changes the fleet refetches it; refreshed now and then
   * as the units move.
   */
  dispatchSuggestions: (latitude: number, longitude: number, priority: Priority | null = null) =>
    queryOptions({
      // With a priority the ranking and its plan differ (units meeting its need first): a key of its own.
      queryKey: ['ambulances', 'suggestions', latitude.toFixed(5), longitude.toFixed(5), ...(priority != null ? [`p${priority}`] : [])] as const,
      queryFn: ({ signal }) =>
        apiFetch<DispatchSuggestionsResponse>(
          `/api/dispatch/suggestions?latitude=${latitude}&longitude=${longitude}${priority != null ? `&priority=${priority}` : ''}`,
          { signal },
        ),
      staleTime: 15_000,
      refetchInterval: 30_000,
    }),
  /**
   * The crews' requests for backup heard on this tab's socket (`backup.requested`), oldest first.
   * Nothing to fetch: the live cache writes them (realtime/backupAlerts.ts), and a refetch after a
   * reconnect keeps what is held rather than emptying the list.
   */
  backupAlerts: () =>
    queryOptions({
      queryKey: BACKUP_ALERTS_KEY,
      queryFn: ({ client }) => client.getQueryData<BackupAlert[]>(BACKUP_ALERTS_KEY) ?? [],
      initialData: [] as BackupAlert[],
      staleTime: Infinity,
      gcTime: Infinity,
    }),
  /**
   * The free units ranked for a waiting call's best-known place, and the busy units that could be
   * diverted to it from a lower-priority call (GET /api/dispatch/suggestions?case_id=). Under the
   * ambulances key, so every write that changes the fleet refetches it.
   */
  caseSuggestions: (caseId: string) =>
    queryOptions({
      queryKey: ['ambulances', 'suggestions', 'case', caseId] as const,
      queryFn: ({ signal }) => apiFetch<CaseSuggestionsResponse>(`/api/dispatch/suggestions?case_id=${encodeURIComponent(caseId)}`, { signal }),
      staleTime: 15_000,
    }),
  /**
   * Today's response times so far (GET /api/reports/response-times from local midnight to now).
   * Under the reports key, which the live cache refreshes as calls change (reportRefresh.ts:
   * at most every 5 s); the date in the key makes midnight start a new day's query.
   */
  todayReport: (date: string, tz: string) =>
    queryOptions({
      queryKey: [...REPORTS_KEY, 'today', date, tz] as const,
      queryFn: ({ signal }) =>
        apiFetch<ResponseTimesReport>(`/api/reports/response-times?from=${date}&tz=${encodeURIComponent(tz)}`, { signal }),
      staleTime: reportStaleTime,
    }),
  /** The last 30 days (the endpoint's default period), for the admin's "measured" line; refreshed at most once a minute. */
  measuredReport: (tz: string) =>
    queryOptions({
      queryKey: [...REPORTS_KEY, 'measured', tz] as const,
      queryFn: ({ signal }) => apiFetch<ResponseTimesReport>(`/api/reports/response-times?tz=${encodeURIComponent(tz)}`, { signal }),
      staleTime: reportStaleTime,
    }),
  /**
   * The Reports screen's figures over one period. Only while the period reaches today does the
   * live cache refresh them as calls change, at most once per the period's window (reportRefreshMs:
   * a minute up to 31 days, 10 minutes beyond); a period wholly past is kept until Refresh.
   */
  reports: {
    responseTimes: (p: ReportPeriodParams) =>
      queryOptions({
        queryKey: [...REPORTS_KEY, 'response-times', p.from, p.to, p.tz] as const,
        queryFn: ({ signal }) => apiFetch<ResponseTimesReport>(`/api/reports/response-times?${reportPeriodQuery(p)}`, { signal }),
        staleTime: reportStaleTime,
      }),
    utilisation: (p: ReportPeriodParams) =>
      queryOptions({
        queryKey: [...REPORTS_KEY, 'utilisation', p.from, p.to, p.tz] as const,
        queryFn: ({ signal }) => apiFetch<UtilisationReport>(`/api/reports/utilisation?${reportPeriodQuery(p)}`, { signal }),
        staleTime: reportStaleTime,
      }),
    demand: (p: ReportPeriodParams) =>
      queryOptions({
        queryKey: [...REPORTS_KEY, 'demand', p.from, p.to, p.tz] as const,
        queryFn: ({ signal }) => apiFetch<DemandReport>(`/api/reports/demand?${reportPeriodQuery(p)}`, { signal }),
        staleTime: reportStaleTime,
      }),
    /** Hospital handover per destination (issue 30): arrivals, handover times against HANDOVER_TARGETS, pre-alerts. */
    handover: (p: ReportPeriodParams) =>
      queryOptions({
        queryKey: [...REPORTS_KEY, 'handover', p.from, p.to, p.tz] as const,
        queryFn: ({ signal }) => apiFetch<import('./contract').HandoverReport>(`/api/reports/handover?${reportPeriodQuery(p)}`, { signal }),
        staleTime: reportStaleTime,
      }),
  },
  /** Server settings the web needs (map tiles). */
  config: () =>
    queryOptions({
      queryKey: ['config'] as const,
      queryFn: ({ signal }) => apiFetch<ConfigResponse>('/api/config', { signal, auth: false }),
      staleTime: Infinity,
    }),
};

/** The operator id behind an e-mail (GET /api/users/by-email), cached for the tab's life. */
export const operatorIdByEmail = (email: string) =>
  queryOptions({
    queryKey: ['users', 'by-email', email.toLowerCase()] as const,
    queryFn: ({ signal }) => apiFetch<{ id: number }>(`/api/users/by-email?email=${encodeURIComponent(email)}`, { signal }).then((r) => r.id),
    staleTime: Infinity,
  });

/** A public tracking link's ambulance position (GET /api/track/{id}?t=TOKEN, no sign-in). */
export const trackedAmbulance = (ambulanceId: string, token: string) =>
  queryOptions({
    queryKey: ['track', ambulanceId, token] as const,
    queryFn: ({ signal }) =>
      apiFetch<import('./contract').TrackResponse>(`/api/track/${encodeURIComponent(ambulanceId)}?t=${encodeURIComponent(token)}`, { signal, auth: false }),
    retry: false,
  });

/**
 * An ambulance's recent trail (GET /api/ambulances/{id}/trail, the last 30 minutes,
 * oldest first). Fetched once when the ambulance is selected on the map, then extended from
 * the live positions in the ambulances cache; dropped as soon as nothing shows it, so the next
 * selection fetches it afresh.
 */
export const ambulanceTrail = (ambulanceId: number) =>
  queryOptions({
    queryKey: ['ambulances', ambulanceId, 'trail'] as const,
    queryFn: ({ signal }) =>
      apiFetch<import('./contract').TrailResponse>(`/api/ambulances/${ambulanceId}/trail`, { signal }).then((r) => r.positions),
    staleTime: Infinity,
    gcTime: 0,
  });

/**
 * A hospital's own page (GET /api/hospital/{id}?t=TOKEN, no sign-in; the link is the permission):
 * its status, the units coming to it and those arrived. Read again on `hospital.changed`.
 */
export const hospitalPage = (hospitalId: string, token: string) =>
  queryOptions({
    queryKey: ['hospital-page', hospitalId, token] as const,
    queryFn: ({ signal }) =>
      apiFetch<import('./contract').HospitalPageResponse>(`/api/hospital/${encodeURIComponent(hospitalId)}?t=${encodeURIComponent(token)}`, { signal, auth: false }),
    retry: (count, error) => !(error instanceof ApiError && [401, 403, 404].includes(error.status)) && count < 2,
  });
