import type { QueryClient, QueryKey } from '@tanstack/react-query';
import type { z } from 'zod';
import { caseBoardOf } from '../realtime/caseBoard';
import { ApiError, apiFetch, newIdempotencyKey } from './client';
import type {
  AmbulanceDto, CaseDto, DeviceIdentityResponse, LiveLocationResponse, SignInInput, SignInResponse, SignInResult, SignInVerifyInput,
  SignOutEverywhereResponse, SigninLimitsDto, TrackingInitiateResponse, UserDto,
  ambulanceCreateSchema, ambulanceUpdateSchema, caseCreateSchema, caseUpdateSchema, trackingInitiateSchema, userWriteSchema,
  HospitalDto, HospitalLinkResponse, HospitalPageDto, HospitalStatusInput, PrealertResponse, hospitalCreateSchema, hospitalUpdateSchema,
  AddUnitInput, AddUnitResponse, AssignmentDto, StandDownInput, StandDownResponse, UnitStatusAck, UnitStatusInput, timeCorrectionSchema, CaseDispatchInput, CaseDispatchResponse,
} from './contract';
import { hospitalPage, operatorIdByEmail, queries } from './queries';

/** What the browser sends: the contract's schemas before the server parses them. */
type Body<Schema extends z.ZodType> = z.input<Schema>;
/** A form's body: the schema's fields as entered; the server validates them and the form shows its refusal. */
type FormBody<Schema extends z.ZodType> = { [K in keyof z.input<Schema>]?: unknown };

/**
 * One write the web app makes: its request (URL, method, body, Idempotency-Key), what its
 * answer changes in the cache, and the cached lists it makes stale. Screens run it with
 * useApiMutation and add only what they show (toasts, dialogs, navigation).
 */
export interface Write<TVars, TData> {
  request: (vars: TVars, qc?: QueryClient) => Promise<TData>;
  /**
   * The answer put into the cache (the board's one writer, a call's detail): a case write
   * refetches no list of cases, whatever the history holds.
   */
  answered?: (data: TData, vars: TVars, qc: QueryClient) => void;
  /** Refetched after the write succeeds. */
  invalidates: readonly QueryKey[];
}

const write = <TVars, TData>(w: Write<TVars, TData>) => w;

const lists = {
  ambulances: queries.ambulances().queryKey,
  operators: queries.operators().queryKey,
  hospitals: queries.hospitals().queryKey,
};

/**
 * What a settled write does to the cache: its answer goes in, its stale lists are refetched;
 * a 409 (the lists changed meanwhile: the ambulance was taken, the call moved on) refetches
 * the board and the fleet, which are bounded by what is open, never by history.
 */
export function settleWrite<TVars, TData>(qc: QueryClient, w: Write<TVars, TData>, outcome: { data: TData; vars: TVars } | { error: unknown }) {
  if ('error' in outcome) {
    if (outcome.error instanceof ApiError && outcome.error.status === 409) {
      void qc.invalidateQueries({ queryKey: queries.cases().queryKey, exact: true });
      void qc.invalidateQueries({ queryKey: lists.ambulances });
    }
    return;
  }
  w.answered?.(outcome.data, outcome.vars, qc);
  for (const queryKey of w.invalidates) void qc.invalidateQueries({ queryKey });
}

/** A call's timeline gains an entry with every write of it: asked for again if shown (one call's, never a list). */
const timelineStale = (qc: QueryClient, caseId: string) => void qc.invalidateQueries({ queryKey: queries.caseTimeline(caseId).queryKey, exact: true });

/** A new row is POSTed with a fresh Idempotency-Key per submission; an edit is a PUT (itself idempotent). */
const createOrUpdate = <TBody, TData>(path: string) => ({ id, body }: { id: number | null; body: TBody }) =>
  apiFetch<TData>(id == null ? path : `${path}/${id}`, {
    method: id == null ? 'POST' : 'PUT',
    body,
    idempotencyKey: id == null ? newIdempotencyKey() : undefined,
  });

/** Where a hospital page's write goes: its link (`?t=`), no sign-in. */
export interface HospitalLink { hospitalId: string; token: string }
const hospitalPath = (l: HospitalLink, rest = '') => `/api/hospital/${encodeURIComponent(l.hospitalId)}${rest}?t=${encodeURIComponent(l.token)}`;
/** The page reads itself again after each of its writes (its socket's `hospital.changed` says so too). */
const hospitalPageStale = (qc: QueryClient, l: HospitalLink) => void qc.invalidateQueries({ queryKey: hospitalPage(l.hospitalId, l.token).queryKey });

/** Every write of the staff app, beside the `queries` factory. */
export const mutations = {
  /** POST /api/auth/signin (no bearer): a session, or a challenge when a mailed code is required. */
  signIn: write({
    request: (input: SignInInput) => apiFetch<SignInResult>('/api/auth/signin', { method: 'POST', body: input, auth: false }),
    invalidates: [],
  }),
  /** POST /api/auth/signin/verify: the challenge with the mailed code. */
  verifySignIn: write({
    request: (input: SignInVerifyInput) => apiFetch<SignInResponse>('/api/auth/signin/verify', { method: 'POST', body: input, auth: false }),
    invalidates: [],
  }),
  /** POST /api/auth/signout: ends this session on the server. */
  signOut: write({
    request: () => apiFetch('/api/auth/signout', { method: 'POST' }),
    invalidates: [],
  }),

  /**
   * POST /live-location: creates the case and assigns the ambulance in one transaction (a
   * 409 when it was taken meanwhile, nothing written: the board and fleet are then refetched).
   * The operator id is looked up by the session's e-mail first; SPEC §7: the lookup answers
   * nothing on failure, and the server then takes the signed-in operator.
   */
  dispatchCase: write({
    request: async ({ body, operatorEmail }: { body: Omit<Body<typeof caseCreateSchema>, 'operator_id'>; operatorEmail?: string }, qc?: QueryClient) => {
      const operatorId = operatorEmail && qc ? await qc.fetchQuery(operatorIdByEmail(operatorEmail)).catch(() => undefined) : undefined;
      return apiFetch<LiveLocationResponse>('/live-location', {
        method: 'POST',
        body: { ...(operatorId != null ? { operator_id: operatorId } : {}), ...body },
        idempotencyKey: newIdempotencyKey(),
      });
    },
    answered: (r, _vars, qc) => caseBoardOf(qc).put(r.case, { created: true }),
    // The answer does not hold the assigned unit's row.
    invalidates: [lists.ambulances],
  }),
  /** PUT /api/cases/{id}: the edit-case form; a changed ambulance changes the fleet too. */
  updateCase: write({
    request: ({ id, body }: { id: string; body: FormBody<typeof caseUpdateSchema> }) =>
      apiFetch<{ case: CaseDto }>(`/api/cases/${id}`, { method: 'PUT', body }),
    answered: (r, _vars, qc) => {
      caseBoardOf(qc).put(r.case);
      timelineStale(qc, r.case.id);
    },
    invalidates: [lists.ambulances],
  }),
  /**
   * POST /api/cases/{id}/dispatch: a waiting call takes a free unit, or with `take_from_case_id` a
   * unit diverted from a lower-priority call, which goes back to the queue in the same transaction.
   * Both calls as answered go on the board (no list is refetched); the fleet changes too. A 409 (the
   * unit was taken, the call moved on) is the server's words; the board and fleet are then refetched.
   */
  dispatchWaiting: write({
    request: ({ caseId, body }: { caseId: string; body: CaseDispatchInput }) =>
      apiFetch<CaseDispatchResponse>(`/api/cases/${caseId}/dispatch`, { method: 'POST', body, idempotencyKey: newIdempotencyKey() }),
    answered: (r, _vars, qc) => {
      const board = caseBoardOf(qc);
      board.put(r.case);
      timelineStale(qc, r.case.id);
      if (r.requeued) {
        board.put(r.requeued);
        timelineStale(qc, r.requeued.id);
      }
    },
    invalidates: [lists.ambulances],
  }),
  /**
   * POST /api/cases/{id}/assignments: one more free unit on an open call (a waiting call becomes
   * active with it). One Idempotency-Key per unit and press, so a retry never sends a unit twice; a
   * 409 (the unit was taken, the call ended) is the server's words, and the board and fleet are refetched.
   */
  addUnit: write({
    request: ({ caseId, ambulanceId }: { caseId: string; ambulanceId: number }) =>
      apiFetch<AddUnitResponse>(`/api/cases/${caseId}/assignments`, { method: 'POST', body: { ambulance_id: ambulanceId } satisfies AddUnitInput, idempotencyKey: newIdempotencyKey() }),
    answered: (r, _vars, qc) => {
      caseBoardOf(qc).put(r.case);
      timelineStale(qc, r.case.id);
    },
    invalidates: [lists.ambulances],
  }),
  /**
   * POST /api/cases/{id}/assignments/{assignmentId}/cancel: stands one unit down before it reaches
   * the scene, with the dispatcher's reason; the unit is free again (409 once it reached the scene).
   */
  standDown: write({
    request: ({ caseId, assignmentId, reason }: { caseId: string; assignmentId: number } & StandDownInput) =>
      apiFetch<StandDownResponse>(`/api/cases/${caseId}/assignments/${assignmentId}/cancel`, { method: 'POST', body: { reason } satisfies StandDownInput }),
    answered: (r, _vars, qc) => {
      caseBoardOf(qc).put(r.case);
      timelineStale(qc, r.case.id);
    },
    invalidates: [lists.ambulances],
  }),
  /** POST /api/ambulances/{id}/unit-status: a unit's next step, set by staff for the crew. */
  setUnitStatus: write({
    request: ({ ambulanceId, body }: { ambulanceId: number; body: UnitStatusInput }) =>
      apiFetch<UnitStatusAck>(`/api/ambulances/${ambulanceId}/unit-status`, { method: 'POST', body }),
    // The call's new version (and a clear's resolved status) comes with its case.updated event.
    answered: (r, _vars, qc) => {
      if (!r.ok) return;
      caseBoardOf(qc).assignment(r.assignment.case_id, r.assignment);
      timelineStale(qc, r.assignment.case_id);
    },
    invalidates: [lists.ambulances],
  }),
  /** POST /api/cases/{id}/assignments/{assignmentId}/corrections: one recorded time corrected, with a reason. */
  correctTime: write({
    request: ({ caseId, assignmentId, body }: { caseId: string; assignmentId: number; body: Body<typeof timeCorrectionSchema> }) =>
      apiFetch<{ assignment: AssignmentDto }>(`/api/cases/${caseId}/assignments/${assignmentId}/corrections`, { method: 'POST', body }),
    answered: (r, { caseId }, qc) => {
      caseBoardOf(qc).assignment(caseId, r.assignment);
      timelineStale(qc, caseId);
    },
    invalidates: [],
  }),
  /** DELETE /api/cases/{id}: frees its ambulance. */
  deleteCase: write({
    request: (id: string) => apiFetch(`/api/cases/${id}`, { method: 'DELETE' }),
    answered: (_r, id, qc) => caseBoardOf(qc).remove(id),
    invalidates: [lists.ambulances],
  }),

  /** POST /api/ambulances or PUT /api/ambulances/{id}. */
  saveAmbulance: write({
    request: createOrUpdate<FormBody<typeof ambulanceCreateSchema> | FormBody<typeof ambulanceUpdateSchema>, { ambulance: AmbulanceDto }>('/api/ambulances'),
    invalidates: [lists.ambulances],
  }),
  /** DELETE /api/ambulances/{id}. */
  deleteAmbulance: write({
    request: (id: number) => apiFetch(`/api/ambulances/${id}`, { method: 'DELETE' }),
    invalidates: [lists.ambulances],
  }),
  /**
   * POST /api/ambulances/{id}/device (admin): a new device identity, answered once; the earlier
   * one stops working. No Idempotency-Key: a retry must not replay a secret already shown.
   */
  issueDevice: write({
    request: (ambulanceId: number) => apiFetch<DeviceIdentityResponse>(`/api/ambulances/${ambulanceId}/device`, { method: 'POST' }),
    invalidates: [],
  }),

  /** POST /api/hospitals (with an Idempotency-Key) or PUT /api/hospitals/{id} (admins). */
  saveHospital: write({
    request: createOrUpdate<FormBody<typeof hospitalCreateSchema> | FormBody<typeof hospitalUpdateSchema>, { hospital: HospitalDto }>('/api/hospitals'),
    invalidates: [lists.hospitals],
  }),
  /** DELETE /api/hospitals/{id} (admins): calls keep its name as their destination. */
  deleteHospital: write({
    request: (id: number) => apiFetch(`/api/hospitals/${id}`, { method: 'DELETE' }),
    invalidates: [lists.hospitals],
  }),
  /**
   * POST /api/hospitals/{id}/link (admins): a new link to the hospital's page, answered once; the
   * one before stops working. No Idempotency-Key: a retry must not replay a secret already shown.
   */
  makeHospitalLink: write({
    request: (hospitalId: number) => apiFetch<HospitalLinkResponse>(`/api/hospitals/${hospitalId}/link`, { method: 'POST' }),
    invalidates: [lists.hospitals],
  }),

  /** POST /api/users or PUT /api/users/{id}. */
  saveOperator: write({
    request: createOrUpdate<FormBody<typeof userWriteSchema>, { user: UserDto }>('/api/users'),
    invalidates: [lists.operators],
  }),
  /** DELETE /api/users/{id}. */
  deleteOperator: write({
    request: (id: number) => apiFetch(`/api/users/${id}`, { method: 'DELETE' }),
    invalidates: [lists.operators],
  }),
  /** POST /api/users/{id}/signout: ends every live session of a staff member; their open screens must sign in again. */
  signOutEverywhere: write({
    request: (u: Pick<UserDto, 'id'>) => apiFetch<SignOutEverywhereResponse>(`/api/users/${u.id}/signout`, { method: 'POST' }),
    invalidates: [],
  }),

  /** DELETE /api/users/{id}/signin-limits: clears an account's code-mail and failure counts, so its owner can have a code mailed at once. */
  clearSigninLimits: write({
    request: (u: Pick<UserDto, 'id'>) => apiFetch<SigninLimitsDto>(`/api/users/${u.id}/signin-limits`, { method: 'DELETE' }),
    invalidates: [['signin-limits']],
  }),

  /**
   * POST /api/tracking/initiate: mails the patient a tracking link and the driver a driver
   * link. A retry of one press (a lost answer) mails nothing twice and mints no second pair of links.
   */
  sendTracker: write({
    request: (body: Body<typeof trackingInitiateSchema>) =>
      apiFetch<TrackingInitiateResponse>('/api/tracking/initiate', { method: 'POST', idempotencyKey: newIdempotencyKey(), body }),
    invalidates: [],
  }),

  /** PUT /api/hospital/{id}/status?t=…: the hospital sets its own diversion status (a diversion needs a reason). */
  setHospitalStatus: write({
    request: ({ link, body }: { link: HospitalLink; body: HospitalStatusInput }) =>
      apiFetch<{ hospital: HospitalDto }>(hospitalPath(link, '/status'), { method: 'PUT', body, auth: false }),
    answered: (r, { link }, qc) => {
      const { hospital: h } = r;
      qc.setQueryData<HospitalPageDto>(hospitalPage(link.hospitalId, link.token).queryKey, (page) => page && ({
        ...page,
        hospital: { ...page.hospital, status: h.status, status_reason: h.status_reason, status_updated_at: h.status_updated_at, status_updated_by: h.status_updated_by },
      }));
      hospitalPageStale(qc, link);
    },
    invalidates: [],
  }),
  /** POST /api/hospital/{id}/prealerts/{prealertId}/ack?t=…: the hospital acknowledges a pre-alert (a repeat answers the first). */
  acknowledgePrealert: write({
    request: ({ link, prealertId }: { link: HospitalLink; prealertId: number }) =>
      apiFetch<PrealertResponse>(hospitalPath(link, `/prealerts/${prealertId}/ack`), { method: 'POST', auth: false }),
    answered: (r, { link }, qc) => {
      const patch = (u: HospitalPageDto['inbound'][number]) => (u.prealert?.id === r.prealert.id ? { ...u, prealert: r.prealert } : u);
      qc.setQueryData<HospitalPageDto>(hospitalPage(link.hospitalId, link.token).queryKey, (page) => page && ({
        ...page, inbound: page.inbound.map(patch), arrived: page.arrived.map(patch),
      }));
      hospitalPageStale(qc, link);
    },
    invalidates: [],
  }),
  /** POST /api/hospital/{id}/handover/{assignmentId}?t=…: "Handover complete" for a unit conveyed here (eTimes.12). */
  hospitalHandover: write({
    request: ({ link, assignmentId }: { link: HospitalLink; assignmentId: number }) =>
      apiFetch<UnitStatusAck>(hospitalPath(link, `/handover/${assignmentId}`), { method: 'POST', auth: false }),
    answered: (_r, { link }, qc) => hospitalPageStale(qc, link),
    invalidates: [],
  }),
};
